//! The subject as player text: reply and forward prefixes dropped, and wildt's own
//! subjects recognised so that they carry no command. [pure: no IO]
//!
//! wildt's outgoing subjects all start with `[wildt #N]` (e.g.
//! `[wildt #17] 12... 3746 — your move`): a reply keeps that text, which names the
//! opponent's move, so such a subject must never be read as the player's move.

/// The marker every subject wildt writes starts with.
pub const WILDT_SUBJECT_MARK: &str = "[wildt";

/// The subject text that may hold the player's command, or `None` when it is
/// wildt's own subject (after prefixes) or empty.
pub(super) fn command_text(subject: &str) -> Option<String> {
    let rest = strip_prefixes(subject);
    let lower = rest.to_lowercase();
    // Anywhere, not only first: gateways put `[EXT]` and the like in front.
    if rest.is_empty() || lower.contains(WILDT_SUBJECT_MARK) {
        return None;
    }
    Some(rest.to_owned())
}

/// Reply/forward prefixes in the languages mail clients use (compared lower-cased).
#[rustfmt::skip]
const PREFIXES: &[&str] = &[
    "re", "aw", "sv", "vs", "antw", "réf", "ref", "rif", "fwd", "fw", "wg", "tr", "rv", "enc",
    "odp", "res", "r", "i", "vb", "doorst", "ynt", "atb", "fs",
];

/// Drops `Re:`, `RE :`, `Re[2]:`, `AW:`, `Réf.`, `Fwd:`, `WG:` … repeatedly, and
/// `[EXT]`-style tags a gateway may put in front.
pub(super) fn strip_prefixes(subject: &str) -> &str {
    let mut rest = subject.trim();
    loop {
        let before = rest.len();
        rest = strip_one(rest).trim_start();
        if rest.len() == before {
            return rest;
        }
    }
}

fn strip_one(s: &str) -> &str {
    let word_len = s
        .char_indices()
        .find(|(_, c)| !c.is_alphabetic())
        .map_or(s.len(), |(i, _)| i);
    let word = s[..word_len].to_lowercase();
    if !PREFIXES.contains(&word.as_str()) {
        return s;
    }
    let mut tail = &s[word_len..];
    // Counters: `Re[2]:`, `Re(2):`, `Re^2:`.
    if let Some(inner) = tail.strip_prefix(['[', '(']) {
        let digits = inner.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && inner[digits..].starts_with([']', ')']) {
            tail = &inner[digits + 1..];
        }
    }
    let tail_trimmed = tail.trim_start();
    if let Some(after) = tail_trimmed.strip_prefix(':') {
        return after;
    }
    // `Réf.` and `Ref.` close with a dot.
    if (word == "réf" || word == "ref")
        && let Some(after) = tail.strip_prefix('.')
    {
        return after;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reply_prefixes_are_dropped_repeatedly() {
        assert_eq!(
            strip_prefixes("Re: AW: RE : Re[2]: SV: Fwd: WG: hello"),
            "hello"
        );
        assert_eq!(strip_prefixes("Réf. Antw: VS: hello"), "hello");
    }

    #[test]
    fn a_word_that_merely_starts_like_a_prefix_is_kept() {
        assert_eq!(strip_prefixes("Remis?"), "Remis?");
        assert_eq!(strip_prefixes("Resign"), "Resign");
        assert_eq!(strip_prefixes("Re 5254"), "Re 5254");
    }

    #[test]
    fn wildt_subject_carries_no_command() {
        assert_eq!(command_text("Re: [wildt #17] 12... 3746 — your move"), None);
        assert_eq!(command_text("AW: [WILDT #17] game over"), None);
        assert_eq!(command_text("[EXT] Re: [wildt #17] 12... 3746"), None);
    }

    #[test]
    fn players_own_subject_counts() {
        assert_eq!(
            command_text("Re: Game 17: 13. 5254").as_deref(),
            Some("Game 17: 13. 5254")
        );
    }
}
