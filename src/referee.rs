//! The referee's judgement: (game record, seat, command) -> verdict, and the
//! verdict's effect on the record. [pure: no IO]
//!
//! A rejected command is not an error: it is [`Verdict::Rejected`] with the
//! reason as data, which the reply turns into an answer. The record itself
//! (moves, end, result) is [`crate::game`]'s; this module only judges.

use std::fmt;

use shakmaty::{Color, Position};

use crate::command::{Command, MoveNumber, WrittenMove};
use crate::game::{GameEnd, GameResult, MoveNumberText, Record, Termination, fen_of};
use crate::notation::{ColorName, IccfMove, IllegalMove, Ply};

// The effect of a verdict is written here, beside the verdict, so the record
// (in `game`) needs to know nothing of the referee.
impl Record {
    /// Applies a verdict's effect to the record (what the store persists).
    pub fn apply(&mut self, verdict: &Verdict) {
        match verdict {
            Verdict::Moved {
                ply,
                end,
                draw_offered,
                mover,
                ..
            } => {
                if let Ok(m) = ply.iccf.to_move(self.position()) {
                    self.push(ply.iccf, m);
                }
                self.end = *end;
                // An offer stands until the opponent answers it: their move
                // declines it, the offerer's own next move keeps it.
                self.draw_offer = match (end, draw_offered) {
                    (Some(_), _) => None,
                    (None, true) => Some(*mover),
                    (None, false) => self.draw_offer.filter(|by| by == mover),
                };
            }
            Verdict::DrawOffered { by } => self.draw_offer = Some(*by),
            Verdict::DrawDeclined { .. } => self.draw_offer = None,
            Verdict::Ended { end, .. } => {
                self.end = Some(*end);
                self.draw_offer = None;
            }
            Verdict::Status | Verdict::Rejected(_) => {}
        }
    }
}

/// What the referee decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A move was played.
    Moved {
        ply: Ply,
        /// The move's number and side (`12...` for Black's 12th).
        number: MoveNumber,
        mover: Color,
        fen_after: String,
        /// The game ended with this move (mate, stalemate, insufficient material).
        end: Option<GameEnd>,
        /// The mover offered a draw with the move.
        draw_offered: bool,
        /// The mover claimed a draw with this move and the claim was wrong:
        /// the move stands and the game goes on (FIDE 9.2.3). A correct
        /// claim ends the game instead (`end`).
        claim_refused: Option<ClaimCounts>,
    },
    DrawOffered {
        by: Color,
    },
    DrawDeclined {
        by: Color,
    },
    /// The game ended by a command: resignation, agreed draw, valid claim.
    Ended {
        by: Color,
        end: GameEnd,
    },
    /// Board and record requested: nothing changes.
    Status,
    Rejected(Rejection),
}

/// Why a command was not carried out, as data for the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    GameOver {
        end: GameEnd,
    },
    NotYourTurn {
        to_move: Color,
    },
    /// The written move number is not the one the game is on.
    WrongMoveNumber {
        expected: MoveNumber,
        given: MoveNumber,
    },
    /// An echoed earlier move differs from the record: the first difference.
    EchoMismatch {
        number: MoveNumber,
        recorded: IccfMove,
        given: IccfMove,
    },
    /// The line holds more than one move beyond the record.
    SeveralNewMoves {
        moves: Vec<IccfMove>,
    },
    /// The line only repeats moves already recorded: nothing new.
    AlreadyRecorded {
        number: MoveNumber,
        mv: IccfMove,
    },
    Illegal {
        number: MoveNumber,
        mv: IccfMove,
        why: IllegalMove,
    },
    NoDrawOffer,
    OwnDrawOffer,
    ClaimRefused {
        repetitions: usize,
        halfmoves: u32,
    },
}

