//! The outbox worker: a task beside the loop that sends what is due
//! ([`super::sender::flush_outbox`]) whenever the loop wakes it or mail
//! falls due, gives free pages back when the outbox is empty, and drains
//! what is due before it stops. [IO]

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Notify, watch};
use tracing::{debug, error, warn};

use super::RunReport;
use super::backoff::{Backoff, millis};
use super::lease::{Leases, give_back_leases};
use super::sender::{Flushed, flush_outbox};
use super::systemd::WorkerHealth;
use crate::config::{OutboxConfig, RefereeConfig};
use crate::mail::Transport;
use crate::store::{Store, StoreError, now_secs};

/// How often an idle worker looks for mail queued by another process (the
/// CLI's `game new`, `outbox retry`): one indexed query.
const POLL: Duration = Duration::from_secs(2);

/// [`POLL`] on PostgreSQL, where mail queued by any process wakes the
/// worker by NOTIFY (`listen`): the timer is only the fallback while the
/// listening connection is lost, and N daemons polling every 2 s would be
/// N queries every 2 s for nothing.
const POLL_NOTIFIED: Duration = Duration::from_secs(30);

/// Free pages kept in the database file (1 MiB), and given back per idle
/// round of the outbox worker (8 MiB: a few milliseconds of the write lock).
const RECLAIM_KEEP: i64 = 256;
const RECLAIM_PAGES: i64 = 2048;

/// What the outbox worker owns.
pub(super) struct Worker {
    pub(super) leases: Leases,
    pub(super) transport: Transport,
    pub(super) config: OutboxConfig,
    pub(super) referee: RefereeConfig,
    pub(super) owner: String,
    pub(super) health: Arc<WorkerHealth>,
}

/// The outbox worker running beside the inbox: woken after each group,
/// asked to stop (it then drains what is due) at the end.
pub(super) struct Outbox {
    pub(super) wake: Arc<Notify>,
    stop: watch::Sender<bool>,
    worker: tokio::task::JoinHandle<RunReport>,
}

impl Outbox {
    pub(super) fn start(w: Worker) -> Outbox {
        let (stop, stop_rx) = watch::channel(false);
        let wake = Arc::new(Notify::new());
        let worker = tokio::spawn(supervise_outbox(w, wake.clone(), stop_rx));
        Outbox { wake, stop, worker }
    }

    /// Stops the worker once it has drained what is due, and adds what it
    /// sent to `summary`.
    pub(super) async fn stop(self, summary: &mut RunReport) {
        if self.stop.send(true).is_err() {
            debug!("outbox worker already gone");
        }
        match self.worker.await {
            Ok(sent) => {
                summary.sent += sent.sent;
                summary.retried += sent.retried;
                summary.failed += sent.failed;
            }
            Err(e) => error!(error = %e, "outbox worker panicked"),
        }
    }
}

/// Runs the outbox worker, and starts it again should it ever panic (a bug):
/// the daemon never goes on deciding moves with nobody sending the replies.
async fn supervise_outbox(w: Worker, wake: Arc<Notify>, stop: watch::Receiver<bool>) -> RunReport {
    let (leases, config, referee, owner, health) = (
        w.leases.clone(),
        w.config.clone(),
        w.referee.clone(),
        w.owner.clone(),
        w.health.clone(),
    );
    let mut backoff = Backoff::new(Duration::from_secs(1), Duration::from_secs(60));
    let mut next = Some(w);
    loop {
        let worker = match next.take() {
            Some(w) => w,
            None => match Transport::open(&config).await {
                Ok(transport) => Worker {
                    leases: leases.clone(),
                    transport,
                    config: config.clone(),
                    referee: referee.clone(),
                    owner: owner.clone(),
                    health: health.clone(),
                },
                Err(e) => {
                    error!(error = %e, "outbox: cannot reopen the transport; retrying");
                    health.failed(e.to_string());
                    tokio::time::sleep(backoff.next_delay()).await;
                    continue;
                }
            },
        };
        match tokio::spawn(outbox_worker(worker, wake.clone(), stop.clone())).await {
            Ok(summary) => return summary,
            Err(e) => {
                error!(error = %e, "outbox worker panicked; starting it again");
                health.failed(format!("outbox worker panicked: {e}"));
                if *stop.borrow() {
                    return RunReport::default();
                }
                tokio::time::sleep(backoff.next_delay()).await;
            }
        }
    }
}

/// When the outbox is empty: gives free pages of the database back
/// to the file system, a bounded amount per round, or all of it when
/// stopping (`serve --once` after a backlog): then, when most of the file
/// is free, by one `VACUUM`, which costs what the live pages weigh.
async fn reclaim(store: &Store, all: bool) {
    if all {
        match store.compact_if_mostly_free(RECLAIM_KEEP).await {
            Ok(Some(free)) => {
                debug!(free_pages = free, "database: compacted");
                return;
            }
            Ok(None) => {}
            // Busy (a reader of another process): by steps instead.
            Err(e) => debug!(error = %e, "database: not compacted; giving pages back by steps"),
        }
    }
    let mut before = i64::MAX;
    loop {
        match store.reclaim(RECLAIM_KEEP, RECLAIM_PAGES).await {
            // Each round must shrink the free list (it does not where the
            // database could not be converted): else stop.
            Ok(free) if all && free > RECLAIM_KEEP + RECLAIM_PAGES && free < before => {
                before = free;
            }
            Ok(free) if free > RECLAIM_KEEP => {
                debug!(free_pages = free, "database: free pages given back");
                return;
            }
            Ok(_) => return,
            Err(e) => {
                warn!(error = %e, "database: free pages not given back");
                return;
            }
        }
    }
}

