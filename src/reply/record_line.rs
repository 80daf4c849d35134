//! The record line of a game mail (`Record: 1. 5254 (e4) ...`) in a
//! language, broken into lines of at most [`RECORD_WIDTH`] characters that
//! keep each move whole: written by the mails' pictures and by the
//! rendering cache, which keeps a long game's first lines. [pure: no IO]

use shakmaty::Color;

use crate::i18n::{self, Key, Lang, san};

/// The record line of `plies` (the first of them move `first_move`, with
/// `first_turn` to play) in `lang`: `Ok` as words then plies a move at a
/// time (what a kept rendering continues), `Err` for a translation of
/// another form, written whole and wrapped after.
pub(super) fn record_line_of(
    lang: Lang,
    first_move: u32,
    first_turn: Color,
    plies: &[crate::notation::Ply],
) -> Result<String, String> {
    const STAND_IN: &str = "\u{1}";
    let framed = i18n::text(lang, Key::RecordLine, &[("record", STAND_IN.into())]);
    let Some((before, after)) = framed.split_once(STAND_IN) else {
        // A translation without the record: as Fluent wrote it.
        return Err(wrap_record(&framed));
    };
    // The words before the record end in the space at which its first
    // move may go to the next line (`Record: `); other forms are written
    // whole and wrapped after.
    let words = before
        .strip_suffix(' ')
        .filter(|w| after.is_empty() && !w.is_empty() && !w.ends_with(['.', ' ']));
    let Some(words) = words else {
        let mut line = before.to_owned();
        san::push_plies_text(&mut line, first_move, first_turn, plies, lang);
        line.push_str(after);
        return Err(wrap_record(&line));
    };
    let mut out = wrap_record(words);
    let mut line_len = out.rsplit('\n').next().map_or(0, |l| l.chars().count());
    write_wrapped_plies(&mut out, &mut line_len, first_move, first_turn, plies, lang);
    Ok(out)
}

/// Appends `plies` to a record line `out` whose last line is `line_len`
/// characters long (never 0: the words before the record are on it), each
/// ply with its SAN in `lang` placed as `push_unit` places it.
pub(super) fn write_wrapped_plies(
    out: &mut String,
    line_len: &mut usize,
    first_move: u32,
    first_turn: Color,
    plies: &[crate::notation::Ply],
    lang: Lang,
) {
    if plies.is_empty() {
        return;
    }
    out.push(' ');
    // Where the space before the move being written is.
    let mut space = out.len() - 1;
    crate::notation::write_record_into(out, first_move, first_turn, plies, |out, ply| {
        out.push_str(" (");
        san::push_localized(out, &ply.san, lang);
        out.push(')');
        if crate::game::place_unit(&out[space + 1..], line_len, RECORD_WIDTH) == Some('\n') {
            out.replace_range(space..=space, "\n");
        }
        // `write_record_into` writes one space before the next move.
        space = out.len();
    });
}

/// The longest line [`wrap_record`] writes, in characters: under the 76
/// at which a text part must be encoded.
pub(super) const RECORD_WIDTH: usize = 72;

/// The record line broken into lines of at most [`RECORD_WIDTH`]
/// characters (a longer word stands alone), only before a move number or
/// a ply, so that a move number, its ply and the ply's SAN stay on one line.
/// One line of a long game's length would make the whole text part
/// quoted-printable (every line soft-broken at 76 columns, mid-move in a
/// client that shows it undecoded) and cost a pass over it per mail; a
/// record of short lines leaves an English text part 7-bit. The intake
/// reads a record pasted back in lines as it reads it on one.
pub(super) fn wrap_record(line: &str) -> String {
    // A unit runs to the next space before a move number or a ply (a
    // digit) that does not follow a move number (`12.` keeps its ply, a
    // ply its `(SAN)`).
    let bytes = line.as_bytes();
    let mut out = String::with_capacity(line.len() + line.len() / RECORD_WIDTH + 1);
    let mut line_len = 0;
    let mut from = 0;
    for at in memchr::memchr_iter(b' ', bytes) {
        let before_ply = bytes.get(at + 1).is_some_and(u8::is_ascii_digit);
        if before_ply && at > from && bytes[at - 1] != b'.' {
            crate::game::push_unit(&mut out, &line[from..at], &mut line_len, RECORD_WIDTH);
            from = at + 1;
        }
    }
    crate::game::push_unit(&mut out, &line[from..], &mut line_len, RECORD_WIDTH);
    out
}
