//! ICCF numeric notation: squares and moves, parsed and displayed losslessly, and
//! converted to and from shakmaty moves in a position. [pure: no IO]
//!
//! Two stages, as in shakmaty's `uci` module: [`IccfMove::from_str`] checks the
//! syntax with no position; [`IccfMove::to_move`] checks it against a position and
//! explains, in numeric notation, why a move is not legal there. [`parse_move`]
//! does both and also catches the one old promotion form that looks like a
//! same-square move (`3232`); prefer it when a position is at hand.
//!
//! SAN is only a courtesy for people: [`san`] writes it, [`move_from_san`] and
//! [`iccf_from_san`] read it.

use std::fmt;
use std::str::FromStr;

use shakmaty::san::{San, SanError, SanPlus};
use shakmaty::{CastlingSide, Chess, Color, File, Move, Position, Rank, Role, Square};

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
    ///
    /// ```
    /// use shakmaty::{Move, Square};
    /// use wildt::notation::IccfMove;
    ///
    /// let castle = Move::Castle { king: Square::E1, rook: Square::H1 };
    /// assert_eq!(IccfMove::from_move(castle).to_string(), "5171");
    /// ```
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
            // Drop moves do not exist in standard chess; a Put never comes out of
            // a `Chess` position. Written as from = to so it can never be replayed.
            Move::Put { to, .. } => IccfMove {
                from: to.into(),
                to: to.into(),
                promotion: None,
            },
        }
    }

    /// The legal move this ICCF move stands for in `pos`, or why there is none.
    ///
    /// Castling is only the king's two-square move (`5171`, `5131`, `5878`,
    /// `5838`); "king takes own rook" (`5181`) is not castling. A promotion needs
    /// its 5th digit; the old 4-digit form (`6762`) is answered with
    /// [`IllegalMove::OldPromotionForm`], never played.
    ///
    /// ```
    /// use shakmaty::{Chess, Move, Role, Square};
    /// use wildt::notation::{IccfMove, IllegalMove};
    ///
    /// let pos = Chess::default();
    /// let mv: IccfMove = "5254".parse().unwrap();
    /// assert_eq!(mv.to_move(&pos).unwrap().to(), Square::E4);
    ///
    /// let knight: IccfMove = "7154".parse().unwrap();
    /// assert!(matches!(knight.to_move(&pos), Err(IllegalMove::CannotReach { .. })));
    /// ```
    #[inline]
    pub fn to_move(self, pos: &Chess) -> Result<Move, IllegalMove> {
        // Fast path, as shakmaty's `UciMove::to_move`: build the one candidate
        // and ask `is_legal`, so a legal move never costs a full move generation.
        if let Some(m) = self.candidate(pos)
            && pos.is_legal(m)
        {
            return Ok(m);
        }
        Err(explain_illegal(self, pos, &pos.legal_moves()))
    }

    /// The shakmaty move these digits would be if they were legal.
    #[inline]
    fn candidate(self, pos: &Chess) -> Option<Move> {
        let board = pos.board();
        let from = self.from.square();
        let to = self.to.square();
        let role = board.role_at(from)?;
        let promotion = match self.promotion {
            Some(_) if role != Role::Pawn => return None,
            p => p.map(Promotion::role),
        };
        let home = pos.turn().fold_wb(Square::E1, Square::E8);
        if role == Role::King && from == home && to.rank() == home.rank() && from.distance(to) == 2
        {
            if promotion.is_some() {
                return None;
            }
            let side = CastlingSide::from_king_side(to > from);
            let rook = pos.castles().rook(pos.turn(), side)?;
            return Some(Move::Castle { king: from, rook });
        }
        if role == Role::Pawn && from.file() != to.file() && !board.occupied().contains(to) {
            return promotion.is_none().then_some(Move::EnPassant { from, to });
        }
        Some(Move::Normal {
            role,
            from,
            capture: board.role_at(to),
            to,
            promotion,
        })
    }
}

