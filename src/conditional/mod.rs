//! Conditional moves: "if 12... 7866 then 13. 4143", read from the
//! player's text, checked against the game, stored per game and seat, and
//! applied the moment the opponent's move arrives. [pure: no IO]
//!
//! Four stages, each a plain function the IO layer calls:
//!
//! 1. **Read** — [`parse_conditionals`] finds the condition lines in the
//!    player's own text (quotes already removed) and merges them into a tree
//!    ([`ConditionalSet`]), or finds "cancel conditionals"
//!    ([`ConditionalText::Cancel`]). Nothing about the position is known yet:
//!    a line that cannot be read, or two lines that answer the same opponent
//!    move differently, are a [`ConditionalParseError`]. The intake should hand
//!    the scan only the other lines ([`without_conditional_lines`]), so that the
//!    moves of the conditions are not read as the player's move.
//! 2. **Check** — [`validate`] replays every line from the game's position
//!    (after the player's own move in the same mail, if any) with the
//!    referee's own judgement: written move numbers must be right, every move
//!    legal, the opponent's moves the opponent's. A failure is a
//!    [`SetRejection`] naming the line and the move; the whole set is then
//!    refused and the stored one stays. Success is a [`ConditionalTree`],
//!    anchored at the opponent's next move.
//! 3. **Store** — [`ConditionalTree::to_stored`] / [`ConditionalTree::from_stored`]
//!    give a compact, versioned text (one row per game and seat); the tree is
//!    also `Serialize` for `--json`. [`ConditionalTree::lines`] renders the
//!    numbered lines for the organiser and for the player's confirmation,
//!    in the form step 1 reads back.
//! 4. **Apply** — once the opponent's move is in the record (same
//!    transaction), [`apply`] says what to do: play the prepared answer
//!    ([`Matched::command`] is the command to judge), accept the draw, or
//!    nothing; with the rest of the tree to store, or `None` to clear it. A
//!    move off the tree clears the set ([`Applied::OffTree`]).
//!
//! ## Draws at the end of a branch
//! A line may end in "offer draw" (in any language of [`parse`]'s word list):
//! the last answer is played with a draw offer, as `13. 5254 draw?` would be.
//! A line may end in "accept draw", with or without a last answer
//! (`if 30... 7866 then accept draw`, `if 30... 7866 then 31. 4143 accept
//! draw`): the rules allow accepting only an offer the opponent has made, so
//! the draw is accepted only when the opponent's matching move comes with a
//! draw offer; without one, the last answer (if written) is played, and
//! otherwise nothing is played and the set is used up (the player moves by
//! hand). A draw the opponent offers with a matching move on a branch
//! without "accept draw" is declined by the prepared answer, as moving
//! declines it by hand. A draw word may stand only at the end of a line: after an offer
//! the game goes on only if the opponent declines, which a tree of moves
//! cannot foresee, and "accept" ends the game.

mod parse;
mod stored;
#[cfg(test)]
mod tests;

pub use parse::{
    ConditionalParseError, LineError, is_conditional_line, parse_conditionals,
    without_conditional_lines,
};
pub use stored::StoredFormatError;

use std::fmt;

use serde::ser::{Serialize, SerializeStruct, Serializer};
use shakmaty::Color;

use crate::command::{Command, MoveNumber, WrittenMove};
use crate::game::{GameEnd, MoveNumberText, Record};
use crate::notation::{ColorName, IccfMove, IllegalMove};
use crate::referee::{Rejection, Verdict, judge};

/// What a branch does about a draw at its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawAction {
    /// The last answer is played with a draw offer.
    Offer,
    /// The opponent's draw offer that comes with the matching move is accepted.
    Accept,
}

/// The player's prepared reply to one opponent move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reply {
    /// The move to play; `None` only for a branch that ends in accepting a draw.
    pub mv: Option<IccfMove>,
    /// Only at the end of a branch (a node with no `then`).
    pub draw: Option<DrawAction>,
}

/// One node of the tree: if the opponent plays `opponent`, reply with `reply`,
/// then continue with `then` (the opponent's next possible moves).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    pub opponent: IccfMove,
    pub reply: Reply,
    /// In the order first written.
    pub then: Vec<Branch>,
}

