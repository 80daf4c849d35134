//! ICCF numeric notation, the syntax: squares, promotion digits and moves,
//! parsed and displayed losslessly with no position at hand, and the names
//! printed for colours and pieces. [pure: no IO]
//!
//! Two stages, as in shakmaty's `uci` module: [`IccfMove::from_str`] checks the
//! syntax with no position ([`ParseError`]); [`IccfMove::to_move`] checks it
//! against a position and explains, in numeric notation, why a move is not
//! legal there (`legality.rs`: [`IllegalMove`]). [`parse_move`] does both and
//! also catches the one old promotion form that looks like a same-square move
//! (`3232`); prefer it when a position is at hand.
//!
//! SAN is only a courtesy for people (`record.rs`): [`san`] writes it,
//! [`move_from_san`] and [`iccf_from_san`] read it; [`format_record`] writes
//! the numbered record of [`Ply`]s.

mod legality;
mod record;

pub use legality::{CastlingBlock, IllegalMove, MoveError, parse_move};
pub(crate) use record::push_number;
pub use record::{
    Ply, SanInputError, SanText, format_record, iccf_from_san, move_from_san, read_stored_plies,
    san, write_record, write_record_into,
};

use std::fmt::{self, Write as _};
use std::str::FromStr;

use shakmaty::{Color, File, Rank, Role, Square};

/// A square in ICCF numbering: file digit then rank digit, each 1–8 (a1 = `11`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IccfSquare(Square);

impl IccfSquare {
    pub fn new(square: Square) -> Self {
        IccfSquare(square)
    }

    /// From two digits 1–8 (file, rank).
    #[inline]
    pub fn from_digits(file: u8, rank: u8) -> Option<Self> {
        if (1..=8).contains(&file) && (1..=8).contains(&rank) {
            Some(IccfSquare(Square::from_coords(
                File::new(u32::from(file - 1)),
                Rank::new(u32::from(rank - 1)),
            )))
        } else {
            None
        }
    }

    pub fn square(self) -> Square {
        self.0
    }

    /// The square's two digits (`52` for e2), from a table: a long game's
    /// record writes hundreds per reply.
    pub fn digits(self) -> &'static str {
        let i = usize::from(self.0) * 2;
        &SQUARE_DIGITS[i..i + 2]
    }

    /// File digit 1–8.
    pub fn file_digit(self) -> u8 {
        u8::from(self.0.file()) + 1
    }

    /// Rank digit 1–8.
    pub fn rank_digit(self) -> u8 {
        u8::from(self.0.rank()) + 1
    }
}

/// Every square's file and rank digit, in the order of shakmaty's square
/// index (a1, b1, … h1, a2, … h8).
const SQUARE_DIGITS: &str = "11213141516171811222324252627282132333435363738314243444546474841525354555657585162636465666768617273747576777871828384858687888";

impl From<Square> for IccfSquare {
    fn from(square: Square) -> Self {
        IccfSquare(square)
    }
}

impl fmt::Display for IccfSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = [b'0' + self.file_digit(), b'0' + self.rank_digit()];
        f.write_str(std::str::from_utf8(&d).map_err(|_| fmt::Error)?)
    }
}

/// The ICCF promotion digit: 1 queen, 2 rook, 3 bishop, 4 knight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Promotion {
    Queen = 1,
    Rook = 2,
    Bishop = 3,
    Knight = 4,
}

impl Promotion {
    pub const ALL: [Promotion; 4] = [
        Promotion::Queen,
        Promotion::Rook,
        Promotion::Bishop,
        Promotion::Knight,
    ];

    pub fn from_digit(d: u8) -> Option<Self> {
        match d {
            1 => Some(Promotion::Queen),
            2 => Some(Promotion::Rook),
            3 => Some(Promotion::Bishop),
            4 => Some(Promotion::Knight),
            _ => None,
        }
    }

    pub fn digit(self) -> u8 {
        self as u8
    }

    pub fn role(self) -> Role {
        match self {
            Promotion::Queen => Role::Queen,
            Promotion::Rook => Role::Rook,
            Promotion::Bishop => Role::Bishop,
            Promotion::Knight => Role::Knight,
        }
    }

    pub fn from_role(role: Role) -> Option<Self> {
        match role {
            Role::Queen => Some(Promotion::Queen),
            Role::Rook => Some(Promotion::Rook),
            Role::Bishop => Some(Promotion::Bishop),
            Role::Knight => Some(Promotion::Knight),
            _ => None,
        }
    }
}

