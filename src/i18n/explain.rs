//! The referee's reasons, in the player's language: every [`Rejection`],
//! [`IllegalMove`], [`ParseError`] and [`Unclear`] variant, how a game ended,
//! the status line, and what to do after a rejection. [pure: no IO]
//!
//! Each function matches its type exhaustively, so a new variant does not
//! compile until it has a message. In English each gives the same words as
//! the type's `Display` (the status line: as `game::status_line`), which the
//! tests check; only counts of one read better ("once", "1 move").

use shakmaty::Color;

use super::{Arg, Key, Lang, color_arg, piece_arg, text};
use crate::game::GameResult;
use crate::game::{MoveNumberText, Record, Termination};
use crate::intake::Unclear;
use crate::notation::{CastlingBlock, IccfMove, IllegalMove, ParseError};
use crate::referee::{Proposed, Rejection};
use crate::tablebase::{Claim, Resolved, Undecided};

fn list(moves: &[IccfMove]) -> String {
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn number(n: crate::command::MoveNumber) -> Arg {
    Arg::from(MoveNumberText(n).to_string())
}

fn show(value: impl ToString) -> Arg {
    Arg::from(value.to_string())
}

/// The message naming how a game ended.
fn termination_key(t: Termination) -> Key {
    match t {
        Termination::Checkmate => Key::TerminationCheckmate,
        Termination::Stalemate => Key::TerminationStalemate,
        Termination::InsufficientMaterial => Key::TerminationInsufficientMaterial,
        Termination::Resignation => Key::TerminationResignation,
        Termination::DrawAgreed => Key::TerminationDrawAgreed,
        Termination::ThreefoldRepetition => Key::TerminationThreefoldRepetition,
        Termination::FiftyMoveRule => Key::TerminationFiftyMoveRule,
        Termination::TimeForfeit => Key::TerminationTimeForfeit,
        Termination::Adjudication => Key::TerminationAdjudication,
        Termination::Forfeit => Key::TerminationForfeit,
        Termination::Annulled => Key::TerminationAnnulled,
        Termination::Tablebase => Key::TerminationTablebase,
    }
}

/// How a game ended: "checkmate", "Schachmatt", "мат"…
pub fn termination(lang: Lang, t: Termination) -> String {
    text(lang, termination_key(t), &[])
}

/// Why a command was not carried out.
pub fn rejection(lang: Lang, why: &Rejection) -> String {
    match why {
        Rejection::GameOver { end } => text(
            lang,
            Key::RejectGameOver,
            &[
                ("result", end.result_text().into()),
                ("termination", termination(lang, end.termination).into()),
            ],
        ),
        Rejection::NotYourTurn { to_move } => text(
            lang,
            Key::RejectNotYourTurn,
            &[("color", color_arg(*to_move))],
        ),
        Rejection::WrongMoveNumber { expected, given } => text(
            lang,
            Key::RejectWrongNumber,
            &[
                ("given", number(*given)),
                ("expected", number(*expected)),
                (
                    "color",
                    color_arg(if expected.black {
                        Color::Black
                    } else {
                        Color::White
                    }),
                ),
            ],
        ),
        Rejection::EchoMismatch {
            number: n,
            recorded,
            given,
        } => text(
            lang,
            Key::RejectEchoMismatch,
            &[
                ("number", number(*n)),
                ("given", show(given)),
                ("recorded", show(recorded)),
            ],
        ),
        Rejection::SeveralNewMoves { moves } => text(
            lang,
            Key::RejectSeveralNewMoves,
            &[
                ("count", moves.len().into()),
                (
                    "moves",
                    moves
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" ")
                        .into(),
                ),
            ],
        ),
        Rejection::AlreadyRecorded { number: n, mv } => text(
            lang,
            Key::RejectAlreadyRecorded,
            &[("number", number(*n)), ("move", show(mv))],
        ),
        Rejection::Illegal { number: n, mv, why } => text(
            lang,
            Key::RejectIllegal,
            &[
                ("number", number(*n)),
                ("move", show(mv)),
                ("why", illegal(lang, why).into()),
            ],
        ),
        Rejection::NoDrawOffer => text(lang, Key::RejectNoDrawOffer, &[]),
        Rejection::OwnDrawOffer => text(lang, Key::RejectOwnDrawOffer, &[]),
        Rejection::ClaimRefused {
            repetitions,
            halfmoves,
        } => text(
            lang,
            Key::RejectClaimRefused,
            &[
                ("repetitions", (*repetitions).into()),
                ("moves", (*halfmoves / 2).into()),
            ],
        ),
        Rejection::TablebaseClaimRefused {
            claim,
            proposed,
            said,
        } => {
            let position = ("position", tb_position(lang, proposed.as_ref()).into());
            match said {
                Ok(r) => text(
                    lang,
                    match claim {
                        Claim::Win => Key::RejectTbWin,
                        Claim::Draw => Key::RejectTbDraw,
                    },
                    &[position, ("said", tb_said(lang, r).into())],
                ),
                Err(why) => text(
                    lang,
                    Key::RejectTbUndecided,
                    &[position, ("why", tb_undecided(lang, why).into())],
                ),
            }
        }
    }
}