/// One step of a line as written: the opponent's move and the answer, each
/// with its move number if one was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrittenStep {
    pub opponent: WrittenMove,
    /// `None` only in the last step of a line that ends in "accept draw".
    pub answer: Option<WrittenMove>,
}

/// One condition line as the player wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConditionalLine {
    /// 1-based line number in the text given to [`parse_conditionals`].
    pub line: usize,
    /// The line, trimmed and cut to a length fit to quote back.
    pub text: String,
    pub steps: Vec<WrittenStep>,
    pub draw: Option<DrawAction>,
}

/// Condition lines read from a message and merged into a tree; not yet
/// checked against the game (see [`validate`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConditionalSet {
    /// The lines as written, in order; [`validate`] reports errors by them.
    pub lines: Vec<ConditionalLine>,
    /// The lines merged: shared beginnings are one path.
    pub branches: Vec<Branch>,
}

/// What a player's text says about conditional moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConditionalText {
    /// A new set, to replace the stored one once validated.
    Set(ConditionalSet),
    /// "cancel conditionals" (in any language of the word list): clear the set.
    Cancel,
}

/// A validated set of conditional moves for one seat, anchored at the
/// opponent's next move: what is stored per game and seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConditionalTree {
    /// The player whose prepared answers these are.
    pub seat: Color,
    /// The move number of the opponent's move the tree starts with (its side
    /// is the opponent's: `black` is `seat == White`).
    pub first: MoveNumber,
    /// The opponent's possible next moves; never empty.
    pub branches: Vec<Branch>,
}

/// Why a set is refused when checked against the game. Every variant names
/// the line (1-based, as in [`ConditionalLine::line`]) and the move in
/// numeric notation, so the reply can quote them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetRejection {
    #[error("the game is over ({}, {}): conditional moves have nothing to wait for", end.result, end.termination.as_str())]
    GameOver { end: GameEnd },
    /// Conditions start with the opponent's move, so it must be the opponent's
    /// turn (after the player's own move in the same mail, if any).
    #[error("it is {}'s move: conditional moves start with your opponent's next move, so send your own move first", ColorName(*to_move))]
    NotOpponentsTurn { to_move: Color },
    #[error("line {line}: you wrote {} {mv}, but that move is {}", MoveNumberText(*given), MoveNumberText(*expected))]
    WrongMoveNumber {
        line: usize,
        expected: MoveNumber,
        given: MoveNumber,
        mv: IccfMove,
    },
    #[error("line {line}: {} {mv} ({}) is not possible: {why}", MoveNumberText(*number), if *by_opponent { "your opponent's move" } else { "your answer" })]
    Illegal {
        line: usize,
        number: MoveNumber,
        mv: IccfMove,
        /// The move is one of the opponent's (a condition), not an answer.
        by_opponent: bool,
        why: IllegalMove,
    },
    /// The referee refused the move for a reason other than legality. A
    /// single move by the side to move in a live game has no other reason
    /// today; kept so a new rule of the referee's is reported, not hidden.
    #[error("line {line}: {} {mv} ({}) is refused: {rejection}", MoveNumberText(*number), if *by_opponent { "your opponent's move" } else { "your answer" })]
    Refused {
        line: usize,
        number: MoveNumber,
        mv: IccfMove,
        by_opponent: bool,
        rejection: Rejection,
    },
    #[error("line {line}: the game ends with {} {mv} ({}), so nothing can follow it", MoveNumberText(*number), end.termination.as_str())]
    GameEnds {
        line: usize,
        number: MoveNumber,
        mv: IccfMove,
        end: GameEnd,
    },
}

/// Checks `set` against the game, for the player of `seat`, and anchors it at
/// the opponent's next move. `record` is the game after the player's own move
/// in the same mail, if any. Each line is replayed with the referee's own
/// [`judge`], so a move is refused here exactly when it would be refused if
/// sent by hand, with the same explanation.
pub fn validate(
    set: &ConditionalSet,
    record: &Record,
    seat: Color,
) -> Result<ConditionalTree, SetRejection> {
    if let Some(end) = record.end {
        return Err(SetRejection::GameOver { end });
    }
    if record.turn() == seat {
        return Err(SetRejection::NotOpponentsTurn { to_move: seat });
    }
    let here = record.ply_count();
    for line in &set.lines {
        check_line(line, record, here)?;
    }
    Ok(ConditionalTree {
        seat,
        first: record.next_number(),
        branches: set.branches.clone(),
    })
}