/// A move in ICCF numeric notation: from-square, to-square, optional promotion
/// digit. Castling is the king's move (`5171`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IccfMove {
    pub from: IccfSquare,
    pub to: IccfSquare,
    pub promotion: Option<Promotion>,
}

/// Why a piece of text is not an ICCF move, before any position is looked at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("`{text}` has {count} digits: a move has 4 digits (5 for a promotion)")]
    WrongLength { text: String, count: usize },
    #[error(
        "`{text}` contains `{ch}`, which is not a digit: write moves as digits only, e.g. 5254"
    )]
    NotADigit { text: String, ch: char },
    #[error("{square} is not a square: files and ranks run 1 to 8")]
    NotASquare { square: String },
    #[error("`{text}` starts and ends on {square}: a move goes from one square to another")]
    SameSquare { text: String, square: IccfSquare },
    #[error(
        "`{text}` ends in {digit}: the promotion digit is 1 (queen), 2 (rook), 3 (bishop) or 4 (knight)"
    )]
    BadPromotionDigit { text: String, digit: char },
}

impl FromStr for IccfMove {
    type Err = ParseError;

    #[inline]
    fn from_str(text: &str) -> Result<Self, ParseError> {
        // Fast path for a well-formed move; anything else goes through the
        // careful checks below, which name what is wrong.
        if let Some(mv) = parse_well_formed(text.as_bytes()) {
            return Ok(mv);
        }
        parse_explained(text)
    }
}

#[inline]
fn parse_well_formed(b: &[u8]) -> Option<IccfMove> {
    let square_digit = |c: u8| c.wrapping_sub(b'1') < 8;
    let four_squares =
        |f1, r1, f2, r2| square_digit(f1) & square_digit(r1) & square_digit(f2) & square_digit(r2);
    let (f1, r1, f2, r2, promotion) = match *b {
        [f1, r1, f2, r2] if four_squares(f1, r1, f2, r2) => (f1, r1, f2, r2, None),
        [f1, r1, f2, r2, p] if four_squares(f1, r1, f2, r2) && p.wrapping_sub(b'1') < 4 => {
            (f1, r1, f2, r2, Promotion::from_digit(p - b'0'))
        }
        _ => return None,
    };
    let square = |f: u8, r: u8| Square::new(u32::from(r - b'1') * 8 + u32::from(f - b'1'));
    let (from, to) = (square(f1, r1), square(f2, r2));
    (from != to).then_some(IccfMove {
        from: IccfSquare(from),
        to: IccfSquare(to),
        promotion,
    })
}

#[cold]
fn parse_explained(text: &str) -> Result<IccfMove, ParseError> {
    let digits = text.as_bytes();
    // Bytes first: decoding chars is only worth it to name the culprit.
    if !digits.iter().all(u8::is_ascii_digit)
        && let Some(ch) = text.chars().find(|c| !c.is_ascii_digit())
    {
        return Err(ParseError::NotADigit {
            text: text.to_owned(),
            ch,
        });
    }
    if digits.len() != 4 && digits.len() != 5 {
        return Err(ParseError::WrongLength {
            text: text.to_owned(),
            count: digits.len(),
        });
    }
    let square = |i: usize| {
        IccfSquare::from_digits(digits[i] - b'0', digits[i + 1] - b'0').ok_or_else(|| {
            ParseError::NotASquare {
                square: text[i..i + 2].to_owned(),
            }
        })
    };
    let from = square(0)?;
    let to = square(2)?;
    if from == to {
        return Err(ParseError::SameSquare {
            text: text.to_owned(),
            square: from,
        });
    }
    let promotion = match digits.get(4) {
        None => None,
        Some(&d) => Some(
            Promotion::from_digit(d - b'0').ok_or(ParseError::BadPromotionDigit {
                text: text.to_owned(),
                digit: char::from(d),
            })?,
        ),
    };
    Ok(IccfMove {
        from,
        to,
        promotion,
    })
}

impl IccfMove {
    /// Appends the move's digits to `out`, as `Display` writes them,
    /// without the formatting machinery: every reply carries the record.
    pub fn push_to(&self, out: &mut String) {
        // Whole squares from a table: pushed a char at a time, the digits
        // of a long game's record would be a tenth of writing it.
        out.push_str(self.from.digits());
        out.push_str(self.to.digits());
        if let Some(p) = self.promotion {
            out.push(char::from(b'0' + p.digit()));
        }
    }
}

