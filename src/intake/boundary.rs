//! Where a forwarded or quoted message starts, recognised by its *shape*
//! rather than its words: a separator line (a short phrase framed by dashes,
//! underscores, equals signs, asterisks or box-drawing characters, in any
//! script) and a header block (two or more `Label: value` lines whose values
//! hold an address and a date). [pure: no IO]
//!
//! Every client writes these in the user's interface language, so a table of
//! words always misses one (Thunderbird's `-------- Továbbított üzenet
//! --------`, the new Outlook's `Feladó:/Elküldve:`, a Japanese `送信元：`
//! with a full-width colon). The shapes do not depend on the language; the
//! word tables in `quotes` stay as a second signal and for the attribution
//! lines ("On … wrote:"), which have no shape of their own.
//!
//! Cutting too much is the safe side: a move below a boundary is never
//! played, and a message whose only move was cut is answered "no move found".

use super::quotes::has_date;

/// Frame characters on each side of a separator's phrase, at least.
/// (`== my move ==` is a player's decoration, not a separator.)
const MIN_FRAME: usize = 3;
/// A separator's phrase ("Original Message", "Пересланное сообщение") is short.
const MAX_PHRASE_CHARS: usize = 60;
const MAX_PHRASE_WORDS: usize = 6;
/// Phrases between frames on one separator line, at most.
const MAX_PHRASES: usize = 2;
/// A header label ("From", "Enviado el", "보낸 사람") is a few words.
const MAX_LABEL_CHARS: usize = 32;
const MAX_LABEL_WORDS: usize = 4;
/// Lines of a header block looked at from its first line.
const MAX_BLOCK_LINES: usize = 8;

/// Dashes, underscores, equals signs, asterisks, the Unicode dashes
/// (`‐ ‑ ‒ – — ―`, the minus sign, the full-width hyphen) and box drawing
/// (`─ ━ ═` …).
fn is_frame(c: char) -> bool {
    matches!(
        c,
        '-' | '_'
            | '='
            | '*'
            | '\u{2010}'..='\u{2015}'
            | '\u{2212}'
            | '\u{2500}'..='\u{257f}'
            | '\u{fe58}'
            | '\u{ff0d}'
            | '\u{ff3f}'
    )
}

/// Direction marks and the byte-order mark: clients writing Arabic, Hebrew or
/// Persian put them around lines and labels.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}'
    )
}

pub(super) fn trim_visible(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || is_invisible(c))
}

/// A separator by its shape: at least [`MIN_FRAME`] frame characters, a short
/// phrase of words (no digits: `---- 13. 5254 ----` is a move), at least
/// [`MIN_FRAME`] frame characters again; then nothing, or the forwarded
/// message's header pairs run together on the same line (Yahoo:
/// `----- Forwarded Message ----- From: Ben <ben@example.net> To: …`).
pub(super) fn is_separator(line: &str) -> bool {
    let s = trim_visible(line);
    let lead = s.chars().take_while(|&c| is_frame(c)).count();
    if lead < MIN_FRAME {
        return false;
    }
    let mut rest = &s[s.char_indices().nth(lead).map_or(s.len(), |(i, _)| i)..];
    // Thunderbird's Slovak separator holds two phrases:
    // `-------- Preposlaná správa --- Forwarded Message --------`.
    for _ in 0..MAX_PHRASES {
        let Some(close) = frame_run(rest) else {
            return false;
        };
        if !is_phrase(trim_visible(&rest[..close])) {
            return false;
        }
        rest = trim_visible(rest[close..].trim_start_matches(is_frame));
        if rest.is_empty() || label_value(rest).is_some() {
            return true;
        }
    }
    false
}

/// Byte offset of the first run of at least [`MIN_FRAME`] frame characters.
fn frame_run(s: &str) -> Option<usize> {
    let mut start = None;
    let mut n = 0;
    for (i, c) in s.char_indices() {
        if is_frame(c) {
            if n == 0 {
                start = Some(i);
            }
            n += 1;
            if n >= MIN_FRAME {
                return start;
            }
        } else {
            n = 0;
        }
    }
    None
}

