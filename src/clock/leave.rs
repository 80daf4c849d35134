//! Leave: a player's periods without a running clock, the yearly allowance,
//! and the decisions on a request to take or cancel one. [pure: no IO]
//!
//! A leave is a whole number of UTC calendar days, both ends included. It
//! belongs to the player, not to a game: it stops the clock in all their games.
//! A refusal is a value ([`LeaveDecision::Refused`]) that becomes a reply,
//! never an `Err`.

use super::ClockRules;
use super::date::{DAY_SECS, Date};

/// One leave period, `from` to `to`, both days included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Leave {
    pub from: Date,
    pub to: Date,
}

impl Leave {
    /// Days of leave (0 if it ends before it starts).
    pub fn days(&self) -> u32 {
        u32::try_from(self.from.days_until(self.to) + 1).unwrap_or(0)
    }

    /// Days of this leave that fall in the calendar `year`.
    pub fn days_in_year(&self, year: i32) -> u32 {
        let (Some(first), Some(next)) = (Date::first_of_year(year), Date::first_of_year(year + 1))
        else {
            return 0;
        };
        let from = self.from.max(first);
        let to = self.to.min(next.add_days(-1));
        Leave { from, to }.days()
    }

    /// Whether the day `date` is a day of this leave.
    pub fn contains(&self, date: Date) -> bool {
        self.from <= date && date <= self.to
    }

    /// Whether the two leaves share a day.
    pub fn overlaps(&self, other: &Leave) -> bool {
        self.from <= other.to && other.from <= self.to
    }

    /// The leave as a half-open span of Unix seconds: from 00:00 UTC of the
    /// first day to 00:00 UTC after the last.
    pub fn span(&self) -> (i64, i64) {
        (self.from.start(), self.to.start() + DAY_SECS)
    }
}

/// Days of leave in `leaves` that fall in the calendar `year`.
pub fn leave_days_taken(leaves: &[Leave], year: i32) -> u32 {
    leaves.iter().map(|l| l.days_in_year(year)).sum()
}

/// Days of the allowance left in the calendar `year` after `leaves`.
pub fn leave_days_left(leaves: &[Leave], year: i32, rules: &ClockRules) -> u32 {
    rules
        .leave_days_per_year
        .saturating_sub(leave_days_taken(leaves, year))
}

/// The answer to a request for leave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeaveDecision {
    /// Take it: store the leave and tell the opponents.
    Granted(Leave),
    /// Refuse it, and say why.
    Refused(LeaveRefusal),
}

/// Why a leave is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeaveRefusal {
    /// The last day is before the first.
    EndsBeforeStart { from: Date, to: Date },
    /// The first day is before today: leave cannot be taken back in time.
    StartsInThePast { from: Date, today: Date },
    /// It shares days with a leave already taken.
    Overlaps { existing: Leave },
    /// It would take more days in `year` than the allowance; `remaining` is
    /// what is left of that year's allowance, `asked` what the request needs
    /// in that year.
    ExceedsAllowance {
        year: i32,
        asked: u32,
        remaining: u32,
        allowance: u32,
    },
}

/// Decides a request for leave from `request.from` to `request.to` by a
/// player whose leaves so far are `existing`, on the UTC day `today`.
///
/// Checked in this order: the dates are the right way round, it does not start
/// before today (starting today is fine), it does not overlap a leave already
/// taken, and in every calendar year it touches it stays within
/// `rules.leave_days_per_year` (a leave from 20 December to 3 January takes 12
/// days of one year and 3 of the next).
pub fn decide_leave(
    request: Leave,
    existing: &[Leave],
    today: Date,
    rules: &ClockRules,
) -> LeaveDecision {
    let refuse = LeaveDecision::Refused;
    if request.to < request.from {
        return refuse(LeaveRefusal::EndsBeforeStart {
            from: request.from,
            to: request.to,
        });
    }
    if request.from < today {
        return refuse(LeaveRefusal::StartsInThePast {
            from: request.from,
            today,
        });
    }
    if let Some(existing) = existing.iter().filter(|l| l.overlaps(&request)).min() {
        return refuse(LeaveRefusal::Overlaps {
            existing: *existing,
        });
    }
    for year in request.from.year()..=request.to.year() {
        let asked = request.days_in_year(year);
        let remaining = leave_days_left(existing, year, rules);
        if asked > remaining {
            return refuse(LeaveRefusal::ExceedsAllowance {
                year,
                asked,
                remaining,
                allowance: rules.leave_days_per_year,
            });
        }
    }
    LeaveDecision::Granted(request)
}

/// What "cancel leave" does to a player's leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeaveCancel {
    /// The leave has not begun (or begins today): delete it.
    Remove(Leave),
    /// The leave is under way: it ends yesterday instead, so the days already
    /// taken stay taken and the clock runs again from today.
    EndEarly { leave: Leave, new_to: Date },
    /// There is no current or coming leave to cancel (or none starting on the
    /// day named).
    NothingToCancel,
}

