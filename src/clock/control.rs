//! Time controls of correspondence chess, counted in days: `10/50`, `30+3`,
//! `none`; what each allows by a given move. [pure: no IO]

use std::fmt;
use std::str::FromStr;

/// The largest number of moves or days a control may name; keeps every sum of
/// days far inside `i64` and catches typing slips such as `10/5000`.
pub const MAX_CONTROL_NUMBER: u32 = 9999;

/// A game's time control.
///
/// `Display` and `FromStr` use the forms an organiser types and a PGN
/// `TimeControl` tag can carry: `10/50`, `30+3`, `none`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TimeControl {
    /// No clock: days are still counted, nothing is ever forfeited.
    #[default]
    None,
    /// `moves/days`: `moves` moves in `days` days, repeating; unused time
    /// carries forward (with `10/50`, move 20 must be made within 100 days in
    /// all, less what was charged).
    Moves { moves: u32, days: u32 },
    /// `base+increment`: `base_days` at the start, and `increment_days` more
    /// after every move the player makes.
    Increment { base_days: u32, increment_days: u32 },
}

/// Which number of a control a [`ControlError`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControlPart {
    Moves,
    Days,
    BaseDays,
    IncrementDays,
}

impl fmt::Display for ControlPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ControlPart::Moves => "the number of moves",
            ControlPart::Days => "the number of days",
            ControlPart::BaseDays => "the base days",
            ControlPart::IncrementDays => "the days added per move",
        })
    }
}

/// Why a text is not a time control.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ControlError {
    #[error("no time control given: write 10/50, 30+3 or none")]
    Empty,
    #[error(
        "`{0}` is not a time control: write 10/50 (moves/days), 30+3 (days + days per move) or none"
    )]
    Unknown(String),
    #[error("`{text}`: {part} is not a whole number")]
    NotANumber { text: String, part: ControlPart },
    #[error("`{text}`: {part} must be at least 1")]
    Zero { text: String, part: ControlPart },
    #[error("`{text}`: {part} may be at most {MAX_CONTROL_NUMBER}")]
    TooLarge { text: String, part: ControlPart },
}

impl TimeControl {
    /// Total days a player may have been charged, from the start of the game,
    /// once they have made their move number `move_number` (1-based, counting
    /// only that player's moves in this game). `None` for no control.
    ///
    /// `10/50`: 50 for moves 1–10, 100 for 11–20, …; `30+3`: 30 for move 1,
    /// 33 for move 2, … (the increment is earned by the moves already made).
    pub fn allowance(self, move_number: u32) -> Option<i64> {
        let m = i64::from(move_number.max(1));
        match self {
            TimeControl::None => None,
            TimeControl::Moves { moves, days } => {
                let period = (m + i64::from(moves) - 1) / i64::from(moves);
                Some(period * i64::from(days))
            }
            TimeControl::Increment {
                base_days,
                increment_days,
            } => Some(i64::from(base_days) + (m - 1) * i64::from(increment_days)),
        }
    }

    /// The move by which the control that covers `move_number` must be
    /// reached: 20 for moves 11–20 of `10/50`. `None` when there is no such
    /// move (increment or no control).
    pub fn control_move(self, move_number: u32) -> Option<u32> {
        match self {
            TimeControl::Moves { moves, .. } => {
                let m = move_number.max(1);
                Some(m.div_ceil(moves) * moves)
            }
            TimeControl::None | TimeControl::Increment { .. } => None,
        }
    }

    /// Whether any time can run out under this control.
    pub fn is_limited(self) -> bool {
        !matches!(self, TimeControl::None)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::None => f.write_str("none"),
            TimeControl::Moves { moves, days } => write!(f, "{moves}/{days}"),
            TimeControl::Increment {
                base_days,
                increment_days,
            } => write!(f, "{base_days}+{increment_days}"),
        }
    }
}

impl FromStr for TimeControl {
    type Err = ControlError;