/// A few words in any script: letters, no digits, no address or link
/// (Thunderbird's Finnish `Välitetty viesti / Fwd.Msg` has a slash).
fn is_phrase(p: &str) -> bool {
    !p.is_empty()
        && p.chars().count() <= MAX_PHRASE_CHARS
        && p.split_whitespace().count() <= MAX_PHRASE_WORDS
        && p.chars().any(char::is_alphabetic)
        && !p
            .chars()
            .any(|c| c.is_numeric() || matches!(c, '@' | ':' | '<' | '>'))
        && !p.contains("//")
}

/// `Label: value` (or `Label：value`, `*Label:* value`, `De : value`) ->
/// the label and the value. The label is a few words in any script, with no
/// digits and no punctuation but `-` and `.`.
pub(super) fn label_value(line: &str) -> Option<(&str, &str)> {
    let s = trim_visible(line);
    let colon = s.find([':', '：'])?;
    let label = trim_visible(s[..colon].trim_matches(|c: char| c == '*' || c.is_whitespace()));
    let sep_len = s[colon..].chars().next().map_or(1, char::len_utf8);
    let value = trim_visible(s[colon + sep_len..].trim_start_matches('*'));
    if label.is_empty()
        || label.chars().count() > MAX_LABEL_CHARS
        || label.split_whitespace().count() > MAX_LABEL_WORDS
        || !label.chars().any(char::is_alphabetic)
        || !label.chars().all(is_label_char)
        || value.starts_with("//")
    {
        return None;
    }
    Some((label, value))
}

/// Letters of any script, with the combining marks some scripts (Devanagari,
/// Thai, Arabic) need; spaces, `-` and `.`; never a digit or other ASCII
/// punctuation.
fn is_label_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic() || matches!(c, ' ' | '-' | '.');
    }
    !(c.is_numeric()
        || c.is_whitespace() && c != '\u{a0}'
        || is_frame(c)
        || matches!(c, '\u{2000}'..='\u{206f}' | '\u{3000}'..='\u{303f}' | '\u{ff01}'..='\u{ff0f}' | '\u{ff1a}'..='\u{ff20}'))
        || is_invisible(c)
}

/// What a header value holds.
#[derive(Default)]
struct Held {
    labels: usize,
    addresses: usize,
    dates: usize,
}

/// A header block by its shape, starting at line `i`: `Label: value` lines
/// (a wrapped value may continue on one line without a label), at least two
/// of them, the values holding at least one address and a date or a second
/// address. A player's own `Move: 5254` line and the `Tel:`/`Web:` lines of a
/// signature hold no such pair.
pub(super) fn is_header_block(lines: &[&str], i: usize) -> bool {
    if label_value(lines[i]).is_none() {
        return false;
    }
    let mut held = Held::default();
    let mut unlabelled = 0;
    for line in lines.iter().skip(i).take(MAX_BLOCK_LINES) {
        if trim_visible(line).is_empty() {
            break;
        }
        match label_value(line) {
            Some((_, value)) => {
                unlabelled = 0;
                held.labels += 1;
                count(value, &mut held);
            }
            None => {
                unlabelled += 1;
                if unlabelled > 1 {
                    break;
                }
                count(line, &mut held);
            }
        }
    }
    held.labels >= 2 && held.addresses >= 1 && (held.dates >= 1 || held.addresses >= 2)
}

fn count(value: &str, held: &mut Held) {
    if has_address(value) {
        held.addresses += 1;
    } else if has_date(&without_links(value)) {
        held.dates += 1;
    }
}