/// The most helpful reason why `mv` is not legal in `pos`. Checked in the order
/// a player would want to hear it: nothing there, not yours, only the digit is
/// wrong, the old promotion form, castling, king safety, and last the plain
/// "cannot go there" with the piece's legal moves.
#[cold]
#[inline(never)]
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
    let mut from_here: Vec<IccfMove> = legal
        .iter()
        .filter(|m| m.from() == Some(from))
        .map(|m| IccfMove::from_move(*m))
        .collect();
    sort_moves(&mut from_here);
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
    // The piece could go there but for its own king: pinned, king walking into
    // check, or a check left unanswered. That is the reason to give, whatever
    // the promotion digit says.
    if let Some(king) = board.king_of(us)
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

/// `6762` for `67682`: the destination rank replaced by the piece digit. For a
/// black pawn going straight to a rook (`3232` for `32312`) the form starts and
/// ends on the same digits; [`parse_move`] routes that text here too.
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
/// Castling is not covered: [`castling_block`] explains it.
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
    // Nearest to the king first: that is the piece a player looks at.
    let between = attacks::between(home, rook) & pos.board().occupied();
    let in_the_way = match side {
        CastlingSide::KingSide => between.first(),
        CastlingSide::QueenSide => between.last(),
    };
    if let Some(sq) = in_the_way {
        return Some(CastlingBlock::PieceInTheWay(sq.into()));
    }
    if pos.is_check() {
        return Some(CastlingBlock::InCheck);
    }
    // The king's own square is lifted so a slider behind it still counts.
    let occupied = pos.board().occupied().without(home);
    let king_path = attacks::between(home, to).with(to);
    let attacked = |sq: &Square| pos.king_attackers(*sq, !us, occupied).any();
    match side {
        CastlingSide::KingSide => king_path.into_iter().find(attacked),
        CastlingSide::QueenSide => king_path.into_iter().rev().find(attacked),
    }
    .map(|sq| CastlingBlock::SquareAttacked(sq.into()))
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