fn side(black: bool) -> &'static str {
    if black { "Black" } else { "White" }
}
impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::GameOver { end } => write!(
                f,
                "the game is over ({}, {}): no more moves are accepted",
                end.result,
                end.termination.as_str()
            ),
            Rejection::NotYourTurn { to_move } => {
                write!(
                    f,
                    "it is {}'s move: wait for your opponent's move",
                    ColorName(*to_move)
                )
            }
            Rejection::WrongMoveNumber { expected, given } => write!(
                f,
                "you wrote move {} but the game is at move {} ({} to move): the two records are out of step",
                MoveNumberText(*given),
                MoveNumberText(*expected),
                side(expected.black)
            ),
            Rejection::EchoMismatch {
                number,
                recorded,
                given,
            } => write!(
                f,
                "at move {} you wrote {given}, but the record has {recorded}: the two records are out of step",
                MoveNumberText(*number)
            ),
            Rejection::SeveralNewMoves { moves } => write!(
                f,
                "your message holds {} new moves ({}): send one move at a time",
                moves.len(),
                moves
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Rejection::AlreadyRecorded { number, mv } => write!(
                f,
                "{} {mv} is already in the record: send your next move",
                MoveNumberText(*number)
            ),
            Rejection::Illegal { number, mv, why } => {
                write!(f, "{} {mv} is not possible: {why}", MoveNumberText(*number))
            }
            Rejection::NoDrawOffer => {
                write!(f, "there is no draw offer from your opponent to answer")
            }
            Rejection::OwnDrawOffer => {
                write!(
                    f,
                    "the draw offer is yours: only your opponent can accept it"
                )
            }
            Rejection::ClaimRefused {
                repetitions,
                halfmoves,
            } => ClaimCounts {
                repetitions: *repetitions,
                halfmoves: *halfmoves,
            }
            .fmt(f),
        }
    }
}

/// Judges `command` from the player of `seat` against `record`.
pub fn judge(record: &Record, seat: Color, command: &Command) -> Verdict {
    // Asking for the board changes nothing, so it is answered after the end
    // too: with the final position and the result.
    if matches!(command, Command::Status | Command::XfccPassword) {
        return Verdict::Status;
    }
    if let Some(end) = record.end {
        return Verdict::Rejected(Rejection::GameOver { end });
    }
    match command {
        Command::Status | Command::XfccPassword => Verdict::Status,
        Command::Resign => Verdict::Ended {
            by: seat,
            end: GameEnd {
                result: GameResult::win_for(!seat),
                termination: Termination::Resignation,
            },
        },
        Command::OfferDraw => Verdict::DrawOffered { by: seat },
        Command::AcceptDraw => match record.draw_offer {
            Some(by) if by != seat => Verdict::Ended {
                by: seat,
                end: GameEnd {
                    result: GameResult::Draw,
                    termination: Termination::DrawAgreed,
                },
            },
            Some(_) => Verdict::Rejected(Rejection::OwnDrawOffer),
            None => Verdict::Rejected(Rejection::NoDrawOffer),
        },
        Command::DeclineDraw => match record.draw_offer {
            Some(by) if by != seat => Verdict::DrawDeclined { by: seat },
            Some(_) => Verdict::Rejected(Rejection::OwnDrawOffer),
            None => Verdict::Rejected(Rejection::NoDrawOffer),
        },
        Command::ClaimDraw => claim(record, seat),
        Command::Play {
            line,
            offer_draw,
            claim_draw,
        } => play(
            record,
            seat,
            line,
            PlayExtras {
                offer_draw: *offer_draw,
                claim_draw: *claim_draw,
            },
        ),
    }
}

/// The counts a draw claim is judged on, and whether they allow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimCounts {
    /// How often the position has stood on the board (3 needed).
    pub repetitions: usize,
    /// Plies since the last capture or pawn move (100 needed: 50 moves each).
    pub halfmoves: u32,
}

impl ClaimCounts {
    fn of(record: &Record) -> ClaimCounts {
        ClaimCounts {
            repetitions: record.repetitions(),
            halfmoves: record.position().halfmoves(),
        }
    }

    /// The draw the counts allow, if any (FIDE 9.2 before 9.3).
    fn termination(self) -> Option<Termination> {
        if self.repetitions >= 3 {
            Some(Termination::ThreefoldRepetition)
        } else if self.halfmoves >= 100 {
            Some(Termination::FiftyMoveRule)
        } else {
            None
        }
    }
}

impl fmt::Display for ClaimCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a draw cannot be claimed: the position has occurred {} time(s) (3 needed) and {} moves have been made without a capture or pawn move (50 needed)",
            self.repetitions,
            self.halfmoves / 2
        )
    }
}

