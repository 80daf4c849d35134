//! Turns a reply (plain data) into RFC 5322 bytes with lettre's builder: the
//! headers players filter and thread on, and a fixed Message-ID, so a resend
//! after a crash is the very same mail. A mail with an HTML part becomes
//! `multipart/alternative`: the text part first (what a text-only client
//! shows), the HTML part last (what a client that can prefers).
//! [no IO, but at the edge: uses lettre]

use lettre::Message;
use lettre::message::header::ContentTransferEncoding;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Body, Mailbox, MultiPart, SinglePart};

use crate::config::RefereeConfig;
use crate::html::MailPage;
use crate::keys::message_key;
use crate::lines::crlf_lines;
use crate::reply::OutMail;

/// Why a mail could not be written: an address lettre cannot parse, or a
/// message it cannot build.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("referee address: {0}")]
    Referee(lettre::address::AddressError),
    #[error("recipient {to}: {source}")]
    Recipient {
        to: String,
        source: lettre::address::AddressError,
    },
    #[error("reply-to {reply_to}: {source}")]
    ReplyTo {
        reply_to: String,
        source: lettre::address::AddressError,
    },
    #[error("building the mail: {0}")]
    Build(#[from] lettre::error::Error),
}

/// A rendered mail: what the outbox stores and the transport sends.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// Without the angle brackets.
    pub message_id: String,
    pub to: String,
    pub raw: Vec<u8>,
}

/// A new Message-ID's local part: the time in milliseconds, fixed-width hex,
/// then a random part. Unique as before; the time first makes the ids of
/// the mails written together neighbours in the outbox's unique index, so
/// each insert lands on the index's last page instead of a random one of a
/// large database's (one page written per mail instead of one per index
/// level touched at random).
fn random_id() -> String {
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    format!("{millis:011x}-{}", message_key())
}

fn angle(id: &str) -> String {
    format!("<{}>", id.trim_matches(|c| c == '<' || c == '>'))
}

/// Renders `mail` from the referee. `thread_root` is the game's thread id;
/// `references` are the references of the message being answered.
pub fn render(
    mail: &OutMail,
    referee: &RefereeConfig,
    thread_root: Option<&str>,
    references: &[String],
) -> Result<Rendered, RenderError> {
    render_as(
        mail,
        referee,
        thread_root,
        references,
        new_message_id(referee),
    )
}

/// A new Message-ID (without the angle brackets) for a mail from the
/// referee, for [`render_as`].
pub fn new_message_id(referee: &RefereeConfig) -> String {
    format!("wildt-{}@{}", random_id(), referee.domain)
}

/// [`render`] with the Message-ID chosen before: the outbox row can be
/// written before the body is rendered.
pub fn render_as(
    mail: &OutMail,
    referee: &RefereeConfig,
    thread_root: Option<&str>,
    references: &[String],
    message_id: String,
) -> Result<Rendered, RenderError> {
    let head = || head(mail, referee, thread_root, references, &message_id);
    let page = mail.html.as_ref().map(|h| h.render_for_mail(&mail.subject));
    let raw = write_mail(head, crlf_lines(&mail.body), page)?;
    Ok(Rendered {
        message_id,
        to: mail.to.clone(),
        raw,
    })
}

