//! The day arithmetic of one move: reflection time with leave taken out, the
//! whole days it is charged, and the way back from a charge to an instant.
//! [pure: no IO]

use super::date::DAY_SECS;
use super::leave::Leave;

/// Days charged for `reflection_secs` of reflection (leave already taken out).
///
/// Only whole 24-hour periods count, so a move answered within 24 hours costs
/// nothing; the first `double_after_days` whole days count once and every whole
/// day beyond them twice. With the ICCF default of 20, a move answered after 23
/// days and some hours costs 20 + 2 × 3 = 26 days. Negative input counts as 0.
pub fn charge_days(reflection_secs: i64, double_after_days: u32) -> u32 {
    let whole = reflection_secs.max(0) / DAY_SECS;
    let cap = i64::from(double_after_days);
    let charged = if whole <= cap { whole } else { 2 * whole - cap };
    u32::try_from(charged).unwrap_or(u32::MAX)
}

/// The least reflection, in seconds, whose charge is at least `days`
/// (0 when `days` ≤ 0). The inverse of [`charge_days`] used for deadlines:
/// beyond the doubling threshold the charge rises two at a time, so the first
/// charge reaching `days` may be `days + 1`.
pub fn reflection_for_charge(days: i64, double_after_days: u32) -> i64 {
    if days <= 0 {
        return 0;
    }
    let cap = i64::from(double_after_days);
    let whole = if days <= cap {
        days
    } else {
        // Least w with 2w - cap >= days.
        (days + cap + 1) / 2
    };
    whole * DAY_SECS
}

/// A player's leave as half-open spans of Unix seconds, sorted and merged, so
/// time arithmetic need not care how the leaves were entered.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LeaveSpans(Vec<(i64, i64)>);

