//! ICCF numeric notation: squares and moves, parsed and displayed losslessly, and
//! converted to and from shakmaty moves in a position. [pure: no IO]
//!
//! Two stages, as in shakmaty's `uci` module: [`IccfMove::from_str`] checks the
//! syntax with no position; [`IccfMove::to_move`] checks it against a position and
//! explains, in numeric notation, why a move is not legal there.

use std::fmt;
use std::str::FromStr;

use shakmaty::{CastlingSide, Chess, Color, File, Move, Position, Rank, Role, Square};

/// A square in ICCF numbering: file digit then rank digit, each 1–8 (a1 = `11`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IccfSquare(Square);

impl IccfSquare {
    pub fn new(square: Square) -> Self {
        IccfSquare(square)
    }

    /// From two digits 1–8 (file, rank).
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

    /// File digit 1–8.
    pub fn file_digit(self) -> u8 {
        u8::from(self.0.file()) + 1
    }

    /// Rank digit 1–8.
    pub fn rank_digit(self) -> u8 {
        u8::from(self.0.rank()) + 1
    }
}

impl From<Square> for IccfSquare {
    fn from(square: Square) -> Self {
        IccfSquare(square)
    }
}

impl fmt::Display for IccfSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_digit(), self.rank_digit())
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

    fn from_str(text: &str) -> Result<Self, ParseError> {
        if let Some(ch) = text.chars().find(|c| !c.is_ascii_digit()) {
            return Err(ParseError::NotADigit {
                text: text.to_owned(),
                ch,
            });
        }
        let digits = text.as_bytes();
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
            Some(&d) => Some(Promotion::from_digit(d - b'0').ok_or(
                ParseError::BadPromotionDigit {
                    text: text.to_owned(),
                    digit: char::from(d),
                },
            )?),
        };
        Ok(IccfMove {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for IccfMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(p) = self.promotion {
            write!(f, "{}", p.digit())?;
        }
        Ok(())
    }
}

/// Why a well-formed ICCF move cannot be played in a position. Every variant
/// names squares in numeric notation, so the text reads the same in any language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("there is no piece on {square}")]
    NoPiece { square: IccfSquare },
    #[error("the piece on {square} belongs to {owner}, and it is {to_move}'s move")]
    OpponentsPiece {
        square: IccfSquare,
        owner: ColorName,
        to_move: ColorName,
    },
    #[error("the {role} on {from} cannot reach {to}{}", reachable_text(reachable))]
    CannotReach {
        role: RoleName,
        from: IccfSquare,
        to: IccfSquare,
        reachable: Vec<IccfMove>,
    },
    #[error("{mv} would leave your king on {king} in check")]
    LeavesKingInCheck { mv: IccfMove, king: IccfSquare },
    #[error("castling {mv} is not possible now: {reason}")]
    CastlingNotPossible { mv: IccfMove, reason: CastlingBlock },
    #[error(
        "a pawn reaching the last rank needs a 5th digit (1 queen, 2 rook, 3 bishop, 4 knight): {}",
        list_moves(options)
    )]
    PromotionDigitMissing { options: Vec<IccfMove> },
    #[error("{mv} is not a promotion, so it takes no 5th digit: write {without}")]
    PromotionDigitNotAllowed { mv: IccfMove, without: IccfMove },
    #[error(
        "{given} is the old 4-digit promotion form; the standard form is {standard}: send {standard} if that is your move"
    )]
    OldPromotionForm { given: IccfMove, standard: IccfMove },
}

/// Why castling is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CastlingBlock {
    /// The king or that rook has moved (the right is gone).
    RightLost,
    /// A piece stands between king and rook.
    PieceInTheWay(IccfSquare),
    /// The king is in check.
    InCheck,
    /// A square the king passes or lands on is attacked.
    SquareAttacked(IccfSquare),
}

impl fmt::Display for CastlingBlock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CastlingBlock::RightLost => write!(f, "the king or that rook has already moved"),
            CastlingBlock::PieceInTheWay(sq) => write!(f, "a piece is in the way on {sq}"),
            CastlingBlock::InCheck => write!(f, "the king is in check"),
            CastlingBlock::SquareAttacked(sq) => {
                write!(f, "the king would pass or land on {sq}, which is attacked")
            }
        }
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

