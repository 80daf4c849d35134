//! Exponential backoff with jitter: how long the daemon waits before trying
//! again after a failure that may pass (an inbox out of reach, a database
//! busy, a relay down). [pure + randomness]

use std::time::Duration;

use rand::Rng as _;

/// The waits between tries after a run of failures.
///
/// The n-th delay after a reset is drawn from `[b/2, b]` where
/// `b = min(initial * 2^n, max)` ([`Backoff::bound`]): growing, capped, and
/// spread out so that clients that failed together do not retry together.
#[derive(Debug, Clone)]
pub struct Backoff {
    initial: Duration,
    max: Duration,
    attempt: u32,
}

impl Backoff {
    /// `max` below `initial` is raised to `initial`.
    pub fn new(initial: Duration, max: Duration) -> Backoff {
        Backoff {
            initial,
            max: max.max(initial),
            attempt: 0,
        }
    }

    /// The bound of the `n`-th delay after a reset, without jitter:
    /// `initial * 2^n`, at most `max`. The outbox waits exactly this long
    /// before a mail's `n`-th retry, a wait it stores in the mail's row.
    pub fn bound(&self, n: u32) -> Duration {
        self.initial
            .checked_mul(1u32 << n.min(31))
            .unwrap_or(self.max)
            .min(self.max)
    }

    /// The delay before the next attempt; each call doubles the next bound.
    pub fn next_delay(&mut self) -> Duration {
        let base = self.bound(self.attempt);
        self.attempt = self.attempt.saturating_add(1);
        let half = base / 2;
        let spread = u64::try_from((base - half).as_millis()).unwrap_or(u64::MAX);
        half + Duration::from_millis(rand::rng().random_range(0..=spread))
    }

    /// After a success: the next delay is short again.
    pub fn reset(&mut self) {
        self.attempt = 0;
    }
}

/// A delay in whole milliseconds, for the log.
pub fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_until_capped_and_stays_within_bounds() {
        let initial = Duration::from_millis(100);
        let max = Duration::from_secs(10);
        let mut b = Backoff::new(initial, max);
        for n in 0..40u32 {
            let bound = initial
                .checked_mul(1u32 << n.min(31))
                .unwrap_or(max)
                .min(max);
            assert_eq!(b.bound(n), bound);
            let d = b.next_delay();
            assert!(d <= bound, "delay {n} = {d:?} above its bound {bound:?}");
            assert!(
                d >= bound / 2,
                "delay {n} = {d:?} below half its bound {bound:?}"
            );
        }
    }

    #[test]
    fn backoff_reset_starts_over() {
        let initial = Duration::from_millis(100);
        let mut b = Backoff::new(initial, Duration::from_secs(60));
        for _ in 0..10 {
            b.next_delay();
        }
        assert!(b.next_delay() >= Duration::from_secs(30));
        b.reset();
        assert!(b.next_delay() <= initial);
    }

    #[test]
    fn backoff_max_below_initial_is_raised() {
        let mut b = Backoff::new(Duration::from_secs(2), Duration::from_secs(1));
        let d = b.next_delay();
        assert!(
            d <= Duration::from_secs(2) && d >= Duration::from_secs(1),
            "{d:?}"
        );
    }

    #[test]
    fn backoff_jitter_spreads_delays() {
        let mut seen = std::collections::HashSet::new();
        for _ in 0..50 {
            let mut b = Backoff::new(Duration::from_secs(10), Duration::from_secs(10));
            seen.insert(b.next_delay());
        }
        assert!(seen.len() > 1, "50 fresh backoffs all gave {seen:?}");
    }

    /// A mail's retry waits `initial * 2^attempts`, the doubling stopped
    /// at 2^16, at most `max`.
    #[test]
    fn a_retry_waits_the_bound_of_its_attempt() {
        let b = Backoff::new(Duration::from_secs(5), Duration::from_secs(600));
        assert_eq!(b.bound(0), Duration::from_secs(5));
        assert_eq!(b.bound(3), Duration::from_secs(40));
        assert_eq!(b.bound(16), Duration::from_secs(600));
    }
}