fn check_line(line: &ConditionalLine, record: &Record, here: usize) -> Result<(), SetRejection> {
    let written: Vec<WrittenMove> = line
        .steps
        .iter()
        .flat_map(|s| std::iter::once(s.opponent).chain(s.answer))
        .collect();
    for (k, w) in written.iter().enumerate() {
        let expected = record.number_of_ply(here + k);
        if let Some(given) = w.number
            && given != expected
        {
            return Err(SetRejection::WrongMoveNumber {
                line: line.line,
                expected,
                given,
                mv: w.mv,
            });
        }
    }
    let mut scratch = record.clone();
    for (k, w) in written.iter().enumerate() {
        let number = record.number_of_ply(here + k);
        let mover = scratch.turn();
        let by_opponent = k % 2 == 0;
        let v = judge(&scratch, mover, &Command::single(w.mv));
        if let Verdict::Rejected(rejection) = v {
            return Err(match rejection {
                Rejection::Illegal { why, .. } => SetRejection::Illegal {
                    line: line.line,
                    number,
                    mv: w.mv,
                    by_opponent,
                    why,
                },
                rejection => SetRejection::Refused {
                    line: line.line,
                    number,
                    mv: w.mv,
                    by_opponent,
                    rejection,
                },
            });
        }
        if let Verdict::Moved { end: Some(end), .. } = v
            && k + 1 < written.len()
        {
            return Err(SetRejection::GameEnds {
                line: line.line,
                number,
                mv: w.mv,
                end,
            });
        }
        scratch.apply(&v);
    }
    Ok(())
}

/// What the prepared reply does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Play `mv` now (with a draw offer if `offer_draw`).
    Play { mv: IccfMove, offer_draw: bool },
    /// Accept the opponent's draw offer: the game ends drawn.
    AcceptDraw,
    /// The branch prepared only an acceptance and no offer came: nothing is
    /// played; the player moves by hand.
    Nothing,
}

/// The opponent's move matched a branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matched {
    /// The opponent's move that matched.
    pub opponent: IccfMove,
    /// The number the answer carries (the ply after the opponent's move).
    pub number: MoveNumber,
    pub action: Action,
    /// What stays stored; `None` clears the set.
    pub remaining: Option<ConditionalTree>,
}

impl Matched {
    /// The command to judge for the player's seat in the same transaction, or
    /// `None` for [`Action::Nothing`].
    pub fn command(&self) -> Option<Command> {
        match self.action {
            Action::Play { mv, offer_draw } => Some(Command::Play {
                line: vec![WrittenMove {
                    number: Some(self.number),
                    mv,
                }],
                offer_draw,
                claim_draw: false,
            }),
            Action::AcceptDraw => Some(Command::AcceptDraw),
            Action::Nothing => None,
        }
    }
}

/// What the stored tree says once the opponent's move is recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    Matched(Matched),
    /// The opponent's move is on no branch: the set is cleared and the player
    /// told.
    OffTree {
        opponent: IccfMove,
    },
    /// The record is not where the tree expects it (the game was changed by
    /// hand, or the tree is not this game's): clear the set. Never happens in
    /// ordinary play.
    Stale,
}

/// Looks the opponent's move up in `tree`. `record` is the game *after* the
/// opponent's move (its last ply); a draw offer made with that move is
/// `record.draw_offer`. The answer is checked for legality once more, so a
/// tree that no longer fits the game is never played ([`Applied::Stale`]).
pub fn apply(tree: &ConditionalTree, record: &Record) -> Applied {
    let anchored = record.ply_of_number(tree.first);
    let Some(last) = record.last_ply() else {
        return Applied::Stale;
    };
    if anchored != Some(record.ply_count() - 1) || record.turn() != tree.seat {
        return Applied::Stale;
    }
    if record.is_over() {
        return Applied::OffTree {
            opponent: last.iccf,
        };
    }
    let Some(branch) = tree.branches.iter().find(|b| b.opponent == last.iccf) else {
        return Applied::OffTree {
            opponent: last.iccf,
        };
    };
    let number = record.next_number();
    let offered = record.draw_offer == Some(!tree.seat);
    let action = match (branch.reply.draw, branch.reply.mv) {
        (Some(DrawAction::Accept), _) if offered => Action::AcceptDraw,
        (Some(DrawAction::Accept), None) => Action::Nothing,
        (draw, Some(mv)) => {
            if mv.to_move(record.position()).is_err() {
                return Applied::Stale;
            }
            Action::Play {
                mv,
                offer_draw: draw == Some(DrawAction::Offer),
            }
        }
        (_, None) => Action::Nothing,
    };
    let remaining = match action {
        Action::Play { .. } if !branch.then.is_empty() => Some(ConditionalTree {
            seat: tree.seat,
            first: record.number_of_ply(record.ply_count() + 1),
            branches: branch.then.clone(),
        }),
        _ => None,
    };
    Applied::Matched(Matched {
        opponent: last.iccf,
        number,
        action,
        remaining,
    })
}

