//! Header work for the intake: the envelope (ids, sender, game address) and the
//! loop-prevention checks of RFC 3834. [pure: no IO]
//!
//! Works on a parsed `mail_parser::Message`, which may hold headers only (an
//! oversize message), so nothing here looks at bodies except the top-level
//! Content-Type.

use mail_parser::{Address, HeaderName, HeaderValue, Message, MimeHeaders};

use super::{Disposition, GameAddress, Intake, IntakeConfig, Reading, Unclear};

/// Everything but the disposition, which the caller fills in.
pub(super) fn envelope(message: &Message<'_>, cfg: &IntakeConfig) -> Intake {
    let (game_address, to_bare_referee) = game_address(message, cfg);
    Intake {
        message_id: message.message_id().map(strip_angles),
        from: message
            .from()
            .and_then(Address::first)
            .and_then(|a| a.address())
            .map(str::to_lowercase),
        subject: message.subject().unwrap_or_default().to_owned(),
        in_reply_to: ids(message.in_reply_to()).into_iter().next(),
        references: ids(message.references()),
        game_address,
        to_bare_referee,
        lang: super::language::LangHint::default(),
        disposition: Disposition::Read(Reading::Unclear(Unclear::NothingFound)),
        conditionals: None,
    }
}

fn strip_angles(id: &str) -> String {
    id.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_owned()
}

fn ids(value: &HeaderValue<'_>) -> Vec<String> {
    match value {
        HeaderValue::Text(t) => vec![strip_angles(t)],
        HeaderValue::TextList(list) => list.iter().map(|t| strip_angles(t)).collect(),
        _ => Vec::new(),
    }
}

/// The game address the message was delivered to, and whether there was
/// none (the mail is for the referee itself).
///
/// The envelope recipient the MTA recorded (`Delivered-To`, then
/// `X-Original-To`) comes first: a mail to two game addresses arrives as
/// two copies, each recorded with its own recipient, and each copy belongs
/// to that game, not to the first game named in To or Cc. Of several
/// `Delivered-To` (a forwarding chain) the topmost, the last delivery, counts
/// first. Only when the envelope names no game address (an inbox whose server
/// records none, or a copy delivered to the bare referee) do To and Cc decide.
fn game_address(message: &Message<'_>, cfg: &IntakeConfig) -> (Option<GameAddress>, bool) {
    let mut envelope: Vec<String> = Vec::new();
    for name in ["Delivered-To", "X-Original-To"] {
        for header in message.headers() {
            if header.name().eq_ignore_ascii_case(name)
                && let Some(raw) = raw_value(message, header)
            {
                envelope.extend(raw.split(',').map(bare_address));
            }
        }
    }
    let mut written: Vec<String> = Vec::new();
    for header in [HeaderName::To, HeaderName::Cc] {
        for value in message.header_values(header) {
            if let HeaderValue::Address(list) = value {
                written.extend(list.iter().filter_map(|a| a.address()).map(str::to_owned));
            }
        }
    }
    let first = |candidates: &[String]| {
        candidates
            .iter()
            .filter_map(|c| referee_tag(c, cfg).flatten())
            .find_map(parse_tag)
    };
    let address = first(&envelope).or_else(|| first(&written));
    let bare = address.is_none();
    (address, bare)
}

fn raw_value<'m>(message: &'m Message<'_>, header: &mail_parser::Header<'_>) -> Option<&'m str> {
    let raw = message.raw_message();
    let bytes = raw.get(header.offset_start() as usize..header.offset_end() as usize)?;
    std::str::from_utf8(bytes).ok()
}

/// `Name <a@b>` or `a@b` -> `a@b`.
fn bare_address(raw: &str) -> String {
    let raw = raw.trim();
    match (raw.rfind('<'), raw.rfind('>')) {
        (Some(open), Some(close)) if open < close => raw[open + 1..close].trim().to_owned(),
        _ => raw.to_owned(),
    }
}

/// `None`: not the referee. `Some(None)`: the bare referee. `Some(Some(tag))`:
/// the referee with a sub-address tag (lower-cased).
fn referee_tag(address: &str, cfg: &IntakeConfig) -> Option<Option<String>> {
    let (local, domain) = address.rsplit_once('@')?;
    if !domain
        .trim()
        .eq_ignore_ascii_case(cfg.referee_domain.trim())
    {
        return None;
    }
    let local = local.trim().to_lowercase();
    let referee = cfg.referee_local.trim().to_lowercase();
    if local == referee {
        return Some(None);
    }
    let tag = local.strip_prefix(&referee)?.strip_prefix('+')?;
    Some(Some(tag.to_owned()))
}