/// The headers of `mail` as `render_as` writes them, in lettre's builder.
fn head(
    mail: &OutMail,
    referee: &RefereeConfig,
    thread_root: Option<&str>,
    references: &[String],
    message_id: &str,
) -> Result<lettre::message::MessageBuilder, RenderError> {
    let from_address: lettre::Address = referee.address.parse().map_err(RenderError::Referee)?;
    let to_address: lettre::Address = mail.to.parse().map_err(|source| RenderError::Recipient {
        to: mail.to.clone(),
        source,
    })?;
    let mut builder = Message::builder();
    // The envelope said, not read back: lettre would otherwise parse the
    // From and To it was just given (and look for Sender, Cc, Bcc) to
    // make one, some 15,000 instructions a mail (callgrind). wildt never
    // uses a rendered mail's envelope (a mail is sent from its outbox
    // row), and this one is what lettre would have made: From's address,
    // To's.
    if let Ok(envelope) =
        lettre::address::Envelope::new(Some(from_address.clone()), vec![to_address.clone()])
    {
        builder = builder.envelope(envelope);
    }
    let mut builder = builder
        .from(Mailbox::new(Some(referee.name.clone()), from_address))
        .to(Mailbox::new(mail.to_name.clone(), to_address))
        .subject(mail.subject.clone())
        .message_id(Some(angle(message_id)))
        .date_now();
    // A reply address is a bare address (a seat's game address, an
    // event's), read as one: read as a mailbox, which may carry a name,
    // it takes lettre's RFC 2822 parser, 1 % of the intake's thread.
    if let Some(reply_to) = &mail.reply_to {
        let address: lettre::Address = reply_to.parse().map_err(|source| RenderError::ReplyTo {
            reply_to: reply_to.clone(),
            source,
        })?;
        builder = builder.reply_to(Mailbox::new(None, address));
    }
    // Thread: the game's root first, then what the player's client referenced.
    let mut refs: Vec<String> = Vec::new();
    if let Some(root) = thread_root {
        refs.push(angle(root));
    }
    if mail.in_reply_to.is_some() {
        for r in references.iter().rev().take(8).rev() {
            let r = angle(r);
            if !refs.contains(&r) {
                refs.push(r);
            }
        }
    }
    let parent = mail
        .in_reply_to
        .as_deref()
        .map(angle)
        .or_else(|| thread_root.map(angle));
    if let Some(parent) = &parent {
        if !refs.contains(parent) {
            refs.push(parent.clone());
        }
        builder = builder.in_reply_to(parent.clone());
    }
    if !refs.is_empty() {
        builder = builder.references(refs.join(" "));
    }
    builder = builder
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            "auto-replied".to_owned(),
        ))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("X-Wildt-Event"),
            mail.kind.as_str().to_owned(),
        ));
    if let Some(game) = mail.game {
        builder = builder.raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("X-Wildt-Game"),
            game.to_string(),
        ));
    }
    builder = builder.raw_header(HeaderValue::new(
        HeaderName::new_from_ascii_str("Content-Language"),
        mail.lang.code().to_owned(),
    ));
    Ok(builder)
}

/// The mail `head` makes the headers of, with the text part `text` and the
/// HTML part `page` if any, as bytes.
fn write_mail(
    head: impl Fn() -> Result<lettre::message::MessageBuilder, RenderError>,
    text: crate::lines::Lines<'_>,
    page: Option<MailPage<'_>>,
) -> Result<Vec<u8>, RenderError> {
    let builder = head()?;
    if text.seven_bit && page.as_ref().is_none_or(|p| p.seven_bit) {
        // Every part goes as it is: lettre writes the mail around a mark in
        // each part's place, and the parts are put there, each copied once
        // into a mail of its final size. lettre's own writing copies each
        // part into a buffer grown by doubling: a long game's 27 KB mail
        // would be copied about twice more, into fresh memory.
        let shell = whole(
            builder,
            PART_MARKS[0].to_owned(),
            page.as_ref().map(|_| PART_MARKS[1].to_owned()),
        )?
        .formatted();
        let html = page.as_ref().map(MailPage::pieces);
        let text_pieces = [&*text.text];
        let mut parts: Vec<&[&str]> = vec![&text_pieces];
        parts.extend(html.as_ref().map(|p| &p[..]));
        if let Some(raw) = put_parts(&shell, &parts) {
            return Ok(raw);
        }
        // A mark not found exactly once (not seen: lettre encodes a NUL in
        // any header): lettre writes the whole mail.
        let html = page.map(MailPage::into_html);
        return Ok(whole(head()?, text.text.into_owned(), html)?.formatted());
    }
    Ok(message(builder, text_body(text), page.map(html_part))?.formatted())
}

