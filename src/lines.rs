//! SMTP's rules for a part's lines, as a mail goes out `7bit`: every line
//! break CRLF, no line over 998 octets, ASCII without NUL. Used by the
//! mail's rendering and by the HTML page, which says whether it keeps
//! them as it is written. [pure: no IO]

use std::borrow::Cow;

/// A text with every line break CRLF, and whether SMTP can carry it as
/// it is (see [`crlf_lines`]).
pub struct Lines<'a> {
    /// Borrowed when every break already was CRLF: nothing was copied.
    pub text: Cow<'a, str>,
    /// ASCII without NUL, in lines of at most 998 octets (a line's CR not
    /// counted): sent `7bit`, not through an encoder.
    pub seven_bit: bool,
}

impl Lines<'_> {
    /// Whether the text goes in a mail as it is: 7-bit, and not copied
    /// (every line break already CRLF).
    pub fn fits_as_is(&self) -> bool {
        self.seven_bit && matches!(self.text, Cow::Borrowed(_))
    }
}

/// `text` with every line break CRLF, in one pass over its breaks that
/// also measures its lines: a bare LF and a bare CR (RFC 5322 allows CR
/// and LF only together; a display name decoded from an encoded word can
/// hold a CR) each become CRLF. lettre makes a text body's breaks CRLF by
/// inserting each `\r` into the string in place, moving the rest of it
/// every time: a long game's record in lines makes that the largest copy in
/// rendering a reply. Given CRLF, it inserts none. Whether the result is
/// 7-bit is told with it, from the lines measured here and a word-at-a-time
/// ASCII check: a check of its own would be a second and third pass over
/// each part (a third and fourth over an HTML page), a long game's largest
/// cost in rendering after the record itself.
pub fn crlf_lines(text: &str) -> Lines<'_> {
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    // `from`: where the part not copied yet starts; `line`: where the
    // current line starts.
    let mut from = 0;
    let mut line = 0;
    let mut short = true;
    for at in memchr::memchr2_iter(b'\r', b'\n', bytes) {
        let (bare, end) = match bytes[at] {
            b'\n' if at > 0 && bytes[at - 1] == b'\r' => (false, at - 1),
            b'\n' => (true, at),
            _ if bytes.get(at + 1) == Some(&b'\n') => continue,
            _ => (true, at),
        };
        short &= end - line <= 998;
        line = at + 1;
        if bare {
            let out =
                out.get_or_insert_with(|| String::with_capacity(text.len() + text.len() / 32));
            out.push_str(&text[from..at]);
            out.push_str("\r\n");
            from = at + 1;
        }
    }
    short &= bytes.len() - line <= 998;
    // `is_ascii` and memchr search whole words at a time; a loop over each
    // byte costs a tenth of rendering a long game's reply.
    let seven_bit = short && bytes.is_ascii() && memchr::memchr(0, bytes).is_none();
    let text = match out {
        Some(mut out) => {
            out.push_str(&text[from..]);
            Cow::Owned(out)
        }
        None => Cow::Borrowed(text),
    };
    Lines { text, seven_bit }
}
