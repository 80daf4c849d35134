//! A game's clock as the store keeps it, and the clocks computed from it.
//! [pure: no IO]

use shakmaty::{ByColor, Color};

use super::ClockRules;
use super::control::TimeControl;
use super::leave::Leave;
use super::state::{ClockInput, ClockState, PlyTime, clock_state};

/// What the clocks of one game are computed from, besides the leaves of its
/// players (kept by address, so shared across their games).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameClock {
    pub control: TimeControl,
    /// When the first ply's reflection began.
    pub started: i64,
    pub plies: Vec<PlyTime>,
    /// Net days of organiser rulings per seat.
    pub extra_days: ByColor<i64>,
    /// When a finished game ended (its last change): its clocks stop there.
    pub ended_at: Option<i64>,
}

impl GameClock {
    /// The input of [`clock_state`]: this clock, with `first_mover` to make
    /// the first ply and the players' `leaves`.
    pub fn input<'a>(
        &'a self,
        rules: &'a ClockRules,
        first_mover: Color,
        leaves: &'a ByColor<Vec<Leave>>,
    ) -> ClockInput<'a> {
        ClockInput {
            control: self.control,
            rules,
            started: self.started,
            first_mover,
            plies: &self.plies,
            leaves: ByColor {
                white: &leaves.white,
                black: &leaves.black,
            },
            extra_days: self.extra_days,
        }
    }

    /// Both clocks at `now` (a finished game's at the instant it ended).
    pub fn state(
        &self,
        rules: &ClockRules,
        first_mover: Color,
        leaves: &ByColor<Vec<Leave>>,
        now: i64,
    ) -> ClockState {
        clock_state(
            &self.input(rules, first_mover, leaves),
            self.ended_at.unwrap_or(now).min(now),
        )
    }

    /// The clock as a change arriving at `arrival` leaves it: `new_plies`
    /// plies played, each charged until the arrival (none free); the game's
    /// row rewritten at `changed`, if it is, which stops a finished game's
    /// clocks there; `finished` whether the game is over after.
    pub fn after(
        &self,
        new_plies: usize,
        arrival: i64,
        changed: Option<i64>,
        finished: bool,
    ) -> GameClock {
        let mut after = self.clone();
        after.plies.extend(std::iter::repeat_n(
            PlyTime {
                arrived: arrival,
                free: false,
            },
            new_plies,
        ));
        after.ended_at = match (finished, changed) {
            (false, _) => None,
            (true, Some(at)) => Some(at),
            (true, None) => self.ended_at,
        };
        after
    }
}