/// The marks [`write_mail`] has lettre write in the places of the text part
/// and the HTML part: with NUL bytes, which lettre encodes in any header
/// (a subject holding a mark's text is written `=?utf-8?b?...?=`).
const PART_MARKS: [&str; 2] = ["\0wildt:text-part\0", "\0wildt:html-part\0"];

/// The mail with the text part `text` and the HTML part `html`, both sent
/// `7bit` as they are (the caller knows they fit): lettre's message.
fn whole(
    builder: lettre::message::MessageBuilder,
    text: String,
    html: Option<String>,
) -> Result<Message, lettre::error::Error> {
    let text = Body::dangerous_pre_encoded(text.into_bytes(), ContentTransferEncoding::SevenBit);
    message(
        builder,
        text,
        html.map(|html| html_part(MailPage::whole(html, true))),
    )
}

/// The mail: the text part alone, or `multipart/alternative` with the text
/// part first (what a text-only client shows) and the HTML part last.
fn message(
    builder: lettre::message::MessageBuilder,
    text: Body,
    html: Option<SinglePart>,
) -> Result<Message, lettre::error::Error> {
    match html {
        Some(html) => builder.multipart(
            MultiPart::alternative()
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_PLAIN)
                        .body(text),
                )
                .singlepart(html),
        ),
        None => builder.header(ContentType::TEXT_PLAIN).body(text),
    }
}

/// `shell` with the part marks of [`PART_MARKS`] replaced by `parts` (each
/// the pieces of a part, in order), in a buffer of the mail's size; `None`
/// unless each mark is found exactly once, the first before the second.
fn put_parts(shell: &[u8], parts: &[&[&str]]) -> Option<Vec<u8>> {
    // Every NUL of the shell opens or closes a mark: a NUL is in no header
    // lettre writes, and the parts are the marks.
    let mut nuls = memchr::memchr_iter(0, shell);
    let mut at = Vec::with_capacity(parts.len());
    for mark in &PART_MARKS[..parts.len()] {
        let start = nuls.next()?;
        nuls.next()?;
        if !shell[start..].starts_with(mark.as_bytes()) {
            return None;
        }
        at.push(start);
    }
    if nuls.next().is_some() {
        return None;
    }
    let pieces: usize = parts.iter().flat_map(|p| p.iter()).map(|p| p.len()).sum();
    let marks: usize = PART_MARKS[..parts.len()].iter().map(|m| m.len()).sum();
    let mut out = Vec::with_capacity(shell.len() + pieces - marks);
    let mut from = 0;
    for ((start, part), mark) in at.into_iter().zip(parts).zip(PART_MARKS) {
        out.extend_from_slice(&shell[from..start]);
        for piece in *part {
            out.extend_from_slice(piece.as_bytes());
        }
        from = start + mark.len();
    }
    out.extend_from_slice(&shell[from..]);
    Some(out)
}

/// The text part's body: `7bit` as it is when SMTP can carry it so (see
/// [`crlf_lines`]), as `html_part` sends the page; else lettre's
/// choice (quoted-printable or base64). lettre chooses quoted-printable
/// for any line of 76 or more, and one such line (the English footer's
/// list of commands is 80) made the whole part, a long game's record and
/// all, pass through its encoder and out in soft-broken lines.
fn text_body(lines: crate::lines::Lines<'_>) -> Body {
    let text = lines.text.into_owned();
    if !lines.seven_bit {
        return Body::new(text);
    }
    Body::dangerous_pre_encoded(text.into_bytes(), ContentTransferEncoding::SevenBit)
}