/// The text with its links left out (a link's path often holds a date).
pub(super) fn without_links(s: &str) -> String {
    s.split_whitespace()
        .filter(|w| !is_link(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `ben@example.net`, `<ben@example.net>`, `"Ben" <ben@example.net>`: a word
/// with letters or digits on both sides of one `@`, not inside a link.
pub(super) fn has_address(s: &str) -> bool {
    s.split_whitespace().filter(|w| !is_link(w)).any(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        match w.split_once('@') {
            Some((user, host)) => {
                !user.is_empty()
                    && host.contains('.')
                    && !host.contains('@')
                    && !host.ends_with('.')
            }
            None => false,
        }
    })
}

/// `https://…`, `www.…`: a link, whose path may hold anything (a date, an
/// `@`) without saying anything about the message.
pub(super) fn is_link(word: &str) -> bool {
    let w = word.trim_start_matches(['<', '(', '[', '"', '\'']);
    w.contains("://") || w.to_lowercase().starts_with("www.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_in_any_script_are_recognised_by_shape() {
        for line in [
            "-------- Továbbított üzenet --------",
            "-------- Przekazana wiadomość --------",
            "-------- Mesaj redirecționat --------",
            "-------- İletilen Mesaj --------",
            "-------- Переслане повідомлення --------",
            "*-------- Original Message --------*",
            "———— Пересланное сообщение ————",
            "━━━━ 転送メッセージ ━━━━",
            "-------- הודעה שהועברה --------",
            "-------- رسالة مُعاد توجيهها --------",
            "\u{200f}-------- پیام بازارسال‌شده --------",
            "═══ Προωθημένο μήνυμα ═══",
            "-------- Preposlaná správa --- Forwarded Message --------",
            "-------- Välitetty viesti / Fwd.Msg --------",
            "--- Treść przekazanej wiadomości ---",
            "----- Forwarded Message ----- From: Ben <ben@example.net> To: Anna <anna@example.org> Sent: Sunday, May 12, 2024, 05:45:00 PM GMT+2 Subject: Re: game",
            "----- Välitetty viesti ----- Lähettäjä: Ben <ben@example.net> Vastaanottaja: Anna",
        ] {
            assert!(is_separator(line), "{line}");
        }
    }

    #[test]
    fn decorations_and_moves_between_dashes_are_not_separators() {
        for line in [
            "--",
            "-- ",
            "== my move ==",
            "---- 13. 5254 ----",
            "------------",
            "--- see https://example.org/x ---",
            "----- Forwarded Message ----- and then 13. 5254",
            "-------- Ben <ben@example.net> --------",
            "- a list item -",
        ] {
            assert!(!is_separator(line), "{line}");
        }
    }

    #[test]
    fn header_blocks_in_any_script_are_recognised_by_shape() {
        for block in [
            "Feladó: Ben <ben@example.net>\nElküldve: 2024. május 12., vasárnap 17:45\nCímzett: Anna <anna@example.org>\nTárgy: Re: [wildt #17] 12... 3746",
            "Kimden: Ben <ben@example.net>\nGönderildi: 12 Mayıs 2024 Pazar 17:45\nKime: Anna\nKonu: Re: game",
            "送信元：Ben <ben@example.net>\n日付：2024年5月12日 17:45\n宛先：Anna\n件名：Re: game",
            "\u{200f}من: Ben <ben@example.net>\n\u{200f}التاريخ: 12 مايو 2024 17:45\nإلى: Anna",
            "מאת: Ben <ben@example.net>\nתאריך: 12 במאי 2024 17:45\nאל: anna@example.org",
            "प्रेषक: Ben <ben@example.net>\nभेजा गया: रविवार, 12 मई 2024 17:45\nप्रति: Anna",
            "*Від:* Ben <ben@example.net>\n*Надіслано:* 12 травня 2024 р. 17:45\n*Кому:* Anna",
            "Subject: Re: game\nFrom: Ben <ben@example.net>\nTo: Anna <anna@example.org>",
        ] {
            let lines: Vec<&str> = block.lines().collect();
            assert!(is_header_block(&lines, 0), "{block}");
        }
    }

    #[test]
    fn a_players_labelled_lines_are_not_a_header_block() {
        for block in [
            "Move: 5254\nNext: your turn",
            "Move: 13. 5254\nDeadline: 20.05.2024",
            "Anna Miller\nTel: +49 30 5254 1234\nMail: anna@example.org",
            "See: https://example.org/posts/2017-02-18-how-to\nAlso: https://a@example.org/2024",
            "Date: Sunday is fine\nTo: the club",
        ] {
            let lines: Vec<&str> = block.lines().collect();
            assert!(
                !(0..lines.len()).any(|i| is_header_block(&lines, i)),
                "{block}"
            );
        }
    }

    #[test]
    fn labels_take_ascii_and_full_width_colons() {
        assert_eq!(label_value("送信元：Ben"), Some(("送信元", "Ben")));
        assert_eq!(label_value("De : Ben"), Some(("De", "Ben")));
        assert_eq!(label_value("*Von:* Ben"), Some(("Von", "Ben")));
        assert_eq!(label_value("13. 5254: yes"), None);
        assert_eq!(label_value("https://example.org"), None);
    }
}