/// Decides "cancel leave" on the UTC day `today`. With `from`, the leave that
/// starts on that day (or is under way on it); without, the leave under way
/// today, else the next one to come. Past leaves are never touched.
pub fn cancel_leave(existing: &[Leave], from: Option<Date>, today: Date) -> LeaveCancel {
    let live = existing.iter().filter(|l| l.to >= today);
    let target = match from {
        Some(day) => live
            .filter(|l| l.from == day || l.contains(day))
            .min()
            .copied(),
        None => live.min().copied(),
    };
    match target {
        None => LeaveCancel::NothingToCancel,
        Some(leave) if leave.from >= today => LeaveCancel::Remove(leave),
        Some(leave) => LeaveCancel::EndEarly {
            leave,
            new_to: today.add_days(-1),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Date {
        s.parse().unwrap()
    }

    fn leave(from: &str, to: &str) -> Leave {
        Leave {
            from: d(from),
            to: d(to),
        }
    }

    #[test]
    fn leave_across_new_year_counts_in_each_year() {
        let l = leave("2026-12-20", "2027-01-03");
        assert_eq!(l.days(), 15);
        assert_eq!(l.days_in_year(2026), 12);
        assert_eq!(l.days_in_year(2027), 3);
        assert_eq!(l.days_in_year(2028), 0);
        let rules = ClockRules::default();
        assert_eq!(leave_days_left(&[l], 2026, &rules), 33);
        assert_eq!(leave_days_left(&[l], 2027, &rules), 42);
    }

    #[test]
    fn leave_past_45_days_in_a_year_is_refused_with_the_days_remaining() {
        let rules = ClockRules::default();
        let taken = [leave("2027-02-01", "2027-03-12")]; // 40 days
        let today = d("2027-01-15");
        assert_eq!(
            decide_leave(leave("2027-06-01", "2027-06-06"), &taken, today, &rules),
            LeaveDecision::Refused(LeaveRefusal::ExceedsAllowance {
                year: 2027,
                asked: 6,
                remaining: 5,
                allowance: 45
            })
        );
        let five = leave("2027-06-01", "2027-06-05");
        assert_eq!(
            decide_leave(five, &taken, today, &rules),
            LeaveDecision::Granted(five)
        );
    }

    #[test]
    fn leave_across_new_year_is_refused_for_the_year_it_exceeds() {
        let rules = ClockRules::default();
        let taken = [leave("2027-01-10", "2027-02-22")]; // 44 days of 2027
        let today = d("2026-12-01");
        assert_eq!(
            decide_leave(leave("2026-12-28", "2027-01-02"), &taken, today, &rules),
            LeaveDecision::Refused(LeaveRefusal::ExceedsAllowance {
                year: 2027,
                asked: 2,
                remaining: 1,
                allowance: 45
            })
        );
        let ok = leave("2026-12-28", "2027-01-01");
        assert_eq!(
            decide_leave(ok, &taken, today, &rules),
            LeaveDecision::Granted(ok)
        );
    }

    #[test]
    fn overlapping_leave_is_refused_naming_the_leave_it_meets() {
        let rules = ClockRules::default();
        let taken = [leave("2027-03-01", "2027-03-10")];
        assert_eq!(
            decide_leave(
                leave("2027-03-10", "2027-03-12"),
                &taken,
                d("2027-01-01"),
                &rules
            ),
            LeaveDecision::Refused(LeaveRefusal::Overlaps { existing: taken[0] })
        );
        let next_day = leave("2027-03-11", "2027-03-12");
        assert_eq!(
            decide_leave(next_day, &taken, d("2027-01-01"), &rules),
            LeaveDecision::Granted(next_day)
        );
    }

    #[test]
    fn leave_ending_before_it_starts_or_starting_yesterday_is_refused() {
        let rules = ClockRules::default();
        assert_eq!(
            decide_leave(
                leave("2027-03-10", "2027-03-01"),
                &[],
                d("2027-01-01"),
                &rules
            ),
            LeaveDecision::Refused(LeaveRefusal::EndsBeforeStart {
                from: d("2027-03-10"),
                to: d("2027-03-01")
            })
        );
        assert_eq!(
            decide_leave(
                leave("2027-03-09", "2027-03-12"),
                &[],
                d("2027-03-10"),
                &rules
            ),
            LeaveDecision::Refused(LeaveRefusal::StartsInThePast {
                from: d("2027-03-09"),
                today: d("2027-03-10")
            })
        );
        let today = leave("2027-03-10", "2027-03-12");
        assert_eq!(
            decide_leave(today, &[], d("2027-03-10"), &rules),
            LeaveDecision::Granted(today)
        );
    }

    #[test]
    fn cancel_removes_a_coming_leave_and_ends_a_running_one_yesterday() {
        let past = leave("2027-01-01", "2027-01-05");
        let running = leave("2027-03-01", "2027-03-10");
        let coming = leave("2027-05-01", "2027-05-03");
        let all = [past, running, coming];
        assert_eq!(
            cancel_leave(&all, None, d("2027-03-04")),
            LeaveCancel::EndEarly {
                leave: running,
                new_to: d("2027-03-03")
            }
        );
        assert_eq!(
            cancel_leave(&all, None, d("2027-03-11")),
            LeaveCancel::Remove(coming)
        );
        assert_eq!(
            cancel_leave(&all, Some(d("2027-05-01")), d("2027-03-04")),
            LeaveCancel::Remove(coming)
        );
        assert_eq!(
            cancel_leave(&all, Some(d("2027-01-01")), d("2027-03-04")),
            LeaveCancel::NothingToCancel
        );
        assert_eq!(
            cancel_leave(&all, None, d("2027-05-04")),
            LeaveCancel::NothingToCancel
        );
        assert_eq!(
            cancel_leave(&all, None, d("2027-03-01")),
            LeaveCancel::Remove(running)
        );
    }
}