/// The HTML part as it is, `7bit`, when it is ASCII in lines SMTP carries
/// (at most 998 octets, no NUL), as `html::GamePage` writes it and says
/// ([`MailPage::seven_bit`]): no quoted-printable pass over every byte, no
/// `=3D` for every `=`, no pass to check it. lettre would choose
/// quoted-printable for anything with a line of 76 or more; a page that
/// does not fit is left to that choice.
fn html_part(page: MailPage<'_>) -> SinglePart {
    if !page.seven_bit {
        return SinglePart::html(page.into_html());
    }
    SinglePart::builder()
        .header(ContentType::TEXT_HTML)
        .body(Body::dangerous_pre_encoded(
            page.into_html().into_bytes(),
            ContentTransferEncoding::SevenBit,
        ))
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use mail_parser::MessageParser;

    use super::*;

    /// Ids are ordered by the time they were made (the outbox's unique index
    /// then grows at its end) and still unique within one millisecond.
    #[test]
    fn message_ids_made_later_sort_after_earlier_ones_and_never_repeat() {
        let first = random_id();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let same_ms: Vec<String> = (0..50).map(|_| random_id()).collect();
        assert!(same_ms.iter().all(|id| *id > first), "{first} {same_ms:?}");
        let distinct: std::collections::HashSet<&String> = same_ms.iter().collect();
        assert_eq!(distinct.len(), same_ms.len());
    }
    use crate::i18n::Lang;
    use crate::reply::{HtmlPart, MailKind};

    fn mail(html: Option<HtmlPart>) -> OutMail {
        OutMail {
            to: "anna@example.org".to_owned(),
            to_name: None,
            reply_to: None,
            subject: "[wildt #17] Stellung".to_owned(),
            body: "Partie 17: die Stellung jetzt.\n".to_owned(),
            html,
            lang: Lang::De,
            kind: MailKind::Notice,
            game: Some(17),
            in_reply_to: None,
        }
    }

    #[test]
    fn a_mail_with_html_is_multipart_alternative_text_first() {
        let html = HtmlPart::new(
            Lang::De,
            "Partie 17: die Stellung jetzt.\n".to_owned(),
            crate::game::Record::new(None).unwrap(),
            shakmaty::Color::White,
            "Brett".to_owned(),
        );
        let r = render(&mail(Some(html)), &crate::fixtures::referee(), None, &[]).unwrap();
        let parsed = MessageParser::default().parse(&r.raw).unwrap();
        let raw = String::from_utf8_lossy(&r.raw);
        assert!(raw.contains("Content-Type: multipart/alternative"), "{raw}");
        assert_eq!(
            parsed
                .body_text(0)
                .map(|t| t.replace("\r\n", "\n"))
                .as_deref(),
            Some("Partie 17: die Stellung jetzt.\n")
        );
        let page = parsed.body_html(0).unwrap();
        assert!(page.contains(">Brett</p>"), "{page}");
        assert!(
            page.contains("<title>[wildt #17] Stellung</title>"),
            "{page}"
        );
        assert!(raw.contains("Content-Language: de"), "{raw}");
        // A text-only client shows the first alternative: the text part.
        let text_at = raw.find("text/plain").unwrap();
        assert!(text_at < raw.find("text/html").unwrap());
    }

    /// The two mails of White's move 151 (7163) in a 300-ply knight
    /// shuffle, both players English, and the referee that writes them.
    fn english_mails_at_ply_300() -> (crate::reply::Letters, RefereeConfig) {
        let shuffle = ["7163", "7866", "6371", "6678"];
        let plies: Vec<&str> = shuffle.iter().copied().cycle().take(300).collect();
        crate::fixtures::white_moves(&crate::fixtures::game_17(&plies), "7163", Lang::En)
    }

    /// An English confirmation late in a long game goes out with both parts
    /// 7-bit, as written: the record is in short lines, so nothing in the
    /// text part forces quoted-printable (which a 300-ply record on one
    /// line did).
    #[test]
    fn a_long_games_english_confirmation_is_seven_bit_in_both_parts() {
        let (letters, referee) = english_mails_at_ply_300();
        let confirmation = &letters.mails[0];
        let r = render(confirmation, &referee, None, &[]).unwrap();
        let out = String::from_utf8_lossy(&r.raw);
        assert_eq!(
            out.matches("Content-Transfer-Encoding: 7bit").count(),
            2,
            "{out}"
        );
        assert!(!out.contains("quoted-printable"));
        let parsed = MessageParser::default().parse(&r.raw).unwrap();
        let text = parsed.body_text(0).unwrap().replace("\r\n", "\n");
        assert!(
            text.lines().any(|l| l.ends_with("151. 7163 (Nf3)")),
            "{text}"
        );
        assert!(text.lines().all(|l| l.len() <= 72), "{text}");
    }

    /// The move passed on to the opponent ends with the English footer,
    /// whose list of commands is an 80-column line: the text part still
    /// goes out `7bit` (lettre alone made the whole part, the record and
    /// all, quoted-printable for that one line), and reads back exactly as
    /// written, that line whole.
    #[test]
    fn a_long_games_english_relay_with_its_long_footer_line_is_seven_bit_and_reads_back_as_written()
    {
        let (letters, referee) = english_mails_at_ply_300();
        let relay = &letters.mails[1];
        assert!(
            relay.body.lines().any(|l| l.len() > 76),
            "the footer has a line over 76: {}",
            relay.body
        );
        let r = render(relay, &referee, None, &[]).unwrap();
        let out = String::from_utf8_lossy(&r.raw);
        assert_eq!(
            out.matches("Content-Transfer-Encoding: 7bit").count(),
            2,
            "{out}"
        );
        assert!(!out.contains("quoted-printable"), "{out}");
        let parsed = MessageParser::default().parse(&r.raw).unwrap();
        let text = parsed.body_text(0).unwrap().replace("\r\n", "\n");
        assert_eq!(text, relay.body);
    }

    /// `raw` with its multipart boundary (random per mail) named `B`.
    fn boundary_named_b(raw: &[u8]) -> String {
        let raw = String::from_utf8(raw.to_vec()).expect("7-bit");
        match raw
            .split("boundary=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
        {
            Some(b) => raw.replace(b, "B"),
            None => raw,
        }
    }

    /// A builder as `render_as` makes one, with a fixed date.
    fn builder(subject: &str) -> Result<lettre::message::MessageBuilder, RenderError> {
        Ok(Message::builder()
            .from("Club referee <chess@club.example>".parse().unwrap())
            .to("anna@example.org".parse().unwrap())
            .subject(subject)
            .message_id(Some("<wildt-1@club.example>".to_owned()))
            .date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_795_000_000)))
    }

    /// The parts put in place of lettre's marks make, byte for byte, the
    /// mail lettre writes with the parts themselves: a long game's two
    /// parts, a mail of one part, and a subject holding a mark's text
    /// (lettre encodes its NUL bytes: the marks in the parts stay the only
    /// ones).
    #[test]
    fn a_mail_put_together_around_marks_is_byte_for_byte_what_lettre_writes() {
        let (letters, _) = english_mails_at_ply_300();
        for (mail, subject) in [
            (&letters.mails[0], letters.mails[0].subject.clone()),
            (&letters.mails[1], format!("mark {} in it", PART_MARKS[1])),
        ] {
            let page = mail.html.as_ref().unwrap().render_for_mail(&mail.subject);
            let text = crlf_lines(&mail.body);
            assert!(
                text.seven_bit && page.seven_bit,
                "both parts go as they are"
            );
            let lettres = whole(
                builder(&subject).unwrap(),
                text.text.clone().into_owned(),
                Some(page.pieces().concat()),
            )
            .unwrap()
            .formatted();
            let put = write_mail(|| builder(&subject), text, Some(page)).unwrap();
            assert_eq!(boundary_named_b(&put), boundary_named_b(&lettres));
            assert!(put.len() > 20_000, "a long game's mail: {}", put.len());
            assert!(
                String::from_utf8_lossy(&put).contains(&subject)
                    || put.windows(2).any(|w| w == b"=?"),
                "the subject as written or encoded"
            );
        }
        let one = "Game 17: your move.\r\n";
        let lettres = whole(builder("one part").unwrap(), one.to_owned(), None)
            .unwrap()
            .formatted();
        let put = write_mail(|| builder("one part"), crlf_lines(one), None).unwrap();
        assert_eq!(put, lettres);
        assert!(!put.contains(&0), "no mark left");
    }

    /// The marks are found only where they are, once each, in order.
    #[test]
    fn parts_are_put_only_in_place_of_marks_found_once_each_in_order() {
        let shell = format!(
            "head\r\n{}\r\nmid\r\n{}\r\nend",
            PART_MARKS[0], PART_MARKS[1]
        );
        assert_eq!(
            put_parts(shell.as_bytes(), &[&["TEXT"], &["HT", "", "ML"]]).as_deref(),
            Some(&b"head\r\nTEXT\r\nmid\r\nHTML\r\nend"[..])
        );
        let twice = format!("{}{shell}", PART_MARKS[1]);
        assert_eq!(put_parts(twice.as_bytes(), &[&["T"], &["H"]]), None);
        let swapped = format!("{}{}", PART_MARKS[1], PART_MARKS[0]);
        assert_eq!(put_parts(swapped.as_bytes(), &[&["T"], &["H"]]), None);
        assert_eq!(put_parts(b"no marks", &[&["T"]]), None);
    }

    /// Text that SMTP cannot carry as it is still gets lettre's encoding,
    /// and reads back as written: a line over 998 octets, or a letter
    /// outside ASCII (every language but English has some).
    #[test]
    fn text_part_of_long_lines_or_beyond_ascii_is_encoded_and_reads_back() {
        for body in [
            format!("5254\n{}\nend\n", "a".repeat(999)),
            "Partie 17: Ihr Zug 5254 (e4) ist eingetragen.\nZ\u{fc}ge bitte numerisch.\n"
                .to_owned(),
            "\u{41f}\u{430}\u{440}\u{442}\u{438}\u{44f} 17\n".to_owned(),
        ] {
            let mut m = mail(None);
            m.body = body.clone();
            let r = render(&m, &crate::fixtures::referee(), None, &[]).unwrap();
            let out = String::from_utf8_lossy(&r.raw);
            assert!(!out.contains("Content-Transfer-Encoding: 7bit"), "{out}");
            let parsed = MessageParser::default().parse(&r.raw).unwrap();
            // (lettre's encoders end the part with a line break of their own)
            let text = parsed.body_text(0).unwrap().replace("\r\n", "\n");
            assert_eq!(text.trim_end_matches('\n'), body.trim_end_matches('\n'));
        }
    }

    /// The text handed to lettre already ends its lines in CRLF, as lettre
    /// would have made them: bare LFs get their CR, CRLFs stay as they are.
    #[test]
    fn text_lines_end_in_crlf_as_lettre_would_end_them() {
        for text in [
            "",
            "a",
            "a\nb\n",
            "\n\na\r\nb\nc",
            "caf\u{e9}\n\u{e9}\n",
            "a\r\n\r\n",
        ] {
            let ours = Body::new(crlf_lines(text).text.into_owned());
            let lettres = Body::new(text.to_owned());
            assert_eq!(ours.into_vec(), lettres.into_vec(), "{text:?}");
            assert!(!crlf_lines(text).text.replace("\r\n", "").contains('\n'));
        }
    }

    /// A bare CR (a display name decoded from an encoded word can hold
    /// one) goes out as a line break, CRLF, in both parts: never alone,
    /// which SMTP servers may refuse, and lettre would have sent as it is.
    #[test]
    fn a_bare_cr_goes_out_as_a_line_break() {
        assert_eq!(
            crlf_lines("a\rb\r\nc\n\rd\r").text,
            "a\r\nb\r\nc\r\n\r\nd\r\n"
        );
        let mut m = mail(Some(HtmlPart::new(
            Lang::En,
            "Game 17: White (Anna\rExample) played.\n".to_owned(),
            crate::game::Record::new(None).unwrap(),
            shakmaty::Color::White,
            String::new(),
        )));
        m.body = "Game 17: White (Anna\rExample) played.\n".to_owned();
        let r = render(&m, &crate::fixtures::referee(), None, &[]).unwrap();
        let bare = r
            .raw
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'\r' && r.raw.get(i + 1) != Some(&b'\n'))
            .count();
        assert_eq!(bare, 0, "{}", String::from_utf8_lossy(&r.raw));
        let parsed = MessageParser::default().parse(&r.raw).unwrap();
        let text = parsed.body_text(0).unwrap().replace("\r\n", "\n");
        assert_eq!(text, "Game 17: White (Anna\nExample) played.\n");
    }

    #[test]
    fn a_mail_without_html_stays_plain_text() {
        let r = render(&mail(None), &crate::fixtures::referee(), None, &[]).unwrap();
        let raw = String::from_utf8_lossy(&r.raw);
        assert!(raw.contains("Content-Type: text/plain"), "{raw}");
        assert!(raw.contains("Content-Transfer-Encoding: 7bit"), "{raw}");
        assert!(
            !raw.contains("multipart") && !raw.contains("text/html"),
            "{raw}"
        );
    }

    /// An HTML page goes out `7bit` only when SMTP can carry it as it is:
    /// ASCII, no NUL, no line over 998 octets (its CR not counted). Lines
    /// already ending in CRLF are taken as they are, not copied; a bare LF
    /// or CR is made CRLF, and ends a line where it stood.
    #[test]
    fn only_ascii_pages_in_short_lines_go_out_as_they_are() {
        let line = |n: usize| "a".repeat(n);
        // (the text CRLF, whether it was already, whether it is 7-bit)
        let check = |text: &str| {
            let lines = crlf_lines(text);
            let kept = matches!(lines.text, Cow::Borrowed(_));
            (lines.text.into_owned(), kept, lines.seven_bit)
        };
        let crlf = |text: &str| text.to_owned();
        assert_eq!(check("<p>\r\n<p>x"), (crlf("<p>\r\n<p>x"), true, true));
        assert_eq!(
            check("<p>\n<p>x\r\n"),
            (crlf("<p>\r\n<p>x\r\n"), false, true)
        );
        assert!(check(&format!("{}\r\nb", line(998))).2);
        assert!(!check(&format!("{}\r\nb", line(999))).2);
        assert!(!check(&format!("b\n{}", line(999))).2);
        assert!(check(&format!("b\n{}\r\n", line(998))).2);
        assert!(check(&format!("b\n{}\n", line(998))).2);
        assert!(!check(&format!("{}\rb", line(999))).2);
        assert_eq!(check("a\rb\r\n"), (crlf("a\r\nb\r\n"), false, true));
        assert_eq!(check("ab\r"), (crlf("ab\r\n"), false, true));
        assert!(!check("caf\u{e9}").2);
        assert!(!check("a\0b").2);

        let page =
            |html: String, seven_bit| html_part(MailPage::whole(html, seven_bit)).formatted();
        let fits = String::from_utf8(page("<p>one\r\n<p>two".to_owned(), true)).unwrap();
        assert!(fits.contains("Content-Transfer-Encoding: 7bit"), "{fits}");
        assert!(fits.contains("\r\n\r\n<p>one\r\n<p>two"), "{fits:?}");
        let long = String::from_utf8(page(format!("<p>{}", line(1200)), false)).unwrap();
        assert!(!long.contains("Content-Transfer-Encoding: 7bit"), "{long}");
    }
}