    fn from_str(s: &str) -> Result<TimeControl, ControlError> {
        let text = s.trim();
        if text.is_empty() {
            return Err(ControlError::Empty);
        }
        if text.eq_ignore_ascii_case("none") {
            return Ok(TimeControl::None);
        }
        let number = |p: &str, part: ControlPart, min: u32| -> Result<u32, ControlError> {
            let p = p.trim();
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ControlError::NotANumber {
                    text: text.to_owned(),
                    part,
                });
            }
            let n: u64 = p.parse().unwrap_or(u64::MAX);
            if n > u64::from(MAX_CONTROL_NUMBER) {
                return Err(ControlError::TooLarge {
                    text: text.to_owned(),
                    part,
                });
            }
            // Bounded by MAX_CONTROL_NUMBER just above.
            let n = n as u32;
            if n < min {
                return Err(ControlError::Zero {
                    text: text.to_owned(),
                    part,
                });
            }
            Ok(n)
        };
        if let Some((m, d)) = text.split_once('/') {
            Ok(TimeControl::Moves {
                moves: number(m, ControlPart::Moves, 1)?,
                days: number(d, ControlPart::Days, 1)?,
            })
        } else if let Some((b, i)) = text.split_once('+') {
            Ok(TimeControl::Increment {
                base_days: number(b, ControlPart::BaseDays, 1)?,
                increment_days: number(i, ControlPart::IncrementDays, 0)?,
            })
        } else {
            Err(ControlError::Unknown(text.to_owned()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_three_forms_parse_and_print_back() {
        for text in ["10/50", "30+3", "none", "1/1", "30+0"] {
            let c: TimeControl = text.parse().unwrap();
            assert_eq!(c.to_string(), text);
        }
        assert_eq!(" NONE ".parse(), Ok(TimeControl::None));
        assert_eq!(
            "10 / 50".parse(),
            Ok(TimeControl::Moves {
                moves: 10,
                days: 50
            })
        );
    }

    #[test]
    fn bad_controls_say_which_number_is_wrong() {
        let t = |s: &str| s.parse::<TimeControl>().unwrap_err();
        assert_eq!(t(""), ControlError::Empty);
        assert_eq!(t("fast"), ControlError::Unknown("fast".into()));
        assert_eq!(
            t("0/50"),
            ControlError::Zero {
                text: "0/50".into(),
                part: ControlPart::Moves
            }
        );
        assert_eq!(
            t("10/x"),
            ControlError::NotANumber {
                text: "10/x".into(),
                part: ControlPart::Days
            }
        );
        assert_eq!(
            t("0+3"),
            ControlError::Zero {
                text: "0+3".into(),
                part: ControlPart::BaseDays
            }
        );
        assert_eq!(
            t("30+-3"),
            ControlError::NotANumber {
                text: "30+-3".into(),
                part: ControlPart::IncrementDays
            }
        );
        assert_eq!(
            t("10/99999999999999999999"),
            ControlError::TooLarge {
                text: "10/99999999999999999999".into(),
                part: ControlPart::Days
            }
        );
    }

    #[test]
    fn moves_control_repeats_and_names_its_control_move() {
        let c = TimeControl::Moves {
            moves: 10,
            days: 50,
        };
        assert_eq!(c.allowance(1), Some(50));
        assert_eq!(c.allowance(10), Some(50));
        assert_eq!(c.allowance(11), Some(100));
        assert_eq!(c.allowance(30), Some(150));
        assert_eq!(c.control_move(1), Some(10));
        assert_eq!(c.control_move(11), Some(20));
        assert_eq!(c.control_move(20), Some(20));
    }

    #[test]
    fn increment_control_earns_its_days_by_moves_made() {
        let c = TimeControl::Increment {
            base_days: 30,
            increment_days: 3,
        };
        assert_eq!(c.allowance(1), Some(30));
        assert_eq!(c.allowance(2), Some(33));
        assert_eq!(c.allowance(11), Some(60));
        assert_eq!(c.control_move(5), None);
        assert_eq!(TimeControl::None.allowance(5), None);
    }

    proptest! {
        #[test]
        fn allowance_never_shrinks_with_later_moves(
            moves in 1u32..100, days in 1u32..200, m in 1u32..500,
        ) {
            let c = TimeControl::Moves { moves, days };
            prop_assert!(c.allowance(m + 1) >= c.allowance(m));
            let i = TimeControl::Increment { base_days: days, increment_days: moves };
            prop_assert!(i.allowance(m + 1) >= i.allowance(m));
        }
    }
}
