//! What the player wrote *now*: the body text with quotes, forwarded messages
//! and signatures cut away. [pure: no IO]
//!
//! A quoted earlier message usually holds the opponent's (legal!) move, so
//! anything that might be quoted is dropped rather than read. HTML-only mail has
//! its quote elements removed *before* it is turned into text, because after
//! conversion the quote is no longer marked.
//!
//! Everything here is a single forward pass (plus a bounded look-ahead of a few
//! lines), so a pathological message costs linear time.

use mail_parser::{Message, PartType};

use super::boundary;
use super::quotes::{self, attribution_len, is_header_block};

/// At most this many inline text parts are read (Apple Mail splits a body around
/// inline images; more than a few is not a real reply).
const MAX_TEXT_PARTS: usize = 8;

/// The player's own lines, joined with `\n`.
pub(super) fn player_text(message: &Message<'_>) -> String {
    let mut out = String::new();
    let mut any = false;
    for part in message.text_bodies().take(MAX_TEXT_PARTS) {
        let text = match &part.body {
            PartType::Text(t) => t.to_string(),
            PartType::Html(h) => html_text(h),
            _ => continue,
        };
        any = true;
        out.push_str(&strip_quotes(&text));
        out.push('\n');
    }
    // No text part, or an empty one beside the HTML (some webmailers send that).
    if (!any || out.trim().is_empty())
        && let Some(part) = message.html_bodies().next()
        && let PartType::Html(h) = &part.body
    {
        out.push_str(&strip_quotes(&html_text(h)));
    }
    out
}

/// HTML -> text with quoted elements removed first.
pub(super) fn html_text(html: &str) -> String {
    mail_parser::decoders::html::html_to_text(&strip_html_quotes(html))
}

/// Elements whose opening tag (class or id) marks quoted or attributed text, or
/// a signature. The whole element is dropped (text after it, a bottom-post, is
/// kept).
#[rustfmt::skip]
const QUOTE_CONTAINER_MARKS: &[&str] = &[
    "gmail_quote",
    "moz-cite-prefix",
    "gmail_attr",
    "yahoo_quoted",
    "protonmail_quote",
    // Signatures are never commands, and hold phone numbers and dates.
    "gmail_signature",
    "moz-signature",
];

/// Opening-tag marks after which everything is the earlier message (Outlook puts
/// the quoted message *after* this element, not inside it).
#[rustfmt::skip]
const QUOTE_TAIL_MARKS: &[&str] = &[
    "divrplyfwdmsg",
    "appendonsend",
    "olk_src_body_section",
    "mail-editor-reference-message-container",
    // Outlook and Windows Mail: the reply header sits in a div with a thin top
    // border (grey in current versions, blue in Outlook 2007/2010).
    "border-top:solid #e1e1e1",
    "border-top:solid #b5c4df",
];

/// What a removed `<blockquote>` leaves behind: one quoted (`>`) line.
const REMOVED_QUOTE: &str = "<br>&gt;<br>";

/// Tags that start a new line of text; the converter only breaks at `<br>` and
/// `</p>`, and a Gmail body is a stack of `<div>`s.
#[rustfmt::skip]
const BLOCK_TAGS: &[&str] = &[
    "div", "/div", "p", "tr", "/tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "hr",
];