fn reachable_text(reachable: &[IccfMove]) -> String {
    if reachable.is_empty() {
        "; it has no legal move now".to_owned()
    } else {
        format!("; its legal moves are {}", list_moves(reachable))
    }
}

impl IccfMove {
    /// The ICCF form of a legal shakmaty move: castling becomes the king's move.
    pub fn from_move(m: Move) -> IccfMove {
        match m {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => IccfMove {
                from: from.into(),
                to: to.into(),
                promotion: promotion.and_then(Promotion::from_role),
            },
            Move::EnPassant { from, to } => IccfMove {
                from: from.into(),
                to: to.into(),
                promotion: None,
            },
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                IccfMove {
                    from: king.into(),
                    to: Square::from_coords(side.king_to_file(), king.rank()).into(),
                    promotion: None,
                }
            }
            Move::Put { to, .. } => IccfMove {
                from: to.into(),
                to: to.into(),
                promotion: None,
            },
        }
    }

    /// The legal move this ICCF move stands for in `pos`, or why there is none.
    pub fn to_move(self, pos: &Chess) -> Result<Move, IllegalMove> {
        let legal = pos.legal_moves();
        if let Some(m) = legal.iter().find(|m| {
            let i = IccfMove::from_move(**m);
            i.from == self.from && i.to == self.to && i.promotion == self.promotion
        }) {
            return Ok(*m);
        }
        Err(explain_illegal(self, pos, &legal))
    }
}

fn explain_illegal(mv: IccfMove, pos: &Chess, legal: &shakmaty::MoveList) -> IllegalMove {
    let board = pos.board();
    let from = mv.from.square();
    let us = pos.turn();
    let Some(piece) = board.piece_at(from) else {
        return IllegalMove::NoPiece { square: mv.from };
    };
    if piece.color != us {
        return IllegalMove::OpponentsPiece {
            square: mv.from,
            owner: ColorName(piece.color),
            to_move: ColorName(us),
        };
    }
    let from_here: Vec<IccfMove> = legal
        .iter()
        .filter(|m| m.from() == Some(from))
        .map(|m| IccfMove::from_move(*m))
        .collect();
    let same_squares: Vec<IccfMove> = from_here
        .iter()
        .copied()
        .filter(|m| m.to == mv.to)
        .collect();
    if !same_squares.is_empty() {
        // from/to match a legal move: only the promotion digit is wrong.
        return match mv.promotion {
            None => IllegalMove::PromotionDigitMissing {
                options: same_squares,
            },
            Some(_) => IllegalMove::PromotionDigitNotAllowed {
                mv,
                without: IccfMove {
                    promotion: None,
                    ..mv
                },
            },
        };
    }
    if piece.role == Role::Pawn
        && let Some(standard) = old_promotion_form(mv, us, &from_here)
    {
        return IllegalMove::OldPromotionForm {
            given: mv,
            standard,
        };
    }
    if piece.role == Role::King
        && let Some(reason) = castling_block(mv, pos)
    {
        return IllegalMove::CastlingNotPossible { mv, reason };
    }
    if mv.promotion.is_none()
        && let Some(king) = board.king_of(us)
        && pseudo_reaches(pos, mv)
    {
        return IllegalMove::LeavesKingInCheck {
            mv,
            king: king.into(),
        };
    }
    IllegalMove::CannotReach {
        role: RoleName(piece.role),
        from: mv.from,
        to: mv.to,
        reachable: from_here,
    }
}

/// `6762` for `67682`: the destination rank replaced by the piece digit.
fn old_promotion_form(mv: IccfMove, us: Color, from_here: &[IccfMove]) -> Option<IccfMove> {
    if mv.promotion.is_some() {
        return None;
    }
    let piece = Promotion::from_digit(mv.to.rank_digit())?;
    let last_rank = match us {
        Color::White => 8,
        Color::Black => 1,
    };
    let to = IccfSquare::from_digits(mv.to.file_digit(), last_rank)?;
    let standard = IccfMove {
        from: mv.from,
        to,
        promotion: Some(piece),
    };
    from_here.contains(&standard).then_some(standard)
}