/// Longest key accepted: far above what wildt generates, low enough to refuse junk.
const MAX_KEY_LEN: usize = 64;

/// `17-k3x9qp2m` -> game 17, key `k3x9qp2m`; a bare `17` -> game 17 with no
/// key, which is all `policy = "auth"` needs (under the key policies it is
/// answered as a wrong key).
fn parse_tag(tag: String) -> Option<GameAddress> {
    let (game, key) = match tag.split_once('-') {
        Some((game, key)) => {
            let key_ok = (8..=MAX_KEY_LEN).contains(&key.len())
                && key
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
            (game, key_ok.then_some(key)?)
        }
        None => (tag.as_str(), ""),
    };
    if game.is_empty() || !game.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(GameAddress {
        game: game.parse().ok()?,
        key: key.to_owned(),
    })
}

/// Local parts that only machines send from (compared lower-cased).
#[rustfmt::skip]
const DAEMON_LOCALS: &[&str] = &[
    "mailer-daemon",
    "mailerdaemon",
    "postmaster",
    "noreply",
    "no-reply",
    "no_reply",
    "donotreply",
    "do-not-reply",
    "do_not_reply",
    "bounce",
    "bounces",
    "listserv",
    "majordomo",
    "autoreply",
    "auto-reply",
];

/// `bounces+1234`, `noreply-games`, `MAILER-DAEMON`: the base local part (before
/// a `+tag`) is a machine name, or starts like one followed by `-`, `_` or `.`.
fn is_daemon_local(local: &str) -> bool {
    let base = local.split('+').next().unwrap_or(local);
    DAEMON_LOCALS.iter().any(|d| {
        base == *d
            || base
                .strip_prefix(d)
                .is_some_and(|rest| rest.starts_with(['-', '_', '.']))
    })
}

/// RFC 3834 and common practice: a reason never to answer, or `None`.
pub(super) fn automatic(message: &Message<'_>, cfg: &IntakeConfig) -> Option<super::AutoReason> {
    use super::AutoReason;
    if let Some(value) = text_header(message, "Auto-Submitted") {
        let keyword = first_word(&value);
        if !keyword.is_empty() && keyword != "no" {
            return Some(AutoReason::AutoSubmitted(keyword));
        }
    }
    if let Some(value) = text_header(message, "Precedence") {
        let keyword = first_word(&value);
        if ["bulk", "junk", "list", "auto_reply", "auto-reply"].contains(&keyword.as_str()) {
            return Some(AutoReason::Precedence(keyword));
        }
    }
    for name in ["X-Autoreply", "X-Autorespond"] {
        if has_header(message, name) {
            return Some(AutoReason::AutoReplyHeader(name));
        }
    }
    if has_header(message, "List-Id") {
        return Some(AutoReason::ListMail);
    }
    if let Some(value) = text_header(message, "Return-Path")
        && value
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
            .trim()
            .is_empty()
    {
        return Some(AutoReason::NullReturnPath);
    }
    if let Some(from) = message
        .from()
        .and_then(Address::first)
        .and_then(|a| a.address())
    {
        let local = from
            .rsplit_once('@')
            .map_or(from, |(l, _)| l)
            .to_lowercase();
        if is_daemon_local(&local) {
            return Some(AutoReason::DaemonSender(local));
        }
        // wildt's own mail come back (a Cc to itself, a forward loop): never
        // answer it, or two copies of wildt could talk to each other forever.
        if referee_tag(from, cfg).is_some() {
            return Some(AutoReason::DaemonSender(from.to_lowercase()));
        }
    }
    if let Some(ct) = message.root_part().content_type()
        && ct.ctype().eq_ignore_ascii_case("multipart")
        && ct
            .subtype()
            .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    {
        return Some(AutoReason::DeliveryReport);
    }
    None
}

fn has_header(message: &Message<'_>, name: &str) -> bool {
    message
        .headers()
        .iter()
        .any(|h| h.name().eq_ignore_ascii_case(name))
}

/// The header's raw text, whatever mail-parser made of it (some of these are
/// parsed as addresses or ids, which would lose `<>`).
fn text_header(message: &Message<'_>, name: &str) -> Option<String> {
    let header = message
        .headers()
        .iter()
        .find(|h| h.name().eq_ignore_ascii_case(name))?;
    raw_value(message, header).map(str::to_owned)
}