/// Where a tablebase claim was judged: on the board, or after the move
/// proposed with it (not played).
pub fn tb_position(lang: Lang, proposed: Option<&Proposed>) -> String {
    match proposed {
        None => text(lang, Key::TbOnTheBoard, &[]),
        Some(p) => text(
            lang,
            Key::TbAfterMove,
            &[
                (
                    "move",
                    format!("{} {}", MoveNumberText(p.number), p.ply.iccf).into(),
                ),
                ("san", crate::i18n::san::localize(&p.ply.san, lang).into()),
            ],
        ),
    }
}

/// What the tables say about a resolved position.
pub fn tb_said(lang: Lang, r: &Resolved) -> String {
    match (r.result, r.cursed) {
        (GameResult::Draw, _) => text(lang, Key::TbSaysDraw, &[]),
        (result, cursed) => {
            let winner = if result == GameResult::WhiteWins {
                Color::White
            } else {
                Color::Black
            };
            let key = if cursed {
                Key::TbSaysWinCursed
            } else {
                Key::TbSaysWin
            };
            text(lang, key, &[("color", color_arg(winner))])
        }
    }
}

/// Why the tables cannot decide a position.
pub fn tb_undecided(lang: Lang, why: &Undecided) -> String {
    match why {
        Undecided::Off => text(lang, Key::TbUndecidedOff, &[]),
        Undecided::Castling => text(lang, Key::TbUndecidedCastling, &[]),
        Undecided::TooManyPieces { pieces, max } => text(
            lang,
            Key::TbUndecidedTooManyPieces,
            &[("pieces", (*pieces).into()), ("max", (*max).into())],
        ),
        Undecided::MissingTable { material } => text(
            lang,
            Key::TbUndecidedMissingTable,
            &[("material", material.as_str().into())],
        ),
        Undecided::Failed { material } => text(
            lang,
            Key::TbUndecidedFailed,
            &[("material", material.as_str().into())],
        ),
    }
}

/// Why a well-formed move cannot be played.
pub fn illegal(lang: Lang, why: &IllegalMove) -> String {
    match why {
        IllegalMove::NoPiece { square } => {
            text(lang, Key::IllegalNoPiece, &[("square", show(square))])
        }
        IllegalMove::OpponentsPiece {
            square, to_move, ..
        } => text(
            lang,
            Key::IllegalOpponentsPiece,
            &[("square", show(square)), ("color", color_arg(to_move.0))],
        ),
        IllegalMove::CannotReach {
            role,
            from,
            to,
            reachable,
        } => {
            let mut args = vec![
                ("piece", piece_arg(role.0)),
                ("from", show(from)),
                ("to", show(to)),
            ];
            if reachable.is_empty() {
                text(lang, Key::IllegalCannotReachNoMoves, &args)
            } else {
                args.push(("moves", list(reachable).into()));
                text(lang, Key::IllegalCannotReachMoves, &args)
            }
        }
        IllegalMove::LeavesKingInCheck { mv, king } => text(
            lang,
            Key::IllegalLeavesKingInCheck,
            &[("move", show(mv)), ("king", show(king))],
        ),
        IllegalMove::CastlingNotPossible { mv, reason } => text(
            lang,
            Key::IllegalCastling,
            &[
                ("move", show(mv)),
                ("reason", castling(lang, *reason).into()),
            ],
        ),
        IllegalMove::PromotionDigitMissing { options } => text(
            lang,
            Key::IllegalPromotionDigitMissing,
            &[("options", list(options).into())],
        ),
        IllegalMove::PromotionDigitNotAllowed { mv, without } => text(
            lang,
            Key::IllegalPromotionDigitNotAllowed,
            &[("move", show(mv)), ("without", show(without))],
        ),
        IllegalMove::OldPromotionForm { given, standard } => text(
            lang,
            Key::IllegalOldPromotionForm,
            &[("given", show(given)), ("standard", show(standard))],
        ),
    }
}