/// One root-to-leaf line of a tree, numbered, for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedLine {
    /// (opponent's number and move, answer's number and move)
    pub steps: Vec<RenderedStep>,
    pub draw: Option<DrawAction>,
}

/// One step of a rendered line: the opponent's move and the prepared answer,
/// each with its move number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderedStep {
    pub opponent: (MoveNumber, IccfMove),
    /// `None` only in the last step of a line ending in "accept draw".
    pub answer: Option<(MoveNumber, IccfMove)>,
}

/// The canonical English form, which [`parse_conditionals`] reads back:
/// `if 12... 7866 then 13. 4143 if 13... 2836 then 14. 1214 offer draw`.
impl fmt::Display for RenderedLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.steps.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(
                f,
                "if {} {} then",
                MoveNumberText(s.opponent.0),
                s.opponent.1
            )?;
            if let Some((n, mv)) = s.answer {
                write!(f, " {} {mv}", MoveNumberText(n))?;
            }
        }
        match self.draw {
            Some(DrawAction::Offer) => f.write_str(" offer draw"),
            Some(DrawAction::Accept) => f.write_str(" accept draw"),
            None => Ok(()),
        }
    }
}

/// The move number `plies` half-moves after `n`.
fn advance(n: MoveNumber, plies: usize) -> MoveNumber {
    let k = u64::from(n.number) * 2 + u64::from(n.black) + plies as u64;
    MoveNumber {
        number: u32::try_from(k / 2).unwrap_or(u32::MAX),
        black: k % 2 == 1,
    }
}

impl ConditionalTree {
    /// Every line from the root to a leaf, in the order written, with move
    /// numbers: what the organiser's `game show --conditionals` and the
    /// player's confirmation ("what remains of your set") list.
    pub fn lines(&self) -> Vec<RenderedLine> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        walk(&self.branches, self.first, &mut path, &mut out);
        out
    }
}

fn walk(
    branches: &[Branch],
    number: MoveNumber,
    path: &mut Vec<RenderedStep>,
    out: &mut Vec<RenderedLine>,
) {
    for b in branches {
        path.push(RenderedStep {
            opponent: (number, b.opponent),
            answer: b.reply.mv.map(|mv| (advance(number, 1), mv)),
        });
        if b.then.is_empty() {
            out.push(RenderedLine {
                steps: path.clone(),
                draw: b.reply.draw,
            });
        } else {
            walk(&b.then, advance(number, 2), path, out);
        }
        path.pop();
    }
}

fn draw_name(d: DrawAction) -> &'static str {
    match d {
        DrawAction::Offer => "offer",
        DrawAction::Accept => "accept",
    }
}

/// `--json`: moves as their ICCF digits, the seat as `white`/`black`.
impl Serialize for ConditionalTree {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("ConditionalTree", 5)?;
        st.serialize_field("version", &stored::VERSION)?;
        st.serialize_field(
            "seat",
            match self.seat {
                Color::White => "white",
                Color::Black => "black",
            },
        )?;
        st.serialize_field("first_move_number", &self.first.number)?;
        st.serialize_field(
            "lines",
            &self
                .lines()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
        )?;
        st.serialize_field("branches", &self.branches)?;
        st.end()
    }
}

impl Serialize for Branch {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Branch", 4)?;
        st.serialize_field("opponent", &self.opponent.to_string())?;
        st.serialize_field("answer", &self.reply.mv.map(|m| m.to_string()))?;
        st.serialize_field("draw", &self.reply.draw.map(draw_name))?;
        st.serialize_field("then", &self.then)?;
        st.end()
    }
}