/// A claim on the position on the board. Only the player on move may claim
/// (FIDE 9.2.1.2, 9.3.2): the other has made their move without claiming.
fn claim(record: &Record, seat: Color) -> Verdict {
    if record.turn() != seat {
        return Verdict::Rejected(Rejection::NotYourTurn {
            to_move: record.turn(),
        });
    }
    let counts = ClaimCounts::of(record);
    let Some(termination) = counts.termination() else {
        return Verdict::Rejected(Rejection::ClaimRefused {
            repetitions: counts.repetitions,
            halfmoves: counts.halfmoves,
        });
    };
    Verdict::Ended {
        by: seat,
        end: GameEnd {
            result: GameResult::Draw,
            termination,
        },
    }
}

/// The ply each written move stands for: its own number; else one after the
/// move before it; else (moves before the line's first number) counted back
/// from that number; a line with no number at all ends at the new move.
/// `Err` carries a number that lies before the game's start.
fn plies_of(record: &Record, line: &[WrittenMove]) -> Result<Vec<usize>, MoveNumber> {
    let here = record.ply_count();
    let Some((first, n)) = line
        .iter()
        .enumerate()
        .find_map(|(i, w)| w.number.map(|n| (i, n)))
    else {
        let start = here.saturating_sub(line.len() - 1);
        return Ok((start..start + line.len()).collect());
    };
    let anchor = record.ply_of_number(n).ok_or(n)?;
    let mut plies = Vec::with_capacity(line.len());
    for i in 0..first {
        plies.push(anchor.checked_sub(first - i).ok_or(n)?);
    }
    let mut prev = anchor;
    for w in &line[first..] {
        let p = match w.number {
            Some(n) => record.ply_of_number(n).ok_or(n)?,
            None => prev + 1,
        };
        plies.push(p);
        prev = p;
    }
    Ok(plies)
}

/// A move, with the record echoed around it if the player likes: every
/// written move but the new one must be the record's move at its ply, in
/// whatever order the player wrote them.
fn play(record: &Record, seat: Color, line: &[WrittenMove], extras: PlayExtras) -> Verdict {
    if line.is_empty() {
        return Verdict::Status;
    }
    if record.turn() != seat {
        // Before anything else: a move from the side not on move is never queued.
        return Verdict::Rejected(Rejection::NotYourTurn {
            to_move: record.turn(),
        });
    }
    let mv = match new_move(record, line) {
        Ok(mv) => mv,
        Err(rejection) => return Verdict::Rejected(rejection),
    };
    let next = record.next_number();
    let pos = record.position();
    match mv.to_move(pos) {
        Err(why) => Verdict::Rejected(Rejection::Illegal {
            number: next,
            mv,
            why,
        }),
        Ok(m) => moved(record, seat, mv, m, extras),
    }
}

/// The one new move of `line` (not empty), its other moves checked against
/// the record: their numbers in step, the echoes the record's moves.
fn new_move(record: &Record, line: &[WrittenMove]) -> Result<IccfMove, Rejection> {
    let here = record.ply_count();
    let next = record.next_number();
    // The number is before the game's start: out of step.
    let plies = plies_of(record, line).map_err(|given| Rejection::WrongMoveNumber {
        expected: next,
        given,
    })?;
    let mut by_ply: Vec<(usize, &WrittenMove)> = plies.iter().copied().zip(line).collect();
    by_ply.sort_by_key(|(p, _)| *p);
    let (lowest, _) = by_ply[0];
    let (highest, top) = by_ply[by_ply.len() - 1];
    let out_of_step = |p: usize, w: &WrittenMove| Rejection::WrongMoveNumber {
        expected: next,
        given: w.number.unwrap_or(record.number_of_ply(p)),
    };
    if line.len() == 1 && plies[0] != here {
        return Err(out_of_step(plies[0], &line[0]));
    }
    if lowest > here {
        return Err(out_of_step(lowest, by_ply[0].1));
    }
    // A gap before a later move: the move for `here` is missing.
    if highest > here
        && let Some(&(p, w)) = by_ply.iter().find(|(p, _)| *p > here)
        && !plies.contains(&here)
    {
        return Err(out_of_step(p, w));
    }
    // Echoes: every written ply inside the record must match it.
    for &(p, w) in by_ply.iter().filter(|(p, _)| *p < here) {
        let Some(recorded) = record.ply(p).map(|ply| ply.iccf) else {
            continue;
        };
        if recorded != w.mv {
            return Err(Rejection::EchoMismatch {
                number: record.number_of_ply(p),
                recorded,
                given: w.mv,
            });
        }
    }
    if highest < here {
        return Err(Rejection::AlreadyRecorded {
            number: record.number_of_ply(highest),
            mv: top.mv,
        });
    }
    let mut new_moves: Vec<IccfMove> = Vec::new();
    for (_, w) in by_ply.iter().filter(|(p, _)| *p >= here) {
        if new_moves.last() != Some(&w.mv) {
            new_moves.push(w.mv);
        }
    }
    if new_moves.len() > 1 {
        return Err(Rejection::SeveralNewMoves { moves: new_moves });
    }
    Ok(new_moves[0])
}