impl Ply {
    /// The ply for a legal move `m` in `pos` (the position before the move).
    pub fn new(pos: &Chess, m: Move) -> Ply {
        Ply {
            iccf: IccfMove::from_move(m),
            san: san(pos, m),
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

/// Why a text is not a legal ICCF move in a position: either it is not an ICCF
/// move at all, or it is one that cannot be played there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

/// Parses `text` and checks it in `pos`: [`IccfMove::from_str`] then
/// [`IccfMove::to_move`], plus the one case the two stages cannot see alone: a
/// black pawn's old-form rook promotion straight ahead (`3232` for `32312`)
/// looks like a move from a square to itself, and is answered with
/// [`IllegalMove::OldPromotionForm`] rather than [`ParseError::SameSquare`].
/// Prefer this over the two stages when you have a position.
///
/// ```
/// use shakmaty::{fen::Fen, CastlingMode, Chess};
/// use wildt::notation::{parse_move, IllegalMove, MoveError};
///
/// let fen: Fen = "4k3/8/8/8/8/8/2p5/4K3 b - - 0 1".parse().unwrap();
/// let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
/// match parse_move("3232", &pos) {
///     Err(MoveError::Illegal(IllegalMove::OldPromotionForm { standard, .. })) => {
///         assert_eq!(standard.to_string(), "32312")
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn parse_move(text: &str, pos: &Chess) -> Result<Move, MoveError> {
    match text.parse::<IccfMove>() {
        Ok(mv) => Ok(mv.to_move(pos)?),
        Err(ParseError::SameSquare { text, square }) => {
            let mv = IccfMove {
                from: square,
                to: square,
                promotion: None,
            };
            let is_our_pawn = pos
                .board()
                .piece_at(square.square())
                .is_some_and(|p| p.role == Role::Pawn && p.color == pos.turn());
            if is_our_pawn && let Err(e @ IllegalMove::OldPromotionForm { .. }) = mv.to_move(pos) {
                return Err(e.into());
            }
            Err(ParseError::SameSquare { text, square }.into())
        }
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn mv(s: &str) -> IccfMove {
        s.parse().unwrap()
    }

    fn sq(s: &str) -> IccfSquare {
        let b = s.as_bytes();
        IccfSquare::from_digits(b[0] - b'0', b[1] - b'0').unwrap()
    }

    fn illegal(fen: &str, s: &str) -> IllegalMove {
        mv(s).to_move(&pos(fen)).unwrap_err()
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const CASTLES: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn e2e4_is_5254() {
        let m = mv("5254");
        assert_eq!(m.from.square(), Square::E2);
        assert_eq!(m.to.square(), Square::E4);
        assert_eq!(m.to_string(), "5254");
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

    #[test]
    fn empty_square_is_no_piece() {
        assert_eq!(
            illegal(START, "5354"),
            IllegalMove::NoPiece { square: sq("53") }
        );
    }

    #[test]
    fn black_pawn_on_whites_turn_is_opponents_piece() {
        assert_eq!(
            illegal(START, "5755"),
            IllegalMove::OpponentsPiece {
                square: sq("57"),
                owner: ColorName(Color::Black),
                to_move: ColorName(Color::White),
            }
        );
    }

    #[test]
    fn knight_from_71_to_54_cannot_reach_and_lists_7163_7183() {
        assert_eq!(
            illegal(START, "7154"),
            IllegalMove::CannotReach {
                role: RoleName(Role::Knight),
                from: sq("71"),
                to: sq("54"),
                reachable: vec![mv("7163"), mv("7183")],
            }
        );
        assert_eq!(
            illegal(START, "7154").to_string(),
            "the knight on 71 cannot reach 54; its legal moves are 7163, 7183"
        );
    }

    #[test]
    fn blocked_piece_cannot_reach_and_has_no_legal_move() {
        assert_eq!(
            illegal(START, "3153"),
            IllegalMove::CannotReach {
                role: RoleName(Role::Bishop),
                from: sq("31"),
                to: sq("53"),
                reachable: vec![],
            }
        );
    }

    #[test]
    fn pinned_bishop_moving_along_its_diagonal_leaves_king_in_check() {
        let fen = "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1";
        assert_eq!(
            illegal(fen, "5243"),
            IllegalMove::LeavesKingInCheck {
                mv: mv("5243"),
                king: sq("51")
            }
        );
    }

    #[test]
    fn king_walking_into_check_leaves_king_in_check() {
        let fen = "4k3/3r4/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(
            illegal(fen, "5141"),
            IllegalMove::LeavesKingInCheck {
                mv: mv("5141"),
                king: sq("51")
            }
        );
    }

    #[test]
    fn ignoring_a_check_leaves_king_in_check() {
        let fen = "4k3/8/8/8/8/8/8/r3K2N w - - 0 1";
        assert_eq!(
            illegal(fen, "8173"),
            IllegalMove::LeavesKingInCheck {
                mv: mv("8173"),
                king: sq("51")
            }
        );
    }

    #[test]
    fn pinned_pawn_promoting_leaves_king_in_check_whatever_the_digit() {
        let fen = "7b/6P1/5K2/8/8/8/8/k7 w - - 0 1";
        for s in ["77781", "7778"] {
            assert_eq!(
                illegal(fen, s),
                IllegalMove::LeavesKingInCheck {
                    mv: mv(s),
                    king: sq("66")
                }
            );
        }
    }

    #[test]
    fn en_passant_exposing_king_on_the_rank_leaves_king_in_check() {
        let fen = "4k3/8/8/r2pP2K/8/8/8/8 w - d6 0 1";
        assert_eq!(
            illegal(fen, "5546"),
            IllegalMove::LeavesKingInCheck {
                mv: mv("5546"),
                king: sq("85")
            }
        );
    }

    #[test]
    fn en_passant_is_the_pawns_diagonal_move() {
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(
            mv("5546").to_move(&p),
            Ok(Move::EnPassant {
                from: Square::E5,
                to: Square::D6
            })
        );
    }

    #[test]
    fn en_passant_too_late_cannot_reach() {
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");
        assert!(matches!(
            mv("5546").to_move(&p),
            Err(IllegalMove::CannotReach { reachable, .. }) if reachable == vec![mv("5556")]
        ));
    }

    #[test]
    fn castling_is_the_kings_move_for_both_sides_both_wings() {
        let white = pos(CASTLES);
        assert_eq!(
            mv("5171").to_move(&white),
            Ok(Move::Castle {
                king: Square::E1,
                rook: Square::H1
            })
        );
        assert_eq!(
            mv("5131").to_move(&white),
            Ok(Move::Castle {
                king: Square::E1,
                rook: Square::A1
            })
        );
        let black = pos(&CASTLES.replace(" w ", " b "));
        assert_eq!(
            mv("5878").to_move(&black),
            Ok(Move::Castle {
                king: Square::E8,
                rook: Square::H8
            })
        );
        assert_eq!(
            mv("5838").to_move(&black),
            Ok(Move::Castle {
                king: Square::E8,
                rook: Square::A8
            })
        );
        for (m, s) in [
            (
                Move::Castle {
                    king: Square::E1,
                    rook: Square::H1,
                },
                "5171",
            ),
            (
                Move::Castle {
                    king: Square::E1,
                    rook: Square::A1,
                },
                "5131",
            ),
            (
                Move::Castle {
                    king: Square::E8,
                    rook: Square::H8,
                },
                "5878",
            ),
            (
                Move::Castle {
                    king: Square::E8,
                    rook: Square::A8,
                },
                "5838",
            ),
        ] {
            assert_eq!(IccfMove::from_move(m).to_string(), s);
        }
    }

    #[test]
    fn king_takes_own_rook_is_not_castling() {
        let p = pos(CASTLES);
        for s in ["5181", "5111"] {
            match mv(s).to_move(&p) {
                Err(IllegalMove::CannotReach {
                    role, reachable, ..
                }) => {
                    assert_eq!(role, RoleName(Role::King));
                    assert!(reachable.contains(&mv("5171")));
                    assert!(reachable.contains(&mv("5131")));
                }
                other => panic!("{s}: {other:?}"),
            }
        }
    }

    #[test]
    fn castling_after_the_rook_moved_and_came_back_is_right_lost() {
        let mut p = pos(CASTLES);
        for s in ["8171", "1828", "7181", "2818"] {
            let m = mv(s).to_move(&p).unwrap();
            p = p.play(m).unwrap();
        }
        assert_eq!(
            mv("5171").to_move(&p),
            Err(IllegalMove::CastlingNotPossible {
                mv: mv("5171"),
                reason: CastlingBlock::RightLost
            })
        );
        // The other wing is untouched.
        assert!(mv("5131").to_move(&p).is_ok_and(|m| m.is_castle()));
        let castle = mv("5131").to_move(&p).unwrap();
        let black = p.play(castle).unwrap();
        assert_eq!(
            mv("5838").to_move(&black),
            Err(IllegalMove::CastlingNotPossible {
                mv: mv("5838"),
                reason: CastlingBlock::RightLost
            })
        );
    }

    #[test]
    fn castling_through_own_pieces_names_the_nearest() {
        let p = pos(START);
        assert_eq!(
            mv("5171").to_move(&p),
            Err(IllegalMove::CastlingNotPossible {
                mv: mv("5171"),
                reason: CastlingBlock::PieceInTheWay(sq("61"))
            })
        );
        assert_eq!(
            mv("5131").to_move(&p),
            Err(IllegalMove::CastlingNotPossible {
                mv: mv("5131"),
                reason: CastlingBlock::PieceInTheWay(sq("41"))
            })
        );
    }

    #[test]
    fn castling_out_of_check_is_in_check() {
        let p = pos("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert_eq!(
            mv("5171").to_move(&p),
            Err(IllegalMove::CastlingNotPossible {
                mv: mv("5171"),
                reason: CastlingBlock::InCheck
            })
        );
    }

    #[test]
    fn castling_through_an_attacked_square_is_square_attacked() {
        let cases = [
            ("5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "5171", "61"),
            ("6rk/7p/8/8/8/8/8/R3K2R w KQ - 0 1", "5171", "71"),
            ("3r2k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "5131", "41"),
            ("2r3k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "5131", "31"),
            ("r3k2r/7p/8/8/8/8/8/5R1K b kq - 0 1", "5878", "68"),
        ];
        for (fen, s, attacked) in cases {
            assert_eq!(
                mv(s).to_move(&pos(fen)),
                Err(IllegalMove::CastlingNotPossible {
                    mv: mv(s),
                    reason: CastlingBlock::SquareAttacked(sq(attacked))
                }),
                "{fen} {s}"
            );
        }
    }

    #[test]
    fn queenside_castling_with_only_b1_attacked_is_legal() {
        let p = pos("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert_eq!(
            mv("5131").to_move(&p),
            Ok(Move::Castle {
                king: Square::E1,
                rook: Square::A1
            })
        );
    }

    #[test]
    fn promotion_without_fifth_digit_lists_all_four() {
        assert_eq!(
            illegal("k7/5P2/8/8/8/8/8/4K3 w - - 0 1", "6768"),
            IllegalMove::PromotionDigitMissing {
                options: vec![mv("67681"), mv("67682"), mv("67683"), mv("67684")]
            }
        );
    }

    #[test]
    fn promotion_digit_on_an_ordinary_move_is_not_allowed() {
        assert_eq!(
            illegal(START, "52541"),
            IllegalMove::PromotionDigitNotAllowed {
                mv: mv("52541"),
                without: mv("5254")
            }
        );
        assert_eq!(
            illegal(START, "71631"),
            IllegalMove::PromotionDigitNotAllowed {
                mv: mv("71631"),
                without: mv("7163")
            }
        );
    }

    #[test]
    fn old_four_digit_promotion_is_answered_with_standard_form() {
        let fen = "k7/5P2/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(
            illegal(fen, "6762"),
            IllegalMove::OldPromotionForm {
                given: mv("6762"),
                standard: mv("67682")
            }
        );
        assert_eq!(
            illegal(fen, "6764"),
            IllegalMove::OldPromotionForm {
                given: mv("6764"),
                standard: mv("67684")
            }
        );
        // Black, capturing towards b1 as a knight: 3224 for 32214.
        let black = "4k3/8/8/8/8/8/2p5/1N2K3 b - - 0 1";
        assert_eq!(
            illegal(black, "3224"),
            IllegalMove::OldPromotionForm {
                given: mv("3224"),
                standard: mv("32214")
            }
        );
    }

    #[test]
    fn old_form_of_black_straight_rook_promotion_is_recognised_by_parse_move() {
        let p = pos("4k3/8/8/8/8/8/2p5/4K3 b - - 0 1");
        let given = IccfMove {
            from: sq("32"),
            to: sq("32"),
            promotion: None,
        };
        assert_eq!(
            parse_move("3232", &p),
            Err(MoveError::Illegal(IllegalMove::OldPromotionForm {
                given,
                standard: mv("32312")
            }))
        );
        // With no pawn there, it stays a plain syntax error.
        assert_eq!(
            parse_move("5252", &p),
            Err(MoveError::Parse(ParseError::SameSquare {
                text: "5252".into(),
                square: sq("52")
            }))
        );
    }

    #[test]
    fn parse_move_passes_on_parse_and_legality_errors() {
        let p = pos(START);
        assert_eq!(
            parse_move("2024", &p),
            Err(MoveError::Parse(ParseError::NotASquare {
                square: "20".into()
            }))
        );
        assert_eq!(
            parse_move("5354", &p),
            Err(MoveError::Illegal(IllegalMove::NoPiece {
                square: sq("53")
            }))
        );
        assert_eq!(parse_move("5254", &p).map(|m| m.to()), Ok(Square::E4));
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
