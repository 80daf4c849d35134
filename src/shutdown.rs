//! The stop request of `wildt serve`, after mini-redis's `shutdown.rs`: the
//! loop asks [`Shutdown::requested`] between pieces of work, and waits
//! through [`Shutdown::sleep_or_stop`] or [`Shutdown::wait_or_stop`]. Only
//! those waits race the stop request (`select!`), never a message in hand.
//! [IO: tokio timers and Unix signals]

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use futures::FutureExt as _;

/// A stop request: any future that completes when the process should stop
/// ([`terminate_or_interrupt`] in the binary, something quicker in tests).
/// Once it has completed it is never polled again.
pub struct Shutdown<F> {
    signal: Pin<Box<F>>,
    requested: bool,
}

impl<F: Future<Output = ()>> Shutdown<F> {
    pub fn new(signal: F) -> Shutdown<F> {
        Shutdown {
            signal: Box::pin(signal),
            requested: false,
        }
    }

    /// Whether a stop has been asked for; never waits.
    pub fn requested(&mut self) -> bool {
        if !self.requested && self.signal.as_mut().now_or_never().is_some() {
            self.requested = true;
        }
        self.requested
    }

    /// Waits until a stop is asked for. Cancel-safe: dropping this future
    /// loses nothing.
    pub async fn recv(&mut self) {
        if !self.requested {
            self.signal.as_mut().await;
            self.requested = true;
        }
    }

    /// Runs `wait` unless a stop is asked for first: `Some` of its output, or
    /// `None` when stopping (then `wait` is dropped, or never started if the
    /// stop came earlier). `wait` must be safe to drop part-way: a wait, not
    /// work.
    pub async fn wait_or_stop<T>(&mut self, wait: impl Future<Output = T>) -> Option<T> {
        if self.requested {
            return None;
        }
        tokio::select! {
            biased;
            () = self.recv() => None,
            out = wait => Some(out),
        }
    }

    /// Sleeps for `delay`, or less if a stop is asked for; returns whether
    /// one was.
    pub async fn sleep_or_stop(&mut self, delay: Duration) -> bool {
        self.wait_or_stop(tokio::time::sleep(delay)).await.is_none()
    }
}

/// Completes on the first SIGTERM (how systemd stops a service) or SIGINT
/// (Ctrl-C). If the handlers cannot be installed it says so and never
/// completes.
pub async fn terminate_or_interrupt() {
    use tokio::signal::unix::{SignalKind, signal};
    match (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) {
        (Ok(mut term), Ok(mut int)) => {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
        }
        (Err(e), _) | (_, Err(e)) => {
            tracing::error!(error = %e, "cannot listen for signals; stop with kill -9");
            std::future::pending::<()>().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;

    #[tokio::test]
    async fn requested_is_false_until_the_signal_completes_and_true_after() {
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let mut shutdown = Shutdown::new(async move { rx.await.expect("stop sent") });
        assert!(!shutdown.requested());
        assert!(!shutdown.requested());
        tx.send(()).expect("receiver alive");
        assert!(shutdown.requested());
        assert!(shutdown.requested());
    }

    #[tokio::test]
    async fn sleep_or_stop_returns_early_when_a_stop_comes_during_the_sleep() {
        let mut shutdown = Shutdown::new(tokio::time::sleep(Duration::from_millis(20)));
        let started = Instant::now();
        assert!(shutdown.sleep_or_stop(Duration::from_secs(600)).await);
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "slept {:?}",
            started.elapsed()
        );
        assert!(shutdown.requested());
    }

    #[tokio::test]
    async fn sleep_or_stop_sleeps_the_whole_delay_without_a_stop() {
        let mut shutdown = Shutdown::new(std::future::pending::<()>());
        let started = Instant::now();
        assert!(!shutdown.sleep_or_stop(Duration::from_millis(30)).await);
        assert!(started.elapsed() >= Duration::from_millis(30));
        assert!(!shutdown.requested());
    }

    #[tokio::test]
    async fn wait_or_stop_gives_the_waits_output_without_a_stop() {
        let mut shutdown = Shutdown::new(std::future::pending::<()>());
        assert_eq!(shutdown.wait_or_stop(async { 7 }).await, Some(7));
    }

    #[tokio::test]
    async fn after_a_stop_no_wait_is_started_and_the_signal_is_not_polled_again() {
        // An async block panics if polled after it completed: this one must
        // be polled once only, however often the loop asks.
        let mut shutdown = Shutdown::new(async {});
        assert!(shutdown.requested());
        assert!(shutdown.requested());
        assert!(shutdown.sleep_or_stop(Duration::from_secs(600)).await);
        let started = shutdown
            .wait_or_stop(async { panic!("a wait started after the stop") })
            .await;
        assert_eq!(started, None::<()>);
        shutdown.recv().await;
    }
}