/// The legal move `m` (`mv` as written) played by `seat`, with the end it
/// brings and a claim made with it judged.
fn moved(
    record: &Record,
    seat: Color,
    mv: IccfMove,
    m: shakmaty::Move,
    extras: PlayExtras,
) -> Verdict {
    let pos = record.position();
    let san = shakmaty::san::SanPlus::from_move(pos.clone(), m).to_string();
    let mut after = pos.clone();
    after.play_unchecked(m);
    let mut end = end_on_the_board(&after, seat);
    // A claim with the intended move (FIDE 9.2.1.1, 9.3.1) is judged on the
    // position after it. A wrong claim cannot be withdrawn, but the move
    // stands and the game goes on (FIDE 9.2.3); unlike over the board
    // (9.1.2.3) it is not also a draw offer.
    let mut claim_refused = None;
    if extras.claim_draw && end.is_none() {
        let mut then = record.clone();
        then.push(mv, m);
        let counts = ClaimCounts::of(&then);
        match counts.termination() {
            Some(termination) => {
                end = Some(GameEnd {
                    result: GameResult::Draw,
                    termination,
                });
            }
            None => claim_refused = Some(counts),
        }
    }
    Verdict::Moved {
        ply: Ply {
            iccf: mv,
            san: san.into(),
        },
        number: record.next_number(),
        mover: seat,
        fen_after: fen_of(&after),
        end,
        draw_offered: extras.offer_draw && end.is_none(),
        claim_refused,
    }
}

/// How the position `after` a move by `mover` ends the game, if it does:
/// checkmate, stalemate, or material too little to mate.
fn end_on_the_board(after: &shakmaty::Chess, mover: Color) -> Option<GameEnd> {
    if after.is_checkmate() {
        Some(GameEnd {
            result: GameResult::win_for(mover),
            termination: Termination::Checkmate,
        })
    } else if after.is_stalemate() {
        Some(GameEnd {
            result: GameResult::Draw,
            termination: Termination::Stalemate,
        })
    } else if after.is_insufficient_material() {
        Some(GameEnd {
            result: GameResult::Draw,
            termination: Termination::InsufficientMaterial,
        })
    } else {
        None
    }
}

/// What may come with a move.
#[derive(Debug, Clone, Copy)]
struct PlayExtras {
    offer_draw: bool,
    claim_draw: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::WrittenMove;

    fn mv(s: &str) -> IccfMove {
        s.parse().unwrap()
    }

    fn w(s: &str) -> WrittenMove {
        WrittenMove {
            number: None,
            mv: mv(s),
        }
    }

    fn numbered(n: u32, black: bool, s: &str) -> WrittenMove {
        WrittenMove {
            number: Some(MoveNumber { number: n, black }),
            mv: mv(s),
        }
    }

    fn play_line(line: Vec<WrittenMove>) -> Command {
        Command::Play {
            line,
            offer_draw: false,
            claim_draw: false,
        }
    }

    /// Plays `moves` alternately through the referee, asserting each is accepted.
    fn game(moves: &[&str]) -> Record {
        let mut r = Record::new(None).unwrap();
        for m in moves {
            let v = judge(&r, r.turn(), &Command::single(mv(m)));
            assert!(matches!(v, Verdict::Moved { .. }), "{m}: {v:?}");
            r.apply(&v);
        }
        r
    }

