//! The record as written: a [`Ply`] (ICCF and SAN), the numbered record text,
//! and SAN, written for people and read back into ICCF. [pure: no IO]

use shakmaty::san::{San, SanError, SanPlus};
use shakmaty::{Chess, Color, Move, Position};

use super::{IccfMove, list_moves, sort_moves};

/// One ply of a record, as written: its ICCF move and its SAN in that position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ply {
    pub iccf: IccfMove,
    pub san: SanText,
}

/// A ply's SAN as the record keeps it (`Nf3`, `exd8=Q+`): held in place,
/// as shakmaty writes at most seven characters, so a record of hundreds of
/// plies is loaded, copied into each reply and dropped without a heap
/// allocation per ply. A longer text (only from a database changed by other
/// hands) is kept on the heap. Reads as a `str`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SanText(SanRepr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum SanRepr {
    /// The text in place: arrayvec keeps it a `str`, so reading it is not
    /// a UTF-8 check (one per ply, every time a record is written).
    Inline(arrayvec::ArrayString<SAN_INLINE>),
    Heap(Box<str>),
}

const SAN_INLINE: usize = 14;

impl SanText {
    pub fn new(text: &str) -> SanText {
        match arrayvec::ArrayString::from(text) {
            Ok(inline) => SanText(SanRepr::Inline(inline)),
            Err(_) => SanText(SanRepr::Heap(text.into())),
        }
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            SanRepr::Inline(text) => text,
            SanRepr::Heap(text) => text,
        }
    }
}

impl std::ops::Deref for SanText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for SanText {
    fn from(text: &str) -> SanText {
        SanText::new(text)
    }
}

impl From<String> for SanText {
    fn from(text: String) -> SanText {
        SanText::new(&text)
    }
}

impl std::fmt::Display for SanText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for SanText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for SanText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SanText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// Writes a record as `1. 5254 5755 2. 7163`; `first_move` and `first_turn`
/// describe where the record starts (from a FEN a record may start with Black:
/// `12... 3746`). With `with_san`, each move is followed by its SAN in brackets.
pub fn format_record(first_move: u32, first_turn: Color, plies: &[Ply], with_san: bool) -> String {
    write_record(first_move, first_turn, plies, |out, ply| {
        if with_san {
            out.push_str(" (");
            out.push_str(&ply.san);
            out.push(')');
        }
    })
}

/// [`format_record`] with `after` writing what follows each ply's ICCF
/// move (a SAN in brackets, in whichever letters): one string grown in
/// place, however long the record.
pub fn write_record(
    first_move: u32,
    first_turn: Color,
    plies: &[Ply],
    after: impl FnMut(&mut String, &Ply),
) -> String {
    let mut out = String::new();
    write_record_into(&mut out, first_move, first_turn, plies, after);
    out
}

/// [`write_record`] appended to `out` (a line's words before it kept).
pub fn write_record_into(
    out: &mut String,
    first_move: u32,
    first_turn: Color,
    plies: &[Ply],
    mut after: impl FnMut(&mut String, &Ply),
) {
    out.reserve(plies.len() * 16);
    let mut number = first_move;
    let mut turn = first_turn;
    for (i, ply) in plies.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match turn {
            Color::White => push_number(out, number, ". "),
            Color::Black if i == 0 => push_number(out, number, "... "),
            Color::Black => {}
        }
        ply.iccf.push_to(out);
        after(out, ply);
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
}

/// Appends the plies of `text` as the store keeps them (`iccf san`, joined
/// by commas; empty items skipped) to `plies`; `Err` with the first item
/// that does not read (those before it appended).
pub fn read_stored_plies<'t>(plies: &mut Vec<Ply>, text: &'t str) -> Result<(), &'t str> {
    // Each item is a dozen bytes: its separators are found by a plain loop
    // over them (`str::split` and `split_once` cost a searcher per item,
    // most of reading a long game's plies).
    let position = |text: &str, byte: u8| text.bytes().position(|b| b == byte);
    let mut rest = text;
    while !rest.is_empty() {
        let (ply, after) = match position(rest, b',') {
            Some(comma) => (&rest[..comma], &rest[comma + 1..]),
            None => (rest, ""),
        };
        rest = after;
        if ply.is_empty() {
            continue;
        }
        let space = position(ply, b' ').ok_or(ply)?;
        let (iccf, san) = (&ply[..space], &ply[space + 1..]);
        plies.push(Ply {
            iccf: iccf.parse().map_err(|_| iccf)?,
            san: SanText::new(san),
        });
    }
    Ok(())
}