impl LeaveSpans {
    /// The spans of `leaves` (a leave covers its first day from 00:00 UTC to
    /// the end of its last day). Leaves that end before they start are ignored.
    pub fn new(leaves: &[Leave]) -> LeaveSpans {
        let mut spans: Vec<(i64, i64)> = leaves
            .iter()
            .filter(|l| l.to >= l.from)
            .map(|l| l.span())
            .collect();
        spans.sort_unstable();
        let mut merged: Vec<(i64, i64)> = Vec::with_capacity(spans.len());
        for (a, b) in spans {
            match merged.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        LeaveSpans(merged)
    }

    /// Seconds of reflection between `from` and `to`: the time not on leave
    /// (0 if `to` is not after `from`).
    pub fn reflection(&self, from: i64, to: i64) -> i64 {
        if to <= from {
            return 0;
        }
        let on_leave: i64 = self
            .0
            .iter()
            .map(|&(a, b)| (b.min(to) - a.max(from)).max(0))
            .sum();
        to - from - on_leave
    }

    /// The first instant at or after `from` by which `secs` of reflection have
    /// passed: the clock stops through every leave on the way.
    pub fn instant_after(&self, from: i64, secs: i64) -> i64 {
        let mut t = from;
        let mut left = secs.max(0);
        if left == 0 {
            return from;
        }
        for &(a, b) in &self.0 {
            if b <= t {
                continue;
            }
            if a > t {
                let run = a - t;
                if left <= run {
                    return t + left;
                }
                left -= run;
            }
            t = b;
        }
        t + left
    }

    /// Whether the instant `at` lies in a leave.
    pub fn covers(&self, at: i64) -> bool {
        self.0.iter().any(|&(a, b)| a <= at && at < b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::date::Date;
    use proptest::prelude::*;

    const H: i64 = 3600;

    #[test]
    fn twenty_three_days_and_hours_cost_twenty_six() {
        assert_eq!(charge_days(23 * DAY_SECS + 7 * H, 20), 26);
    }

    #[test]
    fn no_day_is_charged_within_the_first_24_hours() {
        assert_eq!(charge_days(0, 20), 0);
        assert_eq!(charge_days(DAY_SECS - 1, 20), 0);
        assert_eq!(charge_days(DAY_SECS, 20), 1);
        assert_eq!(charge_days(-5 * DAY_SECS, 20), 0);
    }

    #[test]
    fn twenty_days_count_once_and_the_twenty_first_twice() {
        assert_eq!(charge_days(20 * DAY_SECS + 23 * H, 20), 20);
        assert_eq!(charge_days(21 * DAY_SECS, 20), 22);
    }

    #[test]
    fn reflection_for_charge_finds_the_first_day_reaching_it() {
        assert_eq!(reflection_for_charge(0, 20), 0);
        assert_eq!(reflection_for_charge(5, 20), 5 * DAY_SECS);
        assert_eq!(reflection_for_charge(20, 20), 20 * DAY_SECS);
        // 21 is skipped (20 -> 22): the 21st day is the first to reach it.
        assert_eq!(reflection_for_charge(21, 20), 21 * DAY_SECS);
        assert_eq!(reflection_for_charge(22, 20), 21 * DAY_SECS);
        assert_eq!(reflection_for_charge(26, 20), 23 * DAY_SECS);
    }

    fn leave(from: &str, to: &str) -> Leave {
        Leave {
            from: from.parse().unwrap(),
            to: to.parse().unwrap(),
        }
    }

    #[test]
    fn leave_days_are_taken_out_of_reflection() {
        let spans = LeaveSpans::new(&[leave("2026-12-20", "2026-12-22")]);
        let from = Date::from_ymd(2026, 12, 18).unwrap().start() + 12 * H;
        let to = Date::from_ymd(2026, 12, 26).unwrap().start() + 12 * H;
        // 8 days elapsed, 3 of them on leave.
        assert_eq!(spans.reflection(from, to), 5 * DAY_SECS);
        assert_eq!(spans.instant_after(from, 5 * DAY_SECS), to);
        // Reflection of 1.5 days ends exactly when the leave starts.
        assert_eq!(
            spans.instant_after(from, DAY_SECS + 12 * H),
            Date::from_ymd(2026, 12, 20).unwrap().start()
        );
    }

    #[test]
    fn overlapping_leaves_are_not_taken_out_twice() {
        let spans = LeaveSpans::new(&[
            leave("2026-03-01", "2026-03-05"),
            leave("2026-03-04", "2026-03-06"),
        ]);
        let from = Date::from_ymd(2026, 3, 1).unwrap().start();
        let to = Date::from_ymd(2026, 3, 11).unwrap().start();
        assert_eq!(spans.reflection(from, to), 4 * DAY_SECS);
    }

    fn arb_leaves() -> impl Strategy<Value = Vec<Leave>> {
        let base = Date::from_ymd(2026, 1, 1).unwrap();
        prop::collection::vec((0i64..60, 0i64..10), 0..4).prop_map(move |v| {
            v.into_iter()
                .map(|(s, len)| Leave {
                    from: base.add_days(s),
                    to: base.add_days(s + len),
                })
                .collect()
        })
    }

    proptest! {
        #[test]
        fn charge_never_falls_as_time_passes(a in 0i64..200 * DAY_SECS, b in 0i64..200 * DAY_SECS, cap in 0u32..40) {
            let (lo, hi) = (a.min(b), a.max(b));
            prop_assert!(charge_days(lo, cap) <= charge_days(hi, cap));
        }

        #[test]
        fn leave_never_increases_a_charge(
            leaves in arb_leaves(), start in 0i64..40 * DAY_SECS, len in 0i64..60 * DAY_SECS,
        ) {
            let base = Date::from_ymd(2026, 1, 1).unwrap().start();
            let (from, to) = (base + start, base + start + len);
            let with = LeaveSpans::new(&leaves).reflection(from, to);
            let without = LeaveSpans::default().reflection(from, to);
            prop_assert!(with <= without);
            prop_assert!(with >= 0);
            prop_assert!(charge_days(with, 20) <= charge_days(without, 20));
        }

        #[test]
        fn instant_after_is_the_first_instant_with_that_much_reflection(
            leaves in arb_leaves(),
            start in 0i64..40 * DAY_SECS,
            secs in prop_oneof![Just(0i64), 0i64..60 * DAY_SECS],
        ) {
            let spans = LeaveSpans::new(&leaves);
            let from = Date::from_ymd(2026, 1, 1).unwrap().start() + start;
            let at = spans.instant_after(from, secs);
            prop_assert_eq!(spans.reflection(from, at), secs);
            if secs > 0 {
                prop_assert!(spans.reflection(from, at - 1) < secs);
            } else {
                prop_assert_eq!(at, from);
            }
        }

        #[test]
        fn reflection_for_charge_is_the_least_reaching_it(days in 0i64..200, cap in 0u32..40) {
            let r = reflection_for_charge(days, cap);
            prop_assert!(i64::from(charge_days(r, cap)) >= days);
            if r > 0 {
                prop_assert!(i64::from(charge_days(r - 1, cap)) < days);
            }
        }
    }
}