/// `auto-replied; comment` -> `auto-replied`.
fn first_word(value: &str) -> String {
    value
        .split([';', '(', ' ', '\t', '\r', '\n'])
        .find(|w| !w.is_empty())
        .unwrap_or_default()
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_senders_are_recognised_with_tags_and_suffixes() {
        for local in [
            "mailer-daemon",
            "postmaster",
            "bounces+1234",
            "noreply-games",
            "no-reply.x",
        ] {
            assert!(is_daemon_local(local), "{local}");
        }
    }

    #[test]
    fn people_whose_names_start_like_machines_are_not_daemons() {
        for local in [
            "anna",
            "bouncer",
            "postmasters-wife",
            "noreplyanna",
            "norbert",
        ] {
            assert!(!is_daemon_local(local), "{local}");
        }
    }

    fn cfg() -> IntakeConfig {
        IntakeConfig {
            referee_local: "chess".into(),
            referee_domain: "club.example".into(),
            max_message_bytes: 1024,
            max_commands: super::super::DEFAULT_MAX_COMMANDS,
        }
    }

    #[test]
    fn game_tag_is_a_number_with_a_long_enough_key_or_none() {
        assert_eq!(
            parse_tag("17-k3x9qp2m".into()),
            Some(GameAddress {
                game: 17,
                key: "k3x9qp2m".into()
            })
        );
        assert_eq!(
            parse_tag("17".into()),
            Some(GameAddress {
                game: 17,
                key: String::new()
            })
        );
        for bad in [
            "17-",
            "",
            "17-short",
            "x17-k3x9qp2m",
            "17k3x9qp2m",
            "-k3x9qp2m",
            "17-k3x9qp2m!",
            "99999999999999999999-k3x9qp2m",
        ] {
            assert_eq!(parse_tag(bad.into()), None, "{bad}");
        }
    }

    fn game_of(raw: &str) -> Option<i64> {
        let message = mail_parser::MessageParser::default()
            .parse_headers(raw.as_bytes())
            .expect("headers");
        game_address(&message, &cfg()).0.map(|a| a.game)
    }

    /// A mail to two games arrives as one copy per envelope recipient: each
    /// copy goes to the game the MTA delivered it to, not to the first game
    /// named in To or Cc.
    #[test]
    fn the_envelope_recipient_picks_the_game_before_to_and_cc() {
        let head = "From: anna@example.org\r\nTo: chess+17-k3x9qp2m@club.example\r\n\
                    Cc: chess+18-m4n5p6q7@club.example\r\n";
        let copy = |envelope: &str| format!("{envelope}{head}\r\n");
        assert_eq!(
            game_of(&copy("Delivered-To: chess+18-m4n5p6q7@club.example\r\n")),
            Some(18)
        );
        assert_eq!(
            game_of(&copy("X-Original-To: chess+18-m4n5p6q7@club.example\r\n")),
            Some(18)
        );
        assert_eq!(
            game_of(&copy("Delivered-To: chess+17-k3x9qp2m@club.example\r\n")),
            Some(17)
        );
        // The topmost Delivered-To is the last delivery.
        assert_eq!(
            game_of(&copy(
                "Delivered-To: chess+18-m4n5p6q7@club.example\r\n\
                 Delivered-To: chess+17-k3x9qp2m@club.example\r\n"
            )),
            Some(18)
        );
    }

    /// Without a game address in the envelope (none recorded, or the copy
    /// delivered to the bare referee or to another mailbox), To and Cc decide.
    #[test]
    fn without_an_envelope_game_address_to_and_cc_decide() {
        let head = "From: anna@example.org\r\nTo: Ben <ben@example.net>\r\n\
                    Cc: chess+17-k3x9qp2m@club.example\r\n";
        for envelope in [
            "",
            "Delivered-To: chess@club.example\r\n",
            "Delivered-To: anna@example.org\r\nX-Original-To: chess@club.example\r\n",
        ] {
            assert_eq!(
                game_of(&format!("{envelope}{head}\r\n")),
                Some(17),
                "{envelope}"
            );
        }
    }

    #[test]
    fn referee_address_is_case_insensitive() {
        assert_eq!(referee_tag("Chess@CLUB.example", &cfg()), Some(None));
        assert_eq!(
            referee_tag("CHESS+17-K3X9QP2M@club.example", &cfg()),
            Some(Some("17-k3x9qp2m".into()))
        );
        assert_eq!(referee_tag("chessclub@club.example", &cfg()), None);
        assert_eq!(referee_tag("chess@club.example.org", &cfg()), None);
    }
}