impl Worker {
    fn store(&self) -> &Store {
        self.leases.store()
    }

    async fn flush(&mut self, summary: &mut RunReport) -> Result<Flushed, StoreError> {
        flush_outbox(
            &self.leases,
            &mut self.transport,
            &self.config,
            &self.referee,
            &self.owner,
            summary,
        )
        .await
    }

    /// Flushes when mail is due or the worker is stopping. The idle poll is
    /// a read: leasing takes the write lock, which the message transactions
    /// need, so it is taken only when mail is due.
    async fn flush_if_due(
        &mut self,
        stopping: bool,
        summary: &mut RunReport,
    ) -> Result<Flushed, StoreError> {
        let due = match self.store().next_due_in(now_secs()).await {
            Ok(next) => next == Some(0),
            // Let the flush meet (and report) the error.
            Err(_) => true,
        };
        if due || stopping {
            self.flush(summary).await
        } else {
            Ok(Flushed::Done)
        }
    }

    /// How long to wait after a flush that sent what was due: until the
    /// next mail falls due, within [200 ms, `POLL`].
    async fn idle_wait(&self) -> Duration {
        let poll = match self.store().backend() {
            crate::store::Backend::Postgres => POLL_NOTIFIED,
            crate::store::Backend::Sqlite => POLL,
        };
        match self.store().next_due_in(now_secs()).await {
            Ok(Some(secs)) => Duration::from_secs(u64::try_from(secs).unwrap_or(0))
                .clamp(Duration::from_millis(200), poll),
            // Nothing left to send: only now, not between the groups of a
            // burst, are free pages given back.
            Ok(None) => {
                reclaim(self.store(), false).await;
                if let Some(receipts) = &self.config.receipts {
                    super::receipts::clean_if_due(receipts).await;
                }
                poll
            }
            Err(e) => {
                warn!(error = %e, "outbox: cannot read when mail is next due");
                poll
            }
        }
    }

    /// Draining at shutdown after a database error: one more try after
    /// `delay` (at most 2 s), then the rest waits for the next start.
    async fn last_drain(&mut self, delay: Duration, summary: &mut RunReport) {
        tokio::time::sleep(delay.min(Duration::from_secs(2))).await;
        give_back_leases(&self.leases, &self.owner).await;
        if let Err(e) = self.flush(summary).await {
            error!(error = %e, "outbox: not drained at shutdown; the rest is sent after the next start");
        }
    }
}

/// Sends what is due until told to stop, then drains what is due once more.
/// It never ends on an error: a database error is logged with its cause and
/// retried with backoff (a backup or a long query holding the write lock
/// passes); while it lasts, [`WorkerHealth`] tells the watchdog.
async fn outbox_worker(
    mut w: Worker,
    wake: Arc<Notify>,
    mut stop: watch::Receiver<bool>,
) -> RunReport {
    let mut summary = RunReport::default();
    let mut store_backoff = Backoff::new(Duration::from_secs(1), Duration::from_secs(60));
    let mut relay_backoff = Backoff::new(w.config.retry_initial, w.config.retry_max);
    // After a database error in a flush, rows this process leased may be
    // left leased (a batch sent but not marked): a lease does not take
    // its owner's rows, so they are given back before the next flush, and
    // sent again.
    let mut leases_left = false;
    loop {
        let stopping = *stop.borrow();
        if leases_left && give_back_leases(&w.leases, &w.owner).await {
            leases_left = false;
        }
        let wait = match w.flush_if_due(stopping, &mut summary).await {
            Ok(Flushed::Done) => {
                store_backoff.reset();
                relay_backoff.reset();
                w.health.ok();
                if stopping {
                    reclaim(w.store(), true).await;
                    break;
                }
                w.idle_wait().await
            }
            Ok(Flushed::TransportDown(_)) => {
                // The relay is outside this host: a restart would not bring it
                // back, so this is not counted as a stall.
                store_backoff.reset();
                w.health.ok();
                if stopping {
                    break;
                }
                relay_backoff.next_delay()
            }
            Err(e) => {
                leases_left = true;
                let delay = store_backoff.next_delay();
                error!(error = %e, retry_in_ms = millis(delay), "outbox: database error; retrying");
                w.health.failed(e.to_string());
                if stopping {
                    w.last_drain(delay, &mut summary).await;
                    break;
                }
                delay
            }
        };
        tokio::select! {
            () = wake.notified() => {}
            () = tokio::time::sleep(wait) => {}
            r = stop.changed() => {
                if r.is_err() {
                    break;
                }
            }
        }
    }
    give_back_leases(&w.leases, &w.owner).await;
    summary
}