/// Removes `<blockquote>` elements, Gmail/Thunderbird quote containers, and
/// everything from Outlook's reply header on; inserts line breaks at block tags.
fn strip_html_quotes(html: &str) -> String {
    // ASCII lower-casing keeps byte offsets identical to `html`.
    let lower = html.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    let mut copied = 0;
    let mut pos = 0;
    while let Some(off) = lower[pos..].find('<') {
        let start = pos + off;
        let tag_end = lower[start..]
            .find('>')
            .map_or(lower.len(), |e| start + e + 1);
        let tag = &lower[start..tag_end];
        let name = tag_name(tag);
        out.push_str(&html[copied..start]);
        if name == "blockquote" {
            let end = element_end(&lower, tag_end, "blockquote");
            copied = end;
            pos = end;
            // A `>` line where the quote was: an attribution line left above
            // it is then dropped, and a bottom-post below it is kept.
            out.push_str(REMOVED_QUOTE);
            continue;
        }
        if QUOTE_TAIL_MARKS.iter().any(|m| tag.contains(m)) {
            return out;
        }
        if !name.is_empty()
            && !name.starts_with('/')
            && QUOTE_CONTAINER_MARKS.iter().any(|m| tag.contains(m))
        {
            let end = element_end(&lower, tag_end, name);
            copied = end;
            pos = end;
            out.push_str("<br>");
            continue;
        }
        if BLOCK_TAGS.contains(&name) {
            out.push_str("<br>");
        }
        out.push_str(&html[start..tag_end]);
        copied = tag_end;
        pos = tag_end;
        if pos >= bytes.len() {
            break;
        }
    }
    out.push_str(&html[copied..]);
    out
}

/// `<div class=…>` -> `div`, `</div>` -> `/div`.
fn tag_name(tag: &str) -> &str {
    let inner = tag.trim_start_matches('<');
    let end = inner
        .char_indices()
        .skip(1)
        .find(|(_, c)| !(c.is_ascii_alphanumeric()))
        .map_or(inner.len(), |(i, _)| i);
    &inner[..end]
}

/// Byte offset just after the `</name>` closing the element whose opening tag
/// ended at `from`, counting nested elements of the same name. An unclosed
/// element runs to the end (it is dropped whole, the safe side for a quote).
/// Both searches only move forward, so the cost is linear however deep the
/// nesting.
fn element_end(lower: &str, from: usize, name: &str) -> usize {
    let open = format!("<{name}");
    let close = format!("</{name}");
    let find = |at: usize, what: &str| lower.get(at..).and_then(|s| s.find(what)).map(|i| at + i);
    let mut depth = 1usize;
    let mut next_open = find(from, &open);
    let mut next_close = find(from, &close);
    loop {
        let Some(c) = next_close else {
            return lower.len();
        };
        match next_open {
            Some(o) if o < c => {
                depth += 1;
                next_open = find(o + open.len(), &open);
            }
            _ => {
                depth -= 1;
                if depth == 0 {
                    return find(c, ">").map_or(lower.len(), |e| e + 1);
                }
                next_close = find(c + close.len(), &close);
            }
        }
    }
}

/// Drops quoted (`>`) lines, attribution lines ("On … wrote:"), Outlook reply
/// headers, forwarded messages and signatures; keeps the rest in order.
pub(super) fn strip_quotes(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len().min(1 << 16));
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_end_matches('\r');
        let trimmed = line.trim();
        if quotes::is_groupwise_header(trimmed) {
            break;
        }
        if is_quoted(trimmed) {
            i += 1;
            continue;
        }
        if is_cut_line(trimmed)
            || is_header_block(&lines, i)
            || boundary::is_header_block(&lines, i)
        {
            break;
        }
        if let Some(len) = attribution_len(&lines, i) {
            if let Some(end) = quotes::own_text_before(&lines, i, len) {
                out.push_str(line[..end].trim_end_matches([' ', '\t', '-']));
                out.push('\n');
            }
            let after = next_nonblank(&lines, i + len);
            if after.is_some_and(|j| is_quoted(lines[j].trim())) {
                // A `>`-quote follows: drop the attribution; the quote lines are
                // dropped one by one, and a bottom-post after them is kept.
                i += len;
                continue;
            }
            // Nothing marks the quoted text: all of it follows the attribution.
            break;
        }
        if quotes::introduces_quote(&lines, i) {
            i += 1;
            continue;
        }
        out.push_str(line);
        out.push('\n');
        i += 1;
    }
    out
}