/// Appends `number` in decimal, then `tail`.
pub(crate) fn push_number(out: &mut String, number: u32, tail: &str) {
    // itoa: the digits as one string, without the formatting machinery or
    // a check of them (a long game's record writes one per move, both
    // parts of every reply).
    out.push_str(itoa::Buffer::new().format(number));
    out.push_str(tail);
}

impl Ply {
    /// The ply for a legal move `m` in `pos` (the position before the move).
    pub fn new(pos: &Chess, m: Move) -> Ply {
        Ply {
            iccf: IccfMove::from_move(m),
            san: san(pos, m).into(),
        }
    }
}

/// The SAN of a legal move `m` in `pos`, with its check (`+`) or mate (`#`)
/// mark: `e4`, `Nxf7+`, `O-O-O`, `exd6`, `f8=R#`.
pub fn san(pos: &Chess, m: Move) -> String {
    SanPlus::from_move(pos.clone(), m).to_string()
}

/// Why a piece of SAN text is not a move in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SanInputError {
    #[error("`{text}` is not a move in algebraic notation")]
    NotSan { text: String },
    #[error("`{text}` is not a legal move here")]
    Illegal { text: String },
    #[error("`{text}` could be more than one move: {}", list_moves(candidates))]
    Ambiguous {
        text: String,
        candidates: Vec<IccfMove>,
    },
}

/// The legal move a SAN text stands for in `pos`. Check and mate marks and
/// annotations (`+`, `#`, `!`, `?`) are accepted; `0-0` is read as `O-O`. A
/// missing or superfluous capture mark `x` is forgiven when only one legal move
/// fits, since people copying games by hand often get it wrong.
pub fn move_from_san(pos: &Chess, text: &str) -> Result<Move, SanInputError> {
    let cleaned = text.trim().trim_end_matches(['!', '?']).replace('0', "O");
    let san = SanPlus::from_ascii(cleaned.as_bytes())
        .map_err(|_| SanInputError::NotSan {
            text: text.to_owned(),
        })?
        .san;
    match san.to_move(pos) {
        Ok(m) => Ok(m),
        Err(SanError::AmbiguousSan) => {
            let mut candidates: Vec<IccfMove> = pos
                .legal_moves()
                .iter()
                .filter(|m| san.matches(**m))
                .map(|m| IccfMove::from_move(*m))
                .collect();
            sort_moves(&mut candidates);
            Err(SanInputError::Ambiguous {
                text: text.to_owned(),
                candidates,
            })
        }
        Err(SanError::IllegalSan) => lenient_capture(pos, san).ok_or(SanInputError::Illegal {
            text: text.to_owned(),
        }),
    }
}

/// The one legal move `san` stands for if its capture mark is ignored.
fn lenient_capture(pos: &Chess, san: San) -> Option<Move> {
    let San::Normal {
        role,
        file,
        rank,
        to,
        promotion,
        ..
    } = san
    else {
        return None;
    };
    let mut fits = pos.san_candidates(role, to);
    fits.retain(|m| {
        m.promotion() == promotion
            && m.from().is_some_and(|f| {
                file.is_none_or(|x| x == f.file()) && rank.is_none_or(|x| x == f.rank())
            })
    });
    match fits.as_slice() {
        [m] => Some(*m),
        _ => None,
    }
}

