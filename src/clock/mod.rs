//! Day clocks of correspondence chess as ICCF keeps them: time controls,
//! the days charged per move, leave, reminders, low-time warnings and time
//! forfeits. [pure: no IO — instants are `i64` Unix seconds (UTC) passed in]
//!
//! # The rules
//! - Time is counted in whole 24-hour days of *reflection*: from the arrival
//!   of the move a player answers (the game start for the first ply) to the
//!   arrival of their answer, less the days of their leave in between. A move
//!   made within 24 hours costs nothing; the first `double_after_days` (20)
//!   whole days count once and each one beyond twice: 23 days and some hours
//!   cost 26 ([`charge_days`]).
//! - Controls ([`TimeControl`]): `10/50` (10 moves in 50 days, repeating,
//!   unused time carried forward), `30+3` (30 days plus 3 per move made),
//!   `none`. A flag falls when the days charged exceed what the control
//!   allows by the move being thought on.
//! - Leave ([`Leave`]): whole UTC days, both ends included, at most
//!   `leave_days_per_year` (45) per calendar year, counted in each year a leave
//!   touches; decided by [`decide_leave`], cancelled by [`cancel_leave`], read
//!   from a player's line by [`parse_leave_line`].
//!
//! # Wiring it (what the IO side does)
//! - Store per game: the [`TimeControl`] (its `Display` text; existing games
//!   `none`), the start instant, each ply's arrival and whether it was free;
//!   per player: their [`Leave`]s; per game and seat: extra days of rulings;
//!   per game: the [`DeadlineKey`]s done (unique with the game id).
//! - Build a [`ClockInput`] and call [`clock_state`] with `now` for every reply
//!   (both [`PlayerClock`]s: "White: 37 days left for moves 11–20" is
//!   `days_left`, `next_move`, `control_move`) and for `game show`.
//! - Before playing an arriving move, call [`clock_state`] with the move's
//!   arrival as `now`: a [`FlagFall`] means the time ran out first; decide
//!   the game with [`time_forfeit`] on the position at `flag.ply`.
//! - The daemon calls [`deadlines`] for each unfinished game, acts once on
//!   each key not yet done whose `at <= now` (reminder, warning, or forfeit),
//!   in the same transaction as its outbox rows, and sleeps until the
//!   earliest `at` in the future. Adding a leave or a move changes the
//!   instants; the keys stay stable.

mod charge;
mod control;
mod date;
mod forfeit;
mod leave;
mod leave_text;
mod state;
mod stored;
#[cfg(test)]
mod tests;

pub use charge::{LeaveSpans, charge_days, reflection_for_charge};
pub use control::{ControlError, ControlPart, MAX_CONTROL_NUMBER, TimeControl};
pub use date::{DAY_SECS, Date, DateError};
pub use forfeit::{TimeForfeit, time_forfeit};
pub use leave::{
    Leave, LeaveCancel, LeaveDecision, LeaveRefusal, cancel_leave, decide_leave, leave_days_left,
    leave_days_taken,
};
pub use leave_text::{LeaveRequest, LeaveTextProblem, parse_leave_line};
pub use state::{
    ClockInput, ClockState, Deadline, DeadlineKey, DeadlineKind, FlagFall, PlayerClock, PlyTime,
    clock_state, deadlines,
};
pub use stored::GameClock;

/// The clock rules of a club: the `[clock]` table of the configuration, less
/// the default control. `Default` is ICCF's: 20, 45, reminders at 14 and 28
/// days, a warning at 5 days left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockRules {
    /// Whole days on one move beyond this count twice.
    pub double_after_days: u32,
    /// Days of leave each player may take per calendar year.
    pub leave_days_per_year: u32,
    /// A reminder after each of these many days without an answer (leave not
    /// counted).
    pub reminder_after_days: Vec<u32>,
    /// Warn a player once their clock shows this many days or fewer.
    pub warn_days_left: u32,
}

impl Default for ClockRules {
    fn default() -> ClockRules {
        ClockRules {
            double_after_days: 20,
            leave_days_per_year: 45,
            reminder_after_days: vec![14, 28],
            warn_days_left: 5,
        }
    }
}