fn is_quoted(trimmed: &str) -> bool {
    trimmed.starts_with('>') || trimmed.starts_with('|')
}

fn next_nonblank(lines: &[&str], from: usize) -> Option<usize> {
    (from..lines.len().min(from + 3)).find(|&j| !lines[j].trim().is_empty())
}

/// Lines after which nothing is the player's new text: signature delimiters,
/// phone-client footers, forward and original-message separators.
fn is_cut_line(trimmed: &str) -> bool {
    if trimmed == "--" {
        return true;
    }
    quotes::is_separator(trimmed)
        || boundary::is_separator(trimmed)
        || is_phone_footer(&trimmed.to_lowercase())
}

/// "Sent from my iPhone" and its relatives in several languages.
fn is_phone_footer(lower: &str) -> bool {
    if lower.len() > 80 {
        return false;
    }
    const STARTS: &[&str] = &[
        "sent from my ",
        "sent from mail for",
        "sent from outlook",
        "sent from yahoo",
        "sent with ",
        "sent via ",
        "get outlook for",
        "von meinem ",
        "gesendet von",
        "gesendet mit",
        "envoyé de mon",
        "envoyé depuis",
        "enviado desde",
        "enviado do meu",
        "inviato da",
        "verzonden vanaf",
        "verstuurd vanaf",
        "skickat från",
        "sendt fra ",
        "enviado do ",
        "wysłane z ",
        "odesláno z ",
        "отправлено с ",
        "отправлено из ",
        "lähetetty iphone",
        "lähetetty android",
        "poslano s ",
        "poslano sa ",
        "iphoneから送信",
    ];
    STARTS.iter().any(|s| lower.starts_with(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_lines_are_dropped_and_bottom_post_kept() {
        let t = "On Mon, 12 May 2024 at 17:45, Ben <ben@example.net> wrote:\n> 12... 3746\n\n13. 5254\n";
        assert_eq!(strip_quotes(t).trim(), "13. 5254");
    }

    #[test]
    fn wrapped_gmail_attribution_starts_quote() {
        let t = "5254\n\nOn Mon, 12 May 2024 at 17:45, Ben Miller\n<ben@example.net> wrote:\n\n> 3746\n";
        assert_eq!(strip_quotes(t).trim(), "5254");
    }

    #[test]
    fn german_attribution_line_starts_quote() {
        let t = "5254\nAm 12.05.2024 um 17:45 schrieb Ben <ben@example.net>:\n3746\n";
        assert_eq!(strip_quotes(t).trim(), "5254");
    }

    #[test]
    fn french_spanish_italian_dutch_attributions_start_quote() {
        for a in [
            "Le lun. 12 mai 2024 à 17:45, Ben <ben@example.net> a écrit :",
            "El lun, 12 may 2024 a las 17:45, Ben (<ben@example.net>) escribió:",
            "Il giorno lun 12 mag 2024 alle ore 17:45 Ben <ben@example.net> ha scritto:",
            "Op ma 12 mei 2024 om 17:45 schreef Ben <ben@example.net>:",
        ] {
            let t = format!("5254\n{a}\n3746\n");
            assert_eq!(strip_quotes(&t).trim(), "5254", "{a}");
        }
    }

    #[test]
    fn outlook_header_block_starts_quote() {
        let t = "5254\n\nVon: Ben <ben@example.net>\nGesendet: Montag, 12. Mai 2024 17:45\nAn: chess\nBetreff: x\n3746\n";
        assert_eq!(strip_quotes(t).trim(), "5254");
        let t = "5254\nDe : Ben\nEnvoyé : lundi\nÀ : chess\nObjet : x\n3746\n";
        assert_eq!(strip_quotes(t).trim(), "5254");
    }

    #[test]
    fn signature_and_phone_footer_end_the_text() {
        assert_eq!(
            strip_quotes("5254\n-- \nAnna\n+49 30 5254 1234\n").trim(),
            "5254"
        );
        assert_eq!(
            strip_quotes("5254\n\nSent from my iPhone\n\n3746").trim(),
            "5254"
        );
    }

    #[test]
    fn html_blockquote_and_gmail_quote_are_removed() {
        let html = r#"<div dir="ltr">13. 5254</div><br><div class="gmail_quote"><div class="gmail_attr">On Mon, Ben wrote:<br></div><blockquote class="gmail_quote">12... 3746</blockquote></div>"#;
        let text = html_text(html);
        assert!(text.contains("5254"), "{text}");
        assert!(!text.contains("3746"), "{text}");
    }

    #[test]
    fn html_bottom_post_after_blockquote_is_kept() {
        let html = r#"<p>Ben wrote:</p><blockquote type="cite"><blockquote>3746</blockquote>7163</blockquote><p>13. 5254</p>"#;
        let text = html_text(html);
        assert!(text.contains("5254"), "{text}");
        assert!(!text.contains("3746") && !text.contains("7163"), "{text}");
    }

    #[test]
    fn html_attribution_above_a_removed_quote_is_dropped_and_bottom_post_kept() {
        let html = r#"<div>On 12 May 2024, at 17:45, Ben &lt;ben@example.net&gt; wrote:</div><blockquote type="cite">12... 3746</blockquote><div>13. 5254</div>"#;
        let text = strip_quotes(&html_text(html));
        assert_eq!(text.trim(), "13. 5254");
    }

    #[test]
    fn attribution_date_is_cut_with_the_quote() {
        let t = "5254\n\nons. 15. marts 2017 kl. 11.00 skrev Ben <ben@example.net>:\n\n> 3746\n";
        assert_eq!(strip_quotes(t).trim(), "5254");
    }

    #[test]
    fn polymail_address_wrapped_onto_a_quoted_looking_line_ends_the_attribution() {
        let t = "5254\n\nOn Sun, May 12, 2024 at 5:45 PM Ben Miller <ben@example.net\n> wrote:\n\n> 3746\n";
        assert_eq!(strip_quotes(t).trim(), "5254");
    }

    #[test]
    fn a_move_on_the_attribution_line_is_kept() {
        let t = "13. 5254 On Wed, Apr 4, 2012 at 3:59 PM, ben@example.net wrote:\n> 12... 3746\n";
        assert_eq!(strip_quotes(t).trim(), "13. 5254");
    }

    #[test]
    fn zoho_and_dash_framed_attributions_start_quote() {
        for a in [
            "---- On Sun, 12 May 2024 17:45:00 +0200 Ben <ben@example.net> wrote ----",
            "------On Sun, 12 May 2024 17:45, Ben wrote-----",
        ] {
            let t = format!("5254\n\n{a}\n\n3746\n");
            assert_eq!(strip_quotes(&t).trim(), "5254", "{a}");
        }
    }

    #[test]
    fn localized_header_blocks_and_android_separators_start_quote() {
        for quote in [
            "От: Ben\nОтправлено: 12 мая 2024 г. 17:45\nКому: Anna\nТема: x\n\n3746",
            "Fra: Ben\nSendt: 12. maj 2024 17:45\nTil: Anna\nEmne: x\n\n3746",
            "-------- Исходное сообщение --------\nОт: Ben\nДата: 12.05.2024 17:45\n3746",
            "-------- Opprinnelig melding --------\n3746",
        ] {
            let t = format!("5254\n\n{quote}\n");
            assert_eq!(strip_quotes(&t).trim(), "5254", "{quote}");
        }
    }

    #[test]
    fn outlook_html_reply_header_ends_the_text() {
        let html =
            r#"<div>5254</div><hr><div id="divRplyFwdMsg"><b>From:</b> Ben</div><div>3746</div>"#;
        let text = html_text(html);
        assert!(text.contains("5254") && !text.contains("3746"), "{text}");
    }

    #[test]
    fn deeply_nested_unclosed_quote_is_dropped_in_linear_time() {
        let html = format!("5254{}</blockquote>", "<blockquote>".repeat(100_000));
        assert_eq!(strip_quotes(&html_text(&html)).trim(), "5254");
    }

    #[test]
    fn html_signature_is_dropped() {
        let html = r#"<div>13. 5254</div><div class="gmail_signature"><div>Anna</div><div>Tel 5254 1234</div></div><pre class="moz-signature">-- 5755</pre>"#;
        let text = html_text(html);
        assert!(
            text.contains("5254") && !text.contains("1234") && !text.contains("5755"),
            "{text}"
        );
    }

    #[test]
    fn html_divs_become_lines() {
        let text = html_text("<div>13. 5254</div><div>Anna</div>");
        assert!(text.lines().any(|l| l.trim() == "13. 5254"), "{text:?}");
    }

    #[test]
    fn a_plain_move_below_a_link_with_a_date_in_its_path_is_read() {
        // The link's date made the paragraph look like an attribution.
        let t = "Ben wrote a fine post https://example.org/posts/2017-02-18-how-to-play-the-french/ about it:\n13. 5254\n";
        assert!(strip_quotes(t).lines().any(|l| l == "13. 5254"), "{t}");
    }

    #[test]
    fn a_flattened_older_thread_below_a_quote_is_cut() {
        for older in [
            "Ben Miller <ben@example.net> ezt írta (időpont: 2024. máj. 12., V, 17:45):\n13. 7163",
            "Feladó: Ben <ben@example.net>\nElküldve: 2024. május 12. 17:45\nTárgy: x\n13. 7163",
            "-------- Továbbított üzenet --------\n13. 7163",
        ] {
            let t = format!("13. 5254\n\n> 12... 3746\n> Ben\n\n{older}\n");
            assert_eq!(strip_quotes(&t).trim(), "13. 5254", "{older}");
        }
    }

    #[test]
    fn an_unknown_attribution_above_a_quote_is_dropped_and_the_reply_below_kept() {
        let t = "रवि, 12 मई 2024 को 5:45 pm बजे Ben <ben@example.net> ने लिखा:\n\n> 12... 3746\n\n13. 5254\n";
        assert_eq!(strip_quotes(t).trim(), "13. 5254");
    }

    mod properties {
        use proptest::prelude::*;

        use super::super::strip_quotes;

        /// A word in one of the scripts clients write their separators in.
        fn word() -> impl Strategy<Value = String> {
            prop_oneof![
                "[a-zà-ÿ]{2,10}",
                "[А-Яа-яё]{2,10}",
                "[α-ω]{2,10}",
                "[一-龥ぁ-んァ-ン]{2,6}",
                "[ء-ي]{2,8}",
                "[א-ת]{2,8}",
            ]
        }

        fn phrase() -> impl Strategy<Value = String> {
            prop::collection::vec(word(), 1..=4).prop_map(|w| w.join(" "))
        }

        fn frame() -> impl Strategy<Value = String> {
            (
                prop::sample::select(vec!['-', '_', '=', '*', '—', '─', '━', '═', '–']),
                3usize..12,
            )
                .prop_map(|(c, n)| std::iter::repeat_n(c, n).collect())
        }

        /// `Label: value` lines with an address and a date among the values.
        fn header_block() -> impl Strategy<Value = Vec<String>> {
            (
                word(),
                word(),
                word(),
                prop::sample::select(vec![":", "：", " :"]),
            )
                .prop_map(|(from, date, to, colon)| {
                    vec![
                        format!("{from}{colon} Ben Miller <ben@example.net>"),
                        format!("{date}{colon} 12.05.2024 17:45"),
                        format!("{to}{colon} Anna <anna@example.org>"),
                    ]
                })
        }

        /// Prose around a move: words, dates, years, times and links whose
        /// paths hold dates, never a boundary.
        fn prose_line() -> impl Strategy<Value = String> {
            let token = prop_oneof![
                prop::sample::select(vec![
                    "the",
                    "game",
                    "nice",
                    "see",
                    "this",
                    "post",
                    "about",
                    "French",
                    "blog",
                    "Ben",
                    "on",
                    "le",
                    "am",
                    "yesterday",
                    "until",
                    "by",
                    "from",
                    "see:",
                ])
                .prop_map(str::to_owned),
                (1u32..=28, 1u32..=12, 1990u32..2030)
                    .prop_map(|(d, m, y)| format!("{d:02}.{m:02}.{y}")),
                (1990u32..2030, 1u32..=12, 1u32..=28)
                    .prop_map(|(y, m, d)| format!("{y}-{m:02}-{d:02}")),
                (1990u32..2030).prop_map(|y| y.to_string()),
                (0u32..24, 0u32..60).prop_map(|(h, m)| format!("{h}:{m:02}")),
                (1990u32..2030, 1u32..=12, 1u32..=28, "[a-z]{3,8}").prop_map(|(y, m, d, s)| {
                    format!("https://example.org/posts/{y}-{m:02}-{d:02}-how-to-{s}/")
                }),
                (1990u32..2030, 1u32..=12)
                    .prop_map(|(y, m)| format!("www.example.com/{y}/{m:02}/x")),
            ];
            (prop::collection::vec(token, 1..10), prop::bool::ANY).prop_map(|(t, colon)| {
                let mut line = t.join(" ");
                if colon {
                    line.push(':');
                }
                line
            })
        }

        /// "Ben wrote … <link>:": a verb and a colon, with the only date in
        /// the link's path (the false negative of a dated blog link).
        fn linked_verb_line() -> impl Strategy<Value = String> {
            (
                prop::sample::select(vec!["Ben wrote", "Ben writes", "Ben schrieb", "Ben a écrit"]),
                1990u32..2030,
                1u32..=12,
                1u32..=28,
                "[a-z]{3,8}",
            )
                .prop_map(|(who, y, m, d, s)| {
                    format!("{who} a fine post https://example.org/posts/{y}-{m:02}-{d:02}-how-to-{s}/ about it:")
                })
        }

        fn any_line() -> impl Strategy<Value = String> {
            prop_oneof![4 => prose_line(), 1 => linked_verb_line()]
        }

        proptest! {
            #[test]
            fn a_separator_shaped_line_hides_a_move_below_it(
                lead in frame(),
                phrase in phrase(),
                trail in frame(),
                starred in prop::bool::ANY,
                block in prop::option::of(header_block()),
                same_line in prop::bool::ANY,
            ) {
                let mut sep = format!("{lead} {phrase} {trail}");
                if starred {
                    sep = format!("*{sep}*");
                }
                let mut below = Vec::new();
                match block {
                    Some(b) if same_line => sep = format!("{sep} {}", b.join(" ")),
                    Some(b) => below.extend(b),
                    None => {}
                }
                let text = format!("Anna\n\n{sep}\n{}\n\n13. 5254\n", below.join("\n"));
                let own = strip_quotes(&text);
                prop_assert!(!own.contains("5254"), "{text:?} -> {own:?}");
                prop_assert!(own.contains("Anna"), "{text:?} -> {own:?}");
            }

            #[test]
            fn a_move_line_with_no_boundary_above_is_read_whatever_surrounds_it(
                above in prop::collection::vec(any_line(), 0..6),
                below in prop::collection::vec(any_line(), 0..6),
                blank in prop::bool::ANY,
            ) {
                let gap = if blank { "\n" } else { "" };
                let text = format!(
                    "{}\n{gap}13. 5254\n{gap}{}\n",
                    above.join("\n"),
                    below.join("\n")
                );
                let own = strip_quotes(&text);
                prop_assert!(own.lines().any(|l| l == "13. 5254"), "{text:?} -> {own:?}");
            }
        }
    }
}
