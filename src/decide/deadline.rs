//! Which of a game's deadline actions are due at an instant: a time
//! forfeit, or reminders and low-time warnings. [pure: no IO]
//!
//! The daemon's pass over the deadlines (`deadlines`) takes all that is
//! due; a message's plan takes a time forfeit that fell before the message
//! arrived ([`Scope::Forfeit`]).

use shakmaty::{ByColor, Color};

use crate::clock::{
    self, ClockRules, ClockState, Deadline, DeadlineKey, DeadlineKind, GameClock, Leave,
    TimeForfeit, clock_state, deadlines,
};
use crate::game::{GameEnd, GameResult, Record, Termination};

/// Which deadline actions to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Everything due: the daemon's pass.
    All,
    /// Only a forfeit: a move arriving after the flag fell finds the game
    /// already lost, but no reminder is sent as the answer arrives.
    Forfeit,
}

/// A timed game as its deadlines are computed from it.
#[derive(Debug, Clone, Copy)]
pub struct Clocked<'a> {
    pub record: &'a Record,
    pub clock: &'a GameClock,
    /// Both players' leaves.
    pub leaves: &'a ByColor<Vec<Leave>>,
    /// The keys of the deadline actions already taken.
    pub done: &'a [String],
}

impl Clocked<'_> {
    fn first_mover(&self) -> Color {
        shakmaty::Position::turn(self.record.start())
    }

    /// The deadlines not yet acted on, earliest first, past ones included;
    /// none for a finished game or one without a control.
    pub fn pending(&self, rules: &ClockRules) -> Vec<Deadline> {
        if self.record.is_over() || !self.clock.control.is_limited() {
            return Vec::new();
        }
        let input = self.clock.input(rules, self.first_mover(), self.leaves);
        deadlines(&input)
            .into_iter()
            .filter(|d| !self.done.contains(&d.key.to_string()))
            .collect()
    }
}

/// A time forfeit: the flag fell, and the game ends.
#[derive(Debug, Clone)]
pub struct Forfeit {
    /// The deadline's key, recorded done.
    pub key: DeadlineKey,
    pub end: GameEnd,
    /// The game's record, ended (and any draw offer gone).
    pub after: Record,
}

/// A mail a deadline sends the player on move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Warning {
    /// No answer after this many days.
    Reminder { side: Color, after_days: u32 },
    /// Few days left on the clock.
    LowTime { side: Color, days_left: u32 },
}

/// What is due in a game at an instant.
#[derive(Debug, Clone, Default)]
pub struct Due {
    /// A flag that fell: the game ends, and nothing else is done.
    pub forfeit: Option<Forfeit>,
    /// Without a forfeit, under [`Scope::All`]: each deadline due, in
    /// order, with the mail it sends; an earlier reminder after an outage
    /// sends none (only the latest one is sent), but is recorded done.
    pub warnings: Vec<(Deadline, Option<Warning>)>,
    /// Both clocks at the instant, which the warnings show.
    pub state: Option<ClockState>,
    /// The earliest deadline still ahead, if any (none after a forfeit).
    pub next_at: Option<i64>,
}

/// The deadline actions of `game` due at `now`, within `scope`.
pub fn due(game: &Clocked<'_>, rules: &ClockRules, now: i64, scope: Scope) -> Due {
    let pending = game.pending(rules);
    let mut due = Due {
        next_at: pending.iter().filter(|d| d.at > now).map(|d| d.at).min(),
        ..Due::default()
    };
    let now_due: Vec<&Deadline> = pending.iter().filter(|d| d.at <= now).collect();
    if let Some(f) = now_due.iter().find(|d| d.key.kind == DeadlineKind::Forfeit) {
        due.forfeit = Some(forfeit(game, rules, f));
        due.next_at = None;
    } else if scope == Scope::All && !now_due.is_empty() {
        let input = game.clock.input(rules, game.first_mover(), game.leaves);
        let state = clock_state(&input, now);
        // After an outage several may be due: only the latest reminder is
        // sent.
        let latest_reminder = now_due
            .iter()
            .filter_map(|d| match d.key.kind {
                DeadlineKind::Reminder { after_days } => Some(after_days),
                _ => None,
            })
            .max();
        due.warnings = now_due
            .iter()
            .map(|&&d| {
                let warning = match d.key.kind {
                    DeadlineKind::Reminder { after_days }
                        if Some(after_days) == latest_reminder =>
                    {
                        Some(Warning::Reminder {
                            side: d.side,
                            after_days,
                        })
                    }
                    DeadlineKind::LowTime => Some(Warning::LowTime {
                        side: d.side,
                        days_left: state.clocks[d.side].days_left.unwrap_or(0),
                    }),
                    DeadlineKind::Reminder { .. } | DeadlineKind::Forfeit => None,
                };
                (d, warning)
            })
            .collect();
        due.state = Some(state);
    }
    due
}

/// The forfeit of the deadline `f`: decided on the position in which the
/// flag fell (a move recorded after it does not count).
fn forfeit(game: &Clocked<'_>, rules: &ClockRules, f: &Deadline) -> Forfeit {
    let input = game.clock.input(rules, game.first_mover(), game.leaves);
    let state = clock_state(&input, f.at);
    let record = game.record;
    let ply = state.flag.map_or(input.plies.len(), |fl| fl.ply);
    let pos = record
        .position_after(ply)
        .unwrap_or_else(|| record.position().clone());
    let result = match clock::time_forfeit(&pos, f.side) {
        TimeForfeit::Drawn => GameResult::Draw,
        TimeForfeit::Lost {
            loser: Color::White,
        } => GameResult::BlackWins,
        TimeForfeit::Lost {
            loser: Color::Black,
        } => GameResult::WhiteWins,
    };
    let end = GameEnd {
        result,
        termination: Termination::TimeForfeit,
    };
    let mut after = record.clone();
    after.end = Some(end);
    after.draw_offer = None;
    Forfeit {
        key: f.key,
        end,
        after,
    }
}