    #[test]
    fn accepted_move_gives_san_and_next_number() {
        let r = game(&["5254"]);
        assert_eq!(r.plies()[0].san, "e4");
        assert_eq!(
            r.next_number(),
            MoveNumber {
                number: 1,
                black: true
            }
        );
    }

    #[test]
    fn move_from_side_not_on_move_is_rejected_not_queued() {
        let r = game(&["5254"]);
        let v = judge(&r, Color::White, &Command::single(mv("4244")));
        assert_eq!(
            v,
            Verdict::Rejected(Rejection::NotYourTurn {
                to_move: Color::Black
            })
        );
    }

    #[test]
    fn wrong_move_number_is_out_of_step() {
        let r = game(&["5254", "5755"]);
        let v = judge(
            &r,
            Color::White,
            &play_line(vec![numbered(3, false, "7163")]),
        );
        assert_eq!(
            v,
            Verdict::Rejected(Rejection::WrongMoveNumber {
                expected: MoveNumber {
                    number: 2,
                    black: false
                },
                given: MoveNumber {
                    number: 3,
                    black: false
                },
            })
        );
    }

    #[test]
    fn right_move_number_is_accepted() {
        let r = game(&["5254", "5755"]);
        let v = judge(
            &r,
            Color::White,
            &play_line(vec![numbered(2, false, "7163")]),
        );
        assert!(matches!(v, Verdict::Moved { .. }), "{v:?}");
    }

    #[test]
    fn echo_of_opponents_move_then_own_move_is_accepted() {
        let r = game(&["5254", "5755"]);
        let v = judge(
            &r,
            Color::White,
            &play_line(vec![numbered(1, true, "5755"), numbered(2, false, "7163")]),
        );
        let Verdict::Moved { ply, .. } = v else {
            panic!("{v:?}")
        };
        assert_eq!(ply.san, "Nf3");
    }

    #[test]
    fn echo_mismatch_names_first_difference() {
        let r = game(&["5254", "5755"]);
        let v = judge(
            &r,
            Color::White,
            &play_line(vec![numbered(1, true, "3735"), numbered(2, false, "7163")]),
        );
        assert_eq!(
            v,
            Verdict::Rejected(Rejection::EchoMismatch {
                number: MoveNumber {
                    number: 1,
                    black: true
                },
                recorded: mv("5755"),
                given: mv("3735"),
            })
        );
    }

    #[test]
    fn whole_record_plus_new_move_is_accepted() {
        let r = game(&["5254", "5755", "7163", "2836"]);
        let line = vec![
            numbered(1, false, "5254"),
            w("5755"),
            numbered(2, false, "7163"),
            w("2836"),
            numbered(3, false, "6125"),
        ];
        let v = judge(&r, Color::White, &play_line(line));
        let Verdict::Moved { ply, .. } = v else {
            panic!("{v:?}")
        };
        assert_eq!(ply.san, "Bb5");
    }

    #[test]
    fn unnumbered_echo_is_matched_against_the_tail() {
        let r = game(&["5254", "5755"]);
        let v = judge(&r, Color::White, &play_line(vec![w("5755"), w("7163")]));
        assert!(matches!(v, Verdict::Moved { .. }), "{v:?}");
        let v = judge(&r, Color::White, &play_line(vec![w("5756"), w("7163")]));
        assert!(
            matches!(v, Verdict::Rejected(Rejection::EchoMismatch { .. })),
            "{v:?}"
        );
    }

    #[test]
    fn two_new_moves_are_refused() {
        let r = game(&["5254", "5755"]);
        let v = judge(
            &r,
            Color::White,
            &play_line(vec![numbered(2, false, "7163"), w("2836")]),
        );
        assert_eq!(
            v,
            Verdict::Rejected(Rejection::SeveralNewMoves {
                moves: vec![mv("7163"), mv("2836")]
            })
        );
    }

    #[test]
    fn resent_move_is_already_recorded() {
        let r = game(&["5254", "5755", "7163"]);
        let v = judge(
            &r,
            Color::Black,
            &play_line(vec![numbered(1, true, "5755")]),
        );
        assert!(
            matches!(v, Verdict::Rejected(Rejection::WrongMoveNumber { .. })),
            "{v:?}"
        );
        let v = judge(
            &r,
            Color::Black,
            &play_line(vec![numbered(1, false, "5254"), w("5755")]),
        );
        assert_eq!(
            v,
            Verdict::Rejected(Rejection::AlreadyRecorded {
                number: MoveNumber {
                    number: 1,
                    black: true
                },
                mv: mv("5755")
            })
        );
    }