/// The ICCF move a SAN text stands for in `pos`.
///
/// ```
/// use shakmaty::Chess;
/// use wildt::notation::iccf_from_san;
///
/// assert_eq!(iccf_from_san(&Chess::default(), "Nf3").unwrap().to_string(), "7163");
/// ```
pub fn iccf_from_san(pos: &Chess, text: &str) -> Result<IccfMove, SanInputError> {
    move_from_san(pos, text).map(IccfMove::from_move)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{CASTLES, START, mv, pos};
    use super::*;

    /// The longest SAN there is fits in place; a longer text from a hand-
    /// edited database is kept whole on the heap; both read and compare as
    /// their text.
    #[test]
    fn san_text_keeps_any_text_and_reads_as_it() {
        for text in [
            "e4",
            "Qa1xb2+",
            "exd8=Q#",
            "O-O-O+",
            "",
            "Nf3!?",
            "\u{41a}f3",
        ] {
            let san = SanText::new(text);
            assert!(matches!(san.0, SanRepr::Inline(..)), "{text}");
            assert_eq!(san.as_str(), text);
            assert_eq!(san, text);
            assert_eq!(san.to_string(), text);
            assert_eq!(format!("{san:?}"), format!("{text:?}"));
        }
        let long = "a SAN column written by hand";
        let san = SanText::from(long.to_owned());
        assert!(matches!(san.0, SanRepr::Heap(_)));
        assert_eq!(&*san, long);
        assert_eq!(san, SanText::new(long));
        assert_ne!(SanText::new("e4"), SanText::new("e5"));
        assert_ne!(SanText::new("e4"), SanText::new("e4+"));
    }

    #[test]
    fn san_has_check_and_mate_marks() {
        let p = pos("k7/5P2/1K6/8/8/8/8/8 w - - 0 1");
        assert_eq!(san(&p, mv("67681").to_move(&p).unwrap()), "f8=Q#");
        assert_eq!(san(&p, mv("67682").to_move(&p).unwrap()), "f8=R#");
        assert_eq!(san(&p, mv("67683").to_move(&p).unwrap()), "f8=B");
        let c = pos(CASTLES);
        assert_eq!(san(&c, mv("5131").to_move(&c).unwrap()), "O-O-O");
    }

    #[test]
    fn san_text_becomes_iccf() {
        let p = pos(START);
        assert_eq!(iccf_from_san(&p, "e4"), Ok(mv("5254")));
        assert_eq!(iccf_from_san(&p, "Nf3!"), Ok(mv("7163")));
        let c = pos(CASTLES);
        assert_eq!(iccf_from_san(&c, "O-O"), Ok(mv("5171")));
        assert_eq!(iccf_from_san(&c, "0-0-0"), Ok(mv("5131")));
        let e = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(iccf_from_san(&e, "exd6"), Ok(mv("5546")));
        let q = pos("k7/5P2/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(iccf_from_san(&q, "f8=N"), Ok(mv("67684")));
    }

    #[test]
    fn san_with_forgotten_capture_mark_is_forgiven() {
        let p = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(iccf_from_san(&p, "ed5"), Ok(mv("5445")));
    }

    #[test]
    fn san_errors_are_typed() {
        let p = pos(START);
        assert_eq!(
            iccf_from_san(&p, "hello"),
            Err(SanInputError::NotSan {
                text: "hello".into()
            })
        );
        assert_eq!(
            iccf_from_san(&p, "e5"),
            Err(SanInputError::Illegal { text: "e5".into() })
        );
        let r = pos("4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
        assert_eq!(iccf_from_san(&r, "Rf1"), Ok(mv("8161")));
        let two = pos("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1");
        assert_eq!(
            iccf_from_san(&two, "Rd1"),
            Err(SanInputError::Ambiguous {
                text: "Rd1".into(),
                candidates: vec![mv("1141"), mv("6141")]
            })
        );
    }

    #[test]
    fn record_is_numbered_and_starts_with_black_after_a_fen() {
        let p = pos(START);
        let m1 = mv("5254").to_move(&p).unwrap();
        let p1 = p.clone().play(m1).unwrap();
        let m2 = mv("5755").to_move(&p1).unwrap();
        let p2 = p1.clone().play(m2).unwrap();
        let m3 = mv("7163").to_move(&p2).unwrap();
        let plies = [Ply::new(&p, m1), Ply::new(&p1, m2), Ply::new(&p2, m3)];
        assert_eq!(
            format_record(1, Color::White, &plies, false),
            "1. 5254 5755 2. 7163"
        );
        assert_eq!(
            format_record(1, Color::White, &plies, true),
            "1. 5254 (e4) 5755 (e5) 2. 7163 (Nf3)"
        );
        assert_eq!(
            format_record(12, Color::Black, &plies[1..], false),
            "12... 5755 13. 7163"
        );
    }
}