fn castling(lang: Lang, block: CastlingBlock) -> String {
    match block {
        CastlingBlock::RightLost => text(lang, Key::CastlingRightLost, &[]),
        CastlingBlock::PieceInTheWay(sq) => {
            text(lang, Key::CastlingPieceInTheWay, &[("square", show(sq))])
        }
        CastlingBlock::InCheck => text(lang, Key::CastlingInCheck, &[]),
        CastlingBlock::SquareAttacked(sq) => {
            text(lang, Key::CastlingSquareAttacked, &[("square", show(sq))])
        }
    }
}

/// Why a text is not an ICCF move.
pub fn parse_error(lang: Lang, e: &ParseError) -> String {
    match e {
        ParseError::WrongLength { text: t, count } => text(
            lang,
            Key::ParseWrongLength,
            &[("text", t.as_str().into()), ("count", (*count).into())],
        ),
        ParseError::NotADigit { text: t, ch } => text(
            lang,
            Key::ParseNotADigit,
            &[("text", t.as_str().into()), ("char", show(ch))],
        ),
        ParseError::NotASquare { square } => text(
            lang,
            Key::ParseNotASquare,
            &[("square", square.as_str().into())],
        ),
        ParseError::SameSquare { text: t, square } => text(
            lang,
            Key::ParseSameSquare,
            &[("text", t.as_str().into()), ("square", show(square))],
        ),
        ParseError::BadPromotionDigit { text: t, digit } => text(
            lang,
            Key::ParseBadPromotionDigit,
            &[("text", t.as_str().into()), ("digit", show(digit))],
        ),
    }
}

/// Why a message is not one clear command.
pub fn unclear(lang: Lang, u: &Unclear) -> String {
    let quoted = |key, t: &str| text(lang, key, &[("text", t.into())]);
    match u {
        Unclear::NothingFound => text(lang, Key::UnclearNothingFound, &[]),
        Unclear::SeveralMoves { found } => text(
            lang,
            Key::UnclearSeveralMoves,
            &[("moves", found.join(", ").into())],
        ),
        Unclear::NotAMove { text: t, error } => text(
            lang,
            Key::UnclearNotAMove,
            &[
                ("text", t.as_str().into()),
                ("error", parse_error(lang, error).into()),
            ],
        ),
        Unclear::Algebraic { text: t } => quoted(Key::UnclearAlgebraic, t),
        Unclear::NumberInProse { text: t } => quoted(Key::UnclearNumberInProse, t),
        Unclear::VagueDraw { text: t } => quoted(Key::UnclearVagueDraw, t),
        Unclear::Uncertain { text: t } => quoted(Key::UnclearUncertain, t),
        Unclear::MixedCommands { found } => text(
            lang,
            Key::UnclearMixedCommands,
            &[("commands", found.join(", ").into())],
        ),
        Unclear::TooManyCommands { count, limit } => text(
            lang,
            Key::UnclearTooManyCommands,
            &[("count", (*count).into()), ("limit", (*limit).into())],
        ),
        Unclear::Malformed => text(lang, Key::UnclearMalformed, &[]),
    }
}