    #[test]
    fn illegal_move_is_rejected_with_reason() {
        let r = game(&[]);
        let v = judge(&r, Color::White, &Command::single(mv("7154")));
        let Verdict::Rejected(Rejection::Illegal { why, .. }) = v else {
            panic!("{v:?}")
        };
        assert!(matches!(why, IllegalMove::CannotReach { .. }), "{why:?}");
    }

    #[test]
    fn fools_mate_ends_the_game() {
        let r = game(&["6263", "5755", "7274"]);
        let v = judge(&r, Color::Black, &Command::single(mv("4884")));
        let Verdict::Moved { end, ply, .. } = v else {
            panic!("{v:?}")
        };
        assert_eq!(ply.san, "Qh4#");
        assert_eq!(
            end,
            Some(GameEnd {
                result: GameResult::BlackWins,
                termination: Termination::Checkmate
            })
        );
    }

    #[test]
    fn nothing_is_accepted_after_the_end() {
        let r = game(&["6263", "5755", "7274", "4884"]);
        assert!(r.is_over());
        let v = judge(&r, Color::White, &Command::single(mv("5253")));
        assert!(matches!(v, Verdict::Rejected(Rejection::GameOver { .. })));
        let v = judge(&r, Color::White, &Command::Resign);
        assert!(matches!(v, Verdict::Rejected(Rejection::GameOver { .. })));
    }

    #[test]
    fn stalemate_ends_in_a_draw() {
        // White: Kf7, Qg5 (to play Qg6 stalemating the black king on h8).
        let mut r = Record::new(Some("7k/5K2/8/6Q1/8/8/8/8 w - - 0 1")).unwrap();
        let v = judge(&r, Color::White, &Command::single(mv("7576")));
        let Verdict::Moved { end, .. } = &v else {
            panic!("{v:?}")
        };
        assert_eq!(
            *end,
            Some(GameEnd {
                result: GameResult::Draw,
                termination: Termination::Stalemate
            })
        );
        r.apply(&v);
        assert!(r.is_over());
    }

    #[test]
    fn resignation_gives_the_win_to_the_opponent() {
        let r = game(&["5254"]);
        let v = judge(&r, Color::White, &Command::Resign);
        assert_eq!(
            v,
            Verdict::Ended {
                by: Color::White,
                end: GameEnd {
                    result: GameResult::BlackWins,
                    termination: Termination::Resignation
                }
            }
        );
    }

    #[test]
    fn draw_offer_accepted_by_opponent_ends_in_agreed_draw() {
        let mut r = game(&["5254"]);
        let offer = judge(
            &r,
            Color::Black,
            &Command::Play {
                line: vec![w("5755")],
                offer_draw: true,
                claim_draw: false,
            },
        );
        r.apply(&offer);
        assert_eq!(r.draw_offer, Some(Color::Black));
        assert_eq!(
            judge(&r, Color::Black, &Command::AcceptDraw),
            Verdict::Rejected(Rejection::OwnDrawOffer)
        );
        let v = judge(&r, Color::White, &Command::AcceptDraw);
        assert_eq!(
            v,
            Verdict::Ended {
                by: Color::White,
                end: GameEnd {
                    result: GameResult::Draw,
                    termination: Termination::DrawAgreed
                }
            }
        );
    }

    #[test]
    fn accepting_without_offer_is_refused() {
        let r = game(&["5254"]);
        assert_eq!(
            judge(&r, Color::Black, &Command::AcceptDraw),
            Verdict::Rejected(Rejection::NoDrawOffer)
        );
    }

    #[test]
    fn moving_declines_a_pending_offer() {
        let mut r = game(&["5254"]);
        r.apply(&judge(&r, Color::White, &Command::OfferDraw));
        assert_eq!(r.draw_offer, Some(Color::White));
        let v = judge(&r, Color::Black, &Command::single(mv("5755")));
        r.apply(&v);
        assert_eq!(r.draw_offer, None);
    }

