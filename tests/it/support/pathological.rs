//! Hostile messages of about 1 MiB, built in memory: the shapes that make a
//! naive mail reader or move scanner do unbounded or quadratic work. Shared by
//! the intake tests (each is decided, with the expected answer) and the
//! engine bench (how long each takes in release). [pure]

use super::fixtures::game_17_address;

/// About this many bytes of hostile content per message.
pub const MIB: usize = 1024 * 1024;

/// The headers of every case: Anna writing to game 17.
fn head() -> String {
    let address = game_17_address();
    format!(
        "From: Anna <anna@example.org>\nTo: {address}\n\
         Subject: move\nMessage-ID: <hostile@example.org>\n\
         Date: Sun, 22 Nov 2026 10:00:00 +0000\nMIME-Version: 1.0\n"
    )
}

/// One hostile message: what it is, its bytes, and what the intake must
/// answer: `unclear: KIND` (why it was not read as a command) or
/// `play: MOVES` (the move it holds, found under the noise).
pub struct Case {
    pub name: &'static str,
    pub raw: Vec<u8>,
    pub answer: &'static str,
}

fn plain(body: &str) -> Vec<u8> {
    format!(
        "{}Content-Type: text/plain; charset=utf-8\n\n{body}",
        head()
    )
    .into_bytes()
}

fn html(body: &str) -> Vec<u8> {
    format!("{}Content-Type: text/html; charset=utf-8\n\n{body}", head()).into_bytes()
}

/// `depth` multiparts nested inside each other, a text part at the bottom.
fn nested_multipart(depth: usize) -> Vec<u8> {
    let mut out = format!(
        "{}Content-Type: multipart/mixed; boundary=\"b0\"\n\n",
        head()
    );
    for i in 0..depth {
        out.push_str(&format!(
            "--b{i}\nContent-Type: multipart/mixed; boundary=\"b{}\"\n\n",
            i + 1
        ));
    }
    out.push_str(&format!("--b{depth}\nContent-Type: text/plain\n\n5254\n"));
    for i in (0..=depth).rev() {
        out.push_str(&format!("--b{i}--\n"));
    }
    out.into_bytes()
}

/// `parts` sibling text parts, each with a different move.
fn many_parts(parts: usize) -> Vec<u8> {
    let mut out = format!(
        "{}Content-Type: multipart/mixed; boundary=\"sep\"\n\n",
        head()
    );
    for i in 0..parts {
        out.push_str(&format!(
            "--sep\nContent-Type: text/plain\n\n{}{}{}{}\n",
            1 + i % 8,
            1 + (i / 8) % 8,
            1 + (i / 64) % 8,
            1 + (i / 512) % 8
        ));
    }
    out.push_str("--sep--\n");
    out.into_bytes()
}

/// A header block of `n` headers, no body to speak of.
fn many_headers(n: usize) -> Vec<u8> {
    let mut out = head();
    for i in 0..n {
        out.push_str(&format!("X-Filler-{i}: {}\n", "a".repeat(20)));
    }
    out.push_str("Content-Type: text/plain\n\n5254\n");
    out.into_bytes()
}

/// One header folded over `n` continuation lines.
fn folded_header(n: usize) -> Vec<u8> {
    let mut out = format!("{}Subject-Extra: x", head());
    for _ in 0..n {
        out.push_str("\n x");
    }
    out.push_str("\nContent-Type: text/plain\n\n5254\n");
    out.into_bytes()
}

/// A base64 text part whose decoded text is `decoded`.
fn base64_text(decoded: &str) -> Vec<u8> {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes = decoded.as_bytes();
    let mut enc = String::with_capacity(bytes.len() * 4 / 3 + bytes.len() / 57 + 4);
    for (i, chunk) in bytes.chunks(3).enumerate() {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                enc.push(TABLE[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                enc.push('=');
            }
        }
        if i % 19 == 18 {
            enc.push('\n');
        }
    }
    format!(
        "{}Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n{enc}\n",
        head()
    )
    .into_bytes()
}

/// Every case, each about 1 MiB.
pub fn cases() -> Vec<Case> {
    let case = |name, raw, answer| Case { name, raw, answer };
    vec![
        case(
            "quote markers",
            plain(&">".repeat(MIB)),
            "unclear: nothing_found",
        ),
        case(
            "quote markers, HTML",
            html(&">".repeat(MIB)),
            "unclear: nothing_found",
        ),
        case(
            "one digit run",
            plain(&"5".repeat(MIB)),
            "unclear: not_a_move",
        ),
        case(
            "the same move again and again",
            plain(&"5254 ".repeat(MIB / 5)),
            "unclear: too_many_commands",
        ),
        case(
            "command words",
            plain(&"resign draw? ".repeat(MIB / 13)),
            "unclear: too_many_commands",
        ),
        case(
            "open blockquotes",
            html(&"<blockquote>".repeat(MIB / 12)),
            "unclear: nothing_found",
        ),
        case(
            "open HTML elements",
            html(&"<div><p><span>".repeat(MIB / 15)),
            "unclear: nothing_found",
        ),
        case(
            "attribution lines",
            plain(&"On Sun, Ben wrote:\n".repeat(MIB / 19)),
            "unclear: nothing_found",
        ),
        case(
            "attribution lines, HTML",
            html(&"On Sun, Ben wrote:\n".repeat(MIB / 19)),
            "unclear: nothing_found",
        ),
        case(
            "move numbers without moves",
            plain(&"12... ".repeat(MIB / 6)),
            "unclear: nothing_found",
        ),
        case(
            "phone prefixes",
            plain(&"+49 ".repeat(MIB / 4)),
            "unclear: nothing_found",
        ),
        case(
            "digits in prose",
            plain(&format!("My phone is {}\n", "1".repeat(MIB))),
            "unclear: nothing_found",
        ),
        case(
            "one line, no line break",
            plain(&"abc ".repeat(MIB / 4)),
            "unclear: nothing_found",
        ),
        case(
            "base64 of move lines",
            base64_text(&"7163 ".repeat(MIB / 7)),
            "unclear: too_many_commands",
        ),
        case(
            "nested multiparts",
            nested_multipart(MIB / 60),
            "play: 5254",
        ),
        case(
            "many text parts",
            many_parts(MIB / 40),
            "unclear: several_moves",
        ),
        case("many headers", many_headers(MIB / 40), "play: 5254"),
        case("one header folded", folded_header(MIB / 3), "play: 5254"),
    ]
}