/// Whether the piece could make the move if its own king's safety were ignored
/// (i.e. the move is refused only because it leaves the king in check).
fn pseudo_reaches(pos: &Chess, mv: IccfMove) -> bool {
    use shakmaty::attacks;
    let board = pos.board();
    let from = mv.from.square();
    let to = mv.to.square();
    let Some(piece) = board.piece_at(from) else {
        return false;
    };
    if board.by_color(piece.color).contains(to) {
        return false;
    }
    let occupied = board.occupied();
    match piece.role {
        Role::Pawn => {
            let forward = if piece.color == Color::White { 1 } else { -1 };
            let df = i32::from(u8::from(to.file())) - i32::from(u8::from(from.file()));
            let dr = i32::from(u8::from(to.rank())) - i32::from(u8::from(from.rank()));
            let last = Rank::new(if piece.color == Color::White { 7 } else { 0 });
            if to.rank() == last {
                // Promotions are handled by the digit checks; a bare 4-digit
                // promotion is not "leaving the king in check".
                return false;
            }
            if df == 0 {
                let start = Rank::new(if piece.color == Color::White { 1 } else { 6 });
                let one = from.offset(8 * forward);
                (dr == forward && !occupied.contains(to))
                    || (dr == 2 * forward
                        && from.rank() == start
                        && one.is_some_and(|s| !occupied.contains(s))
                        && !occupied.contains(to))
            } else {
                df.abs() == 1
                    && dr == forward
                    && (board.by_color(!piece.color).contains(to)
                        || pos.maybe_ep_square() == Some(to))
            }
        }
        role => attacks::attacks(
            from,
            shakmaty::Piece {
                color: piece.color,
                role,
            },
            occupied,
        )
        .contains(to),
    }
}

fn castling_block(mv: IccfMove, pos: &Chess) -> Option<CastlingBlock> {
    use shakmaty::attacks;
    let us = pos.turn();
    let home = us.fold_wb(Square::E1, Square::E8);
    let from = mv.from.square();
    let to = mv.to.square();
    if from != home || to.rank() != home.rank() || from.distance(to) != 2 {
        return None;
    }
    let side = CastlingSide::from_king_side(to > from);
    let Some(rook) = pos.castles().rook(us, side) else {
        return Some(CastlingBlock::RightLost);
    };
    let between = attacks::between(home, rook);
    if let Some(sq) = (between & pos.board().occupied()).into_iter().next() {
        return Some(CastlingBlock::PieceInTheWay(sq.into()));
    }
    if pos.is_check() {
        return Some(CastlingBlock::InCheck);
    }
    let king_path = attacks::between(home, to).with(to);
    for sq in king_path {
        let attackers = pos.king_attackers(sq, !us, pos.board().occupied());
        if attackers.any() {
            return Some(CastlingBlock::SquareAttacked(sq.into()));
        }
    }
    None
}

/// One ply of a record, as written: its ICCF move and its SAN in that position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ply {
    pub iccf: IccfMove,
    pub san: String,
}

/// Writes a record as `1. 5254 5755 2. 7163`; `first_move` and `first_turn`
/// describe where the record starts (from a FEN a record may start with Black:
/// `12... 3746`). With `with_san`, each move is followed by its SAN in brackets.
pub fn format_record(first_move: u32, first_turn: Color, plies: &[Ply], with_san: bool) -> String {
    let mut out = String::new();
    let mut number = first_move;
    let mut turn = first_turn;
    for (i, ply) in plies.iter().enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        match turn {
            Color::White => out.push_str(&format!("{number}. ")),
            Color::Black if i == 0 => out.push_str(&format!("{number}... ")),
            Color::Black => {}
        }
        out.push_str(&ply.iccf.to_string());
        if with_san {
            out.push_str(&format!(" ({})", ply.san));
        }
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e2e4_is_5254() {
        let mv: IccfMove = "5254".parse().unwrap();
        assert_eq!(mv.from.square(), Square::E2);
        assert_eq!(mv.to.square(), Square::E4);
        assert_eq!(mv.to_string(), "5254");
    }
}