    /// White offered, then made their own move: the offer stands, and
    /// Black's acceptance is not answered with "there is no draw offer".
    #[test]
    fn offerers_own_move_keeps_the_draw_offer() {
        let mut r = game(&["5254", "5755"]);
        r.apply(&judge(&r, Color::White, &Command::OfferDraw));
        let v = judge(&r, Color::White, &Command::single(mv("7163")));
        r.apply(&v);
        assert_eq!(r.draw_offer, Some(Color::White));
        assert!(matches!(
            judge(&r, Color::Black, &Command::AcceptDraw),
            Verdict::Ended {
                end: GameEnd {
                    termination: Termination::DrawAgreed,
                    ..
                },
                ..
            }
        ));
    }

    #[test]
    fn opponents_move_after_an_offer_with_a_move_declines_it() {
        let mut r = game(&["5254"]);
        let offer = judge(
            &r,
            Color::Black,
            &Command::Play {
                line: vec![w("5755")],
                offer_draw: true,
                claim_draw: false,
            },
        );
        r.apply(&offer);
        r.apply(&judge(&r, Color::White, &Command::single(mv("7163"))));
        assert_eq!(r.draw_offer, None);
    }

    #[test]
    fn status_after_the_end_shows_the_final_position() {
        let r = game(&["6263", "5755", "7274", "4884"]);
        assert!(r.is_over());
        assert_eq!(judge(&r, Color::White, &Command::Status), Verdict::Status);
        assert_eq!(judge(&r, Color::Black, &Command::Status), Verdict::Status);
    }

    #[test]
    fn threefold_repetition_claim_is_checked() {
        let shuffle = ["7163", "7866", "6371", "6678"];
        let mut moves = vec![];
        moves.extend(shuffle);
        let r = game(&moves);
        // The start position has now stood twice.
        assert_eq!(r.repetitions(), 2);
        assert_eq!(
            judge(&r, Color::White, &Command::ClaimDraw),
            Verdict::Rejected(Rejection::ClaimRefused {
                repetitions: 2,
                halfmoves: 4
            })
        );
        moves.extend(shuffle);
        let r = game(&moves);
        assert_eq!(r.repetitions(), 3);
        assert_eq!(
            judge(&r, Color::White, &Command::ClaimDraw),
            Verdict::Ended {
                by: Color::White,
                end: GameEnd {
                    result: GameResult::Draw,
                    termination: Termination::ThreefoldRepetition
                }
            }
        );
    }

    #[test]
    fn fifty_move_claim_is_accepted_at_100_halfmoves() {
        let r = Record::new(Some("8/8/4k3/8/8/4K3/4R3/8 w - - 100 80")).unwrap();
        assert!(matches!(
            judge(&r, Color::White, &Command::ClaimDraw),
            Verdict::Ended {
                end: GameEnd {
                    termination: Termination::FiftyMoveRule,
                    ..
                },
                ..
            }
        ));
    }

    /// The player not on move cannot claim: the game goes on.
    #[test]
    fn only_the_player_on_move_may_claim() {
        let shuffle = ["7163", "7866", "6371", "6678"];
        let r = game(&[shuffle, shuffle].concat());
        assert_eq!(r.repetitions(), 3);
        assert_eq!(
            judge(&r, Color::Black, &Command::ClaimDraw),
            Verdict::Rejected(Rejection::NotYourTurn {
                to_move: Color::White
            })
        );
        let r = Record::new(Some("8/8/4k3/8/8/4K3/4R3/8 w - - 100 80")).unwrap();
        assert!(matches!(
            judge(&r, Color::Black, &Command::ClaimDraw),
            Verdict::Rejected(Rejection::NotYourTurn { .. })
        ));
    }

    fn claim_with(line: Vec<WrittenMove>) -> Command {
        Command::Play {
            line,
            offer_draw: false,
            claim_draw: true,
        }
    }