/// One line on whose move it is, or how the game ended.
pub fn status_line(lang: Lang, record: &Record) -> String {
    match record.end {
        Some(end) => text(
            lang,
            Key::StatusGameOver,
            &[
                ("result", end.result_text().into()),
                ("termination", termination(lang, end.termination).into()),
            ],
        ),
        None => {
            let mut args = vec![
                ("color", color_arg(record.turn())),
                ("number", number(record.next_number())),
            ];
            match record.draw_offer {
                Some(by) => {
                    args.push(("offerer", color_arg(by)));
                    text(lang, Key::StatusToMoveDrawOffered, &args)
                }
                None => text(lang, Key::StatusToMove, &args),
            }
        }
    }
}

/// The concrete next step after a rejection.
pub fn what_to_do(lang: Lang, why: &Rejection, record: &Record, seat: Color) -> String {
    let next = number(record.next_number());
    match why {
        Rejection::GameOver { .. } => text(lang, Key::TodoGameOver, &[]),
        Rejection::NotYourTurn { .. } => text(lang, Key::TodoWait, &[]),
        Rejection::WrongMoveNumber { .. }
        | Rejection::EchoMismatch { .. }
        | Rejection::AlreadyRecorded { .. } => {
            let key = if record.turn() == seat {
                Key::TodoCompareRecords
            } else {
                Key::TodoCompareRecordsLater
            };
            text(lang, key, &[("number", next)])
        }
        Rejection::SeveralNewMoves { .. } => text(lang, Key::TodoSendOne, &[("number", next)]),
        Rejection::Illegal { why, .. } => match why {
            IllegalMove::OldPromotionForm { standard: mv, .. }
            | IllegalMove::PromotionDigitNotAllowed { without: mv, .. } => text(
                lang,
                Key::TodoSendIfYours,
                &[("number", next), ("move", show(mv))],
            ),
            IllegalMove::PromotionDigitMissing { options } => text(
                lang,
                Key::TodoChoosePromotion,
                &[("options", list(options).into())],
            ),
            _ => text(lang, Key::TodoSendLegal, &[("number", next)]),
        },
        Rejection::NoDrawOffer | Rejection::OwnDrawOffer => {
            text(lang, Key::TodoOfferDrawYourself, &[])
        }
        Rejection::ClaimRefused { .. } | Rejection::TablebaseClaimRefused { .. } => {
            text(lang, Key::TodoPlayOn, &[])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::{Command, MoveNumber};
    use crate::game;
    use crate::game::{GameEnd, GameResult};
    use crate::intake::Unclear;
    use crate::notation::{IccfSquare, parse_move};
    use crate::referee::{Verdict, judge};
    use shakmaty::CastlingMode;
    use shakmaty::Chess;
    use shakmaty::fen::Fen;

    fn mv(s: &str) -> IccfMove {
        s.parse().unwrap()
    }

    fn played(moves: &[&str]) -> Record {
        let mut r = Record::new(None).unwrap();
        for m in moves {
            let v = judge(&r, r.turn(), &Command::single(mv(m)));
            assert!(matches!(v, Verdict::Moved { .. }), "{v:?}");
            r.apply(&v);
        }
        r
    }

    fn illegal_in(fen: &str, text: &str) -> IllegalMove {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        match parse_move(text, &pos) {
            Err(crate::notation::MoveError::Illegal(why)) => why,
            other => panic!("{text} in {fen}: {other:?}"),
        }
    }

    /// One of every kind of illegal move, found by the notation module in
    /// real positions (not built by hand).
    fn illegal_samples() -> Vec<IllegalMove> {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        vec![
            illegal_in(start, "5354"),                              // no piece
            illegal_in(start, "5755"),                              // Black's pawn
            illegal_in(start, "2134"),                              // knight cannot
            illegal_in(start, "4144"),                              // queen, no moves
            illegal_in("4k3/8/8/8/8/8/4r3/4K2R w K - 0 1", "8182"), // leaves check
            illegal_in("4k3/8/8/8/8/8/8/4K1NR w K - 0 1", "5171"),  // castling, piece
            illegal_in("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "5171"),   // castling, right
            illegal_in("4k3/8/8/8/8/8/4r3/4K2R w K - 0 1", "5171"), // castling, check
            illegal_in("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "5171"), // castling, attacked
            illegal_in("8/P3k3/8/8/8/8/8/4K3 w - - 0 1", "1718"),   // digit missing
            illegal_in(start, "52541"),                             // digit not allowed
            illegal_in("k7/5P2/8/8/8/8/8/4K3 w - - 0 1", "6762"),   // old form
        ]
    }

    fn rejection_samples() -> Vec<Rejection> {
        let n = |number, black| MoveNumber { number, black };
        let mut v = vec![
            Rejection::GameOver {
                end: GameEnd {
                    result: GameResult::WhiteWins,
                    termination: Termination::Checkmate,
                },
            },
            Rejection::NotYourTurn {
                to_move: Color::Black,
            },
            Rejection::WrongMoveNumber {
                expected: n(12, true),
                given: n(13, false),
            },
            Rejection::EchoMismatch {
                number: n(3, false),
                recorded: mv("7163"),
                given: mv("7173"),
            },
            Rejection::SeveralNewMoves {
                moves: vec![mv("5254"), mv("7163")],
            },
            Rejection::AlreadyRecorded {
                number: n(1, false),
                mv: mv("5254"),
            },
            Rejection::NoDrawOffer,
            Rejection::OwnDrawOffer,
        ];
        let proposed = Proposed {
            number: n(64, false),
            ply: crate::notation::Ply {
                iccf: mv("5242"),
                san: "Rb2".into(),
            },
        };
        let refused = |claim, proposed: Option<Proposed>, said| Rejection::TablebaseClaimRefused {
            claim,
            proposed,
            said,
        };
        let white = |cursed| {
            Ok(Resolved {
                result: GameResult::WhiteWins,
                cursed,
            })
        };
        v.extend([
            refused(Claim::Win, None, white(false)),
            refused(Claim::Draw, Some(proposed.clone()), white(true)),
            refused(
                Claim::Win,
                None,
                Ok(Resolved {
                    result: GameResult::Draw,
                    cursed: false,
                }),
            ),
            refused(Claim::Win, None, Err(Undecided::Off)),
            refused(Claim::Win, None, Err(Undecided::Castling)),
            refused(
                Claim::Draw,
                Some(proposed),
                Err(Undecided::TooManyPieces { pieces: 6, max: 4 }),
            ),
            refused(
                Claim::Win,
                None,
                Err(Undecided::MissingTable {
                    material: "KRPvKR".into(),
                }),
            ),
            refused(
                Claim::Win,
                None,
                Err(Undecided::Failed {
                    material: "KQvK".into(),
                }),
            ),
        ]);
        v.extend(illegal_samples().into_iter().map(|why| Rejection::Illegal {
            number: n(1, false),
            mv: mv("5254"),
            why,
        }));
        v
    }

    #[test]
    fn the_samples_cover_every_kind_of_illegal_move() {
        let kinds: std::collections::BTreeSet<String> = illegal_samples()
            .iter()
            .map(|w| {
                format!("{w:?}")
                    .split([' ', '{', '('])
                    .next()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(kinds.len(), 8, "every IllegalMove variant: {kinds:?}");
        let castling: std::collections::BTreeSet<String> = illegal_samples()
            .iter()
            .filter_map(|w| match w {
                IllegalMove::CastlingNotPossible { reason, .. } => {
                    format!("{reason:?}").split('(').next().map(str::to_owned)
                }
                _ => None,
            })
            .collect();
        assert_eq!(
            castling.len(),
            4,
            "every CastlingBlock variant: {castling:?}"
        );
    }

    #[test]
    fn english_rejections_read_as_the_referee_writes_them() {
        for why in rejection_samples() {
            assert_eq!(rejection(Lang::En, &why), why.to_string());
        }
    }

    #[test]
    fn english_counts_of_one_read_as_words() {
        let refused = Rejection::ClaimRefused {
            repetitions: 1,
            halfmoves: 2,
        };
        assert_eq!(
            rejection(Lang::En, &refused),
            "a draw cannot be claimed: the position has occurred once (3 needed) and 1 move has \
             been made without a capture or pawn move (50 needed)"
        );
        let refused = Rejection::ClaimRefused {
            repetitions: 2,
            halfmoves: 40,
        };
        assert!(
            rejection(Lang::En, &refused).contains("occurred 2 times (3 needed) and 20 moves have")
        );
    }

    /// The English words of what to do, written out here as the reference
    /// the English translation is checked against.
    fn english_what_to_do_reference(why: &Rejection, record: &Record, seat: Color) -> String {
        let next = MoveNumberText(record.next_number()).to_string();
        match why {
            Rejection::GameOver { .. } => {
                "nothing: the game is finished. Ask the organiser for a new game.".to_owned()
            }
            Rejection::NotYourTurn { .. } => {
                "wait for your opponent's move; it will reach you by mail.".to_owned()
            }
            Rejection::WrongMoveNumber { .. }
            | Rejection::EchoMismatch { .. }
            | Rejection::AlreadyRecorded { .. } => format!(
                "compare your record with the one below, then send your move as \"{next} <move>\"{}.",
                if record.turn() == seat {
                    ""
                } else {
                    " when it is your turn"
                }
            ),
            Rejection::SeveralNewMoves { .. } => format!("send only your move for {next}."),
            Rejection::Illegal { why, .. } => match why {
                IllegalMove::OldPromotionForm { standard, .. } => {
                    format!("send \"{next} {standard}\" if that is your move.")
                }
                IllegalMove::PromotionDigitMissing { options } => format!(
                    "send one of {} (5th digit: 1 queen, 2 rook, 3 bishop, 4 knight).",
                    list(options)
                ),
                IllegalMove::PromotionDigitNotAllowed { without, .. } => {
                    format!("send \"{next} {without}\" if that is your move.")
                }
                _ => format!("send a legal move for {next}; the board is below."),
            },
            Rejection::NoDrawOffer | Rejection::OwnDrawOffer => {
                "to offer a draw yourself, write \"offer draw\" (with your move if you like)."
                    .to_owned()
            }
            Rejection::ClaimRefused { .. } | Rejection::TablebaseClaimRefused { .. } => {
                "play on: send your move.".to_owned()
            }
        }
    }

    #[test]
    fn english_what_to_do_reads_as_before_translation() {
        let r = played(&["5254"]);
        for why in rejection_samples() {
            for seat in [Color::White, Color::Black] {
                assert_eq!(
                    what_to_do(Lang::En, &why, &r, seat),
                    english_what_to_do_reference(&why, &r, seat),
                    "{why:?}"
                );
            }
        }
    }

    fn unclear_samples() -> Vec<Unclear> {
        vec![
            Unclear::NothingFound,
            Unclear::SeveralMoves {
                found: vec!["5254".into(), "7163".into()],
            },
            Unclear::NotAMove {
                text: "5259".into(),
                error: "5259".parse::<IccfMove>().unwrap_err(),
            },
            Unclear::NotAMove {
                text: "525".into(),
                error: "525".parse::<IccfMove>().unwrap_err(),
            },
            Unclear::NotAMove {
                text: "52a4".into(),
                error: "52a4".parse::<IccfMove>().unwrap_err(),
            },
            Unclear::NotAMove {
                text: "5252".into(),
                error: "5252".parse::<IccfMove>().unwrap_err(),
            },
            Unclear::NotAMove {
                text: "52549".into(),
                error: "52549".parse::<IccfMove>().unwrap_err(),
            },
            Unclear::Algebraic { text: "Nf3".into() },
            Unclear::NumberInProse {
                text: "until 1520".into(),
            },
            Unclear::VagueDraw {
                text: "draw".into(),
            },
            Unclear::Uncertain {
                text: "should I resign?".into(),
            },
            Unclear::MixedCommands {
                found: vec!["5254".into(), "resign".into()],
            },
            Unclear::TooManyCommands {
                count: 40,
                limit: 32,
            },
            Unclear::Malformed,
        ]
    }

    #[test]
    fn english_unclear_reads_as_intake_writes_it() {
        let kinds: std::collections::BTreeSet<String> = unclear_samples()
            .iter()
            .filter_map(|u| match u {
                Unclear::NotAMove { error, .. } => Some(format!("{error:?}")),
                _ => None,
            })
            .map(|e| e.split(' ').next().unwrap().to_owned())
            .collect();
        assert_eq!(kinds.len(), 5, "every ParseError variant: {kinds:?}");
        for u in unclear_samples() {
            assert_eq!(unclear(Lang::En, &u), u.to_string());
        }
    }

    #[test]
    fn english_status_line_matches_the_game_module() {
        let mut r = played(&["5254"]);
        assert_eq!(status_line(Lang::En, &r), game::status_line(&r));
        r.draw_offer = Some(Color::White);
        assert_eq!(status_line(Lang::En, &r), game::status_line(&r));
        let mut mated = played(&["6263", "5755", "7274", "4884"]);
        mated.end = Some(GameEnd {
            result: GameResult::BlackWins,
            termination: Termination::Checkmate,
        });
        assert_eq!(status_line(Lang::En, &mated), game::status_line(&mated));
    }

    #[test]
    fn every_reason_reads_in_every_language_without_english_left_over() {
        let r = played(&["5254"]);
        for lang in Lang::ALL.into_iter().filter(|l| *l != Lang::En) {
            for why in rejection_samples() {
                let local = rejection(lang, &why);
                assert_ne!(local, rejection(Lang::En, &why), "{lang}: {why:?}");
                assert!(!local.contains("{"), "{lang}: {local}");
                let todo = what_to_do(lang, &why, &r, Color::White);
                assert_ne!(todo, what_to_do(Lang::En, &why, &r, Color::White), "{lang}");
            }
            for u in unclear_samples() {
                assert_ne!(unclear(lang, &u), unclear(Lang::En, &u), "{lang}: {u:?}");
            }
            assert_ne!(status_line(lang, &r), status_line(Lang::En, &r), "{lang}");
        }
    }

    #[test]
    fn moves_and_squares_pass_through_untranslated() {
        let why = Rejection::Illegal {
            number: MoveNumber {
                number: 12,
                black: true,
            },
            mv: mv("2134"),
            why: illegal_samples().remove(2),
        };
        for lang in Lang::ALL {
            let s = rejection(lang, &why);
            for digits in ["12...", "2134", "21", "34", "2113", "2133"] {
                assert!(s.contains(digits), "{lang}: {digits} missing in {s}");
            }
        }
        let sq = IccfSquare::from_digits(5, 4).unwrap();
        assert!(illegal(Lang::Ru, &IllegalMove::NoPiece { square: sq }).contains("54"));
    }

    #[test]
    fn pronouns_agree_with_the_piece() {
        let reach = |role, reachable| IllegalMove::CannotReach {
            role: crate::notation::RoleName(role),
            from: IccfSquare::from_digits(4, 1).unwrap(),
            to: IccfSquare::from_digits(4, 4).unwrap(),
            reachable,
        };
        let stuck = |role| reach(role, Vec::new());
        let free = |role| reach(role, vec![mv("4142")]);
        use shakmaty::Role::{Knight, Queen, Rook};
        for (lang, mine, want) in [
            (Lang::De, stuck(Queen), "; sie hat"),
            (Lang::De, stuck(Knight), "; er hat"),
            (Lang::De, free(Queen), "; ihre regel"),
            (Lang::De, free(Rook), "; seine regel"),
            (Lang::Fr, stuck(Rook), "; elle n'a"),
            (Lang::Fr, stuck(Knight), "; il n'a"),
            (Lang::Nl, stuck(Knight), "; het heeft"),
            (Lang::Ru, stuck(Rook), "у неё"),
            (Lang::Ru, stuck(Queen), "у него"),
            (Lang::Pl, free(Rook), "; jej prawid"),
            (Lang::Cs, free(Queen), "; její platn"),
        ] {
            let s = illegal(lang, &mine);
            assert!(s.contains(want), "{lang}: {want:?} not in {s}");
        }
    }
}