impl fmt::Display for IccfMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As `push_to` writes them: the squares' digits from their table.
        f.write_str(self.from.digits())?;
        f.write_str(self.to.digits())?;
        if let Some(p) = self.promotion {
            f.write_char(char::from(b'0' + p.digit()))?;
        }
        Ok(())
    }
}

/// A colour's name as printed in messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColorName(pub Color);

impl fmt::Display for ColorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

/// A piece's name as printed in messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoleName(pub Role);

impl fmt::Display for RoleName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        })
    }
}

fn list_moves(moves: &[IccfMove]) -> String {
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
/// Sorts moves as a player reads them: by their digits.
fn sort_moves(moves: &mut [IccfMove]) {
    moves.sort_by_key(|m| {
        (
            m.from.file_digit(),
            m.from.rank_digit(),
            m.to.file_digit(),
            m.to.rank_digit(),
            m.promotion.map(Promotion::digit),
        )
    });
}

/// Helpers shared by the tests of this module and its submodules.
#[cfg(test)]
mod test_support {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess};

    use super::{IccfMove, IccfSquare};

    pub(super) fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    pub(super) fn mv(s: &str) -> IccfMove {
        s.parse().unwrap()
    }

    pub(super) fn sq(s: &str) -> IccfSquare {
        let b = s.as_bytes();
        IccfSquare::from_digits(b[0] - b'0', b[1] - b'0').unwrap()
    }

    pub(super) const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    pub(super) const CASTLES: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
}

#[cfg(test)]
mod tests {
    use super::test_support::{mv, sq};
    use super::*;

    #[test]
    fn e2e4_is_5254() {
        let m = mv("5254");
        assert_eq!(m.from.square(), Square::E2);
        assert_eq!(m.to.square(), Square::E4);
        assert_eq!(m.to_string(), "5254");
    }

    /// The table of digits agrees with the file and rank of every square,
    /// and a move appended to a record reads as it prints, a promotion's
    /// fifth digit too.
    #[test]
    fn every_squares_digits_are_its_file_and_rank_and_moves_append_as_they_print() {
        for square in Square::ALL {
            let s = IccfSquare::from(square);
            let want = format!("{}{}", s.file_digit(), s.rank_digit());
            assert_eq!(s.digits(), want, "{square:?}");
        }
        for text in ["5254", "5171", "67682", "27281", "1188", "8811"] {
            let mut out = String::from("1. ");
            mv(text).push_to(&mut out);
            assert_eq!(out, format!("1. {text}"));
        }
    }

    #[test]
    fn promotion_digit_is_the_fifth_digit() {
        let m = mv("67682");
        assert_eq!(m.from.square(), Square::F7);
        assert_eq!(m.to.square(), Square::F8);
        assert_eq!(m.promotion, Some(Promotion::Rook));
    }

    #[test]
    fn three_digits_is_wrong_length() {
        assert_eq!(
            "525".parse::<IccfMove>(),
            Err(ParseError::WrongLength {
                text: "525".into(),
                count: 3
            })
        );
        assert_eq!(
            "525412".parse::<IccfMove>(),
            Err(ParseError::WrongLength {
                text: "525412".into(),
                count: 6
            })
        );
        assert_eq!(
            "".parse::<IccfMove>(),
            Err(ParseError::WrongLength {
                text: String::new(),
                count: 0
            })
        );
    }

    #[test]
    fn algebraic_text_is_not_a_digit() {
        assert_eq!(
            "e2e4".parse::<IccfMove>(),
            Err(ParseError::NotADigit {
                text: "e2e4".into(),
                ch: 'e'
            })
        );
    }

    #[test]
    fn zero_and_nine_are_not_squares() {
        assert_eq!(
            "2024".parse::<IccfMove>(),
            Err(ParseError::NotASquare {
                square: "20".into()
            })
        );
        assert_eq!(
            "5290".parse::<IccfMove>(),
            Err(ParseError::NotASquare {
                square: "90".into()
            })
        );
    }

    #[test]
    fn move_to_its_own_square_is_same_square() {
        assert_eq!(
            "5252".parse::<IccfMove>(),
            Err(ParseError::SameSquare {
                text: "5252".into(),
                square: sq("52")
            })
        );
    }

    #[test]
    fn promotion_digit_five_is_bad() {
        assert_eq!(
            "67685".parse::<IccfMove>(),
            Err(ParseError::BadPromotionDigit {
                text: "67685".into(),
                digit: '5'
            })
        );
        assert_eq!(
            "67680".parse::<IccfMove>(),
            Err(ParseError::BadPromotionDigit {
                text: "67680".into(),
                digit: '0'
            })
        );
    }
}