    /// `80. 5242 claim draw` is not refused as mixed: the claim is judged
    /// on the position after the written move (FIDE 9.2.1.1).
    #[test]
    fn claim_with_the_move_that_repeats_ends_the_game_with_the_move_recorded() {
        let shuffle = ["7163", "7866", "6371", "6678"];
        // Seven plies: Black's knight back to g8 would make the start
        // position stand a third time.
        let mut r = game(&[&shuffle[..], &shuffle[..3]].concat());
        assert_eq!(r.repetitions(), 2);
        let v = judge(&r, Color::Black, &claim_with(vec![w("6678")]));
        let Verdict::Moved {
            end, claim_refused, ..
        } = &v
        else {
            panic!("{v:?}")
        };
        assert_eq!(
            *end,
            Some(GameEnd {
                result: GameResult::Draw,
                termination: Termination::ThreefoldRepetition
            })
        );
        assert_eq!(*claim_refused, None);
        r.apply(&v);
        assert_eq!(r.plies().len(), 8);
        assert!(r.is_over());
    }

    #[test]
    fn claim_with_the_fiftieth_move_is_judged_after_it() {
        let r = Record::new(Some("8/8/4k3/8/8/4K3/4R3/8 w - - 99 80")).unwrap();
        let v = judge(
            &r,
            Color::White,
            &claim_with(vec![numbered(80, false, "5242")]),
        );
        assert!(
            matches!(
                v,
                Verdict::Moved {
                    end: Some(GameEnd {
                        termination: Termination::FiftyMoveRule,
                        ..
                    }),
                    ..
                }
            ),
            "{v:?}"
        );
    }

    /// FIDE 9.2.3: a wrong claim with a move cannot be withdrawn; the move
    /// stands and the game goes on.
    #[test]
    fn wrong_claim_with_a_move_plays_the_move_and_the_game_goes_on() {
        let mut r = game(&["5254", "5755"]);
        let v = judge(&r, Color::White, &claim_with(vec![w("7163")]));
        let Verdict::Moved {
            end, claim_refused, ..
        } = &v
        else {
            panic!("{v:?}")
        };
        assert_eq!(*end, None);
        assert_eq!(
            *claim_refused,
            Some(ClaimCounts {
                repetitions: 1,
                halfmoves: 1
            })
        );
        r.apply(&v);
        assert_eq!(r.plies().len(), 3);
        assert!(!r.is_over());
        assert_eq!(r.draw_offer, None);
    }

    /// "2. 7163 … for the rest: 1. 5254 5755" is not "different moves": the
    /// record written after the new move is accepted.
    #[test]
    fn record_written_after_the_new_move_is_accepted() {
        let r = game(&["5254", "5755"]);
        let line = vec![
            numbered(2, false, "7163"),
            numbered(1, false, "5254"),
            w("5755"),
        ];
        let v = judge(&r, Color::White, &play_line(line));
        let Verdict::Moved { ply, .. } = v else {
            panic!("{v:?}")
        };
        assert_eq!(ply.san, "Nf3");
        // Every numbered move must still agree with the game.
        let line = vec![
            numbered(2, false, "7163"),
            numbered(1, false, "5254"),
            w("5756"),
        ];
        assert!(matches!(
            judge(&r, Color::White, &play_line(line)),
            Verdict::Rejected(Rejection::EchoMismatch { .. })
        ));
    }

    #[test]
    fn partial_record_with_a_gap_is_checked_move_by_move() {
        let r = game(&["5254", "5755", "7163", "2836"]);
        let v = judge(
            &r,
            Color::White,
            &play_line(vec![numbered(1, false, "5254"), numbered(3, false, "6125")]),
        );
        assert!(matches!(v, Verdict::Moved { .. }), "{v:?}");
        // The new move missing, a later one written: out of step.
        let v = judge(
            &r,
            Color::White,
            &play_line(vec![numbered(1, false, "5254"), numbered(4, false, "6125")]),
        );
        assert!(
            matches!(v, Verdict::Rejected(Rejection::WrongMoveNumber { .. })),
            "{v:?}"
        );
    }

    #[test]
    fn record_from_fen_with_black_to_move_numbers_from_there() {
        let r = Record::new(Some(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12",
        ))
        .unwrap();
        assert_eq!(
            r.next_number(),
            MoveNumber {
                number: 12,
                black: true
            }
        );
        let v = judge(
            &r,
            Color::Black,
            &play_line(vec![numbered(12, true, "5755")]),
        );
        assert!(matches!(v, Verdict::Moved { .. }), "{v:?}");
    }
}
