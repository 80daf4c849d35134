//! ICCF moves against a position: [`IccfMove::to_move`] (the legal shakmaty
//! move the digits stand for, or why there is none, named in numeric notation),
//! its inverse [`IccfMove::from_move`], and [`parse_move`], both stages at once.
//! [pure: no IO]

use std::fmt;

use shakmaty::{CastlingSide, Chess, Color, Move, Position, Rank, Role, Square};

use super::{
    ColorName, IccfMove, IccfSquare, ParseError, Promotion, RoleName, list_moves, sort_moves,
};

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
/// Why a text is not a legal ICCF move in a position: either it is not an ICCF
/// move at all, or it is one that cannot be played there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

/// Parses `text` and checks it in `pos`: [`IccfMove::from_str`](std::str::FromStr::from_str) then
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
    use super::super::test_support::{CASTLES, START, mv, pos, sq};
    use super::*;

    fn illegal(fen: &str, s: &str) -> IllegalMove {
        mv(s).to_move(&pos(fen)).unwrap_err()
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
}
