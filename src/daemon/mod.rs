//! `wildt serve`: wait for mail, take a message, decide it in one transaction,
//! tell the inbox, send the outbox. [IO]
//!
//! In parts:
//! - [`serve`]      the loop: takes the inbox's mail a group at a time,
//!   under `serve` and `serve --once` alike
//! - [`quarantine`] what becomes of a message that cannot be handled
//! - [`worker`]     the outbox worker beside the loop, which runs
//! - [`sender`]     the flush: leases due mail, sends it in batches, records
//!   what became of it
//! - [`lease`]      which mail the sender takes next, and its lease on it
//! - [`fresh`]      the bodies of mail this process just committed
//! - [`backoff`]    the waits between tries after a failure
//! - [`systemd`]    READY, the status and the watchdog
//!
//! The stop request races only the waiting, never the work: a message in
//! hand is fully processed and committed before a stop is noticed. The
//! outbox worker drains what is due before it stops.

pub mod backoff;
pub mod fresh;
pub mod leader;
pub mod lease;
mod listen;
mod quarantine;
pub mod receipts;
pub mod sender;
mod serve;
mod systemd;
mod worker;

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tracing::info;

pub use backoff::Backoff;
pub use serve::{GROUP_BYTES, GROUP_MAX, GROUP_TIME};

use crate::config::Config;
use crate::mail::{InboxError, Transport, TransportError};
use crate::shutdown::Shutdown;
use crate::store::{Store, StoreError};
use lease::{Leases, lease_owner, release_dead_leases};
use serve::Loop;
use systemd::{WorkerHealth, notify, watchdog_ping};
use worker::{Outbox, Worker};

#[derive(Debug, thiserror::Error)]
pub enum DaemonError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Inbox(#[from] InboxError),
    /// The transport could not be opened (the prefix says which side).
    #[error("outbox: {0}")]
    Outbox(TransportError),
    #[error(transparent)]
    Tablebase(#[from] crate::tablebase::syzygy::OpenError),
    /// The Xfcc server could not start.
    #[error(transparent)]
    Xfcc(#[from] crate::xfcc::server::ServerError),
}

#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    /// Process what is waiting, try the outbox once, and return.
    pub once: bool,
}

/// What a run did, for the log and for tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunReport {
    pub messages: u64,
    pub duplicates: u64,
    pub sent: u64,
    pub retried: u64,
    pub failed: u64,
    /// Inbox messages whose handling failed, to be tried again.
    pub failed_attempts: u64,
    /// Inbox messages put in the quarantine.
    pub quarantined: u64,
}

/// `n` and the noun, in the plural unless `n` is 1.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The run as a sentence, for the log: "handled 12 messages (1 duplicate);
/// sent 20 mails, 0 to retry, 0 failed", and the messages that failed, if
/// any did.
impl fmt::Display for RunReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "handled {} ({}); sent {}, {} to retry, {} failed",
            count(self.messages, "message", "messages"),
            count(self.duplicates, "duplicate", "duplicates"),
            count(self.sent, "mail", "mails"),
            self.retried,
            self.failed
        )?;
        if self.failed_attempts > 0 {
            let n = count(self.failed_attempts, "message", "messages");
            write!(f, "; {n} not handled, to be tried again")?;
        }
        if self.quarantined > 0 {
            let n = count(self.quarantined, "message", "messages");
            write!(f, "; {n} put in the quarantine")?;
        }
        Ok(())
    }
}

/// Runs the referee until `shutdown` completes (or, with `once`, until the
/// inbox is empty).
pub async fn run(
    config: Config,
    options: RunOptions,
    shutdown: impl Future<Output = ()>,
) -> Result<RunReport, DaemonError> {
    let mut summary = RunReport::default();
    let mut shutdown = Shutdown::new(shutdown);
    // Polled once now, the stop future installs its signal handlers (an
    // async fn does nothing until polled): from here on a SIGTERM asks for a
    // stop between two groups, instead of ending the process mid-group.
    if shutdown.requested() {
        return Ok(summary);
    }
    let Some(store) = open_store(&config, options.once, &mut shutdown).await? else {
        return Ok(summary);
    };
    // The tables are listed once and shared by every message of the run.
    let rules = crate::tablebase::syzygy::open_rules(&config)?;
    let transport = Transport::open(&config.outbox)
        .await
        .map_err(DaemonError::Outbox)?;
    let owner = lease_owner();
    if let Err(e) = release_dead_leases(&store).await {
        // The database went away again just after it opened: the dead
        // processes' leases run out or are given back later.
        if options.once || !e.is_transient() {
            return Err(e.into());
        }
        tracing::warn!(error = %e, "outbox: dead processes' leases not given back now");
    }
    // On PostgreSQL: this daemon in the registry, and the leader's lease
    // tried at once; on SQLite it leads.
    let heartbeat = leader::Heartbeat::start(&store, leader::Me::new(&owner)).await;
    if shutdown.requested() {
        heartbeat.stop().await;
        store.close().await;
        return Ok(summary);
    }
    let mut backoff = Backoff::new(Duration::from_secs(1), Duration::from_secs(300));
    let opened = serve::open_inbox(&config, options.once, &mut shutdown, &mut backoff).await?;
    let Some(mut inbox) = opened else {
        heartbeat.stop().await;
        store.close().await;
        return Ok(summary);
    };
    backoff.reset();

    // The outbox is sent while the inbox is read: the replies of the first
    // groups are on their way while the next are decided. At the end the
    // worker drains what is due and stops.
    let leases = Leases::new(store.clone());
    let health = Arc::new(WorkerHealth::default());
    let outbox = Outbox::start(Worker {
        leases: leases.clone(),
        transport,
        config: config.outbox.clone(),
        referee: config.referee.clone(),
        owner: owner.clone(),
        health: health.clone(),
    });
    let wake = outbox.wake.clone();
    // On PostgreSQL, mail queued by any daemon or command wakes this
    // daemon's sender too.
    let listening = listen::start(&config, wake.clone());
    // The Xfcc server, beside the inbox: it takes moves while the loop
    // waits for mail, and stops with it.
    let xfcc = match &config.xfcc {
        Some(x) if !options.once => {
            match crate::xfcc::server::Server::bind(x, store.clone(), rules.clone(), wake.clone())
                .await
            {
                Ok(server) => {
                    let (stop, stopped) = tokio::sync::watch::channel(false);
                    Some((stop, tokio::spawn(server.supervise(stopped))))
                }
                Err(e) => {
                    if let Some(l) = &listening {
                        l.abort();
                    }
                    outbox.stop(&mut summary).await;
                    inbox.close().await;
                    heartbeat.stop().await;
                    store.close().await;
                    return Err(e.into());
                }
            }
        }
        _ => None,
    };
    let ping_watchdog = || watchdog_ping(&health, config.outbox.stall_after);
    let no_watchdog = || {};
    let lp = Loop {
        store: &store,
        leases: &leases,
        config: &config,
        rules: &rules,
        wake: &wake,
        ping: if options.once {
            &no_watchdog
        } else {
            &ping_watchdog
        },
        leader: &heartbeat.leadership,
    };

    if options.once {
        let taken = serve::take_all(&lp, &mut inbox, &mut summary).await;
        if let Some(l) = &listening {
            l.abort();
        }
        outbox.stop(&mut summary).await;
        taken?;
        store.release_leases(&owner).await?;
        inbox.close().await;
        heartbeat.stop().await;
        store.close().await;
        info!("done: {summary}");
        return Ok(summary);
    }

    serve::serve(&lp, &mut inbox, &mut shutdown, &mut backoff, &mut summary).await;
    if let Some((stop, server)) = xfcc {
        info!("stopping: the Xfcc server");
        // The receiver may be gone only if the server ended already.
        stop.send_replace(true);
        if let Err(e) = server.await {
            tracing::error!(error = %e, "xfcc: the server task failed");
        }
    }
    info!("stopping: draining the outbox");
    notify(&[sd_notify::NotifyState::Stopping]);
    if let Some(l) = &listening {
        l.abort();
    }
    outbox.stop(&mut summary).await;
    inbox.close().await;
    heartbeat.stop().await;
    store.close().await;
    info!("stopped: {summary}");
    Ok(summary)
}

/// Opens the store. Under `serve` a database not reachable (PostgreSQL
/// down or restarting: a transient error) is tried again with backoff until
/// it is, or until a stop is asked for (`None`); under `--once`, and for
/// any other error, the error is returned.
async fn open_store<F: Future<Output = ()>>(
    config: &Config,
    once: bool,
    shutdown: &mut Shutdown<F>,
) -> Result<Option<Store>, DaemonError> {
    let mut backoff = Backoff::new(Duration::from_secs(1), Duration::from_secs(30));
    loop {
        match Store::for_config(config).await {
            Ok(store) => return Ok(Some(store)),
            Err(e) if !once && e.is_transient() => {
                let delay = backoff.next_delay();
                tracing::error!(error = %e, retry_in_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                    "database not reachable; trying again");
                if shutdown.sleep_or_stop(delay).await {
                    return Ok(None);
                }
            }
            Err(e) => return Err(e.into()),
        }
    }
}

#[cfg(test)]
mod report_tests {
    use super::RunReport;

    #[test]
    fn a_run_is_logged_as_a_sentence() {
        let report = RunReport {
            messages: 12,
            duplicates: 1,
            sent: 20,
            ..RunReport::default()
        };
        assert_eq!(
            report.to_string(),
            "handled 12 messages (1 duplicate); sent 20 mails, 0 to retry, 0 failed"
        );
        let report = RunReport {
            messages: 1,
            sent: 1,
            retried: 2,
            failed: 1,
            failed_attempts: 2,
            quarantined: 1,
            ..RunReport::default()
        };
        assert_eq!(
            report.to_string(),
            "handled 1 message (0 duplicates); sent 1 mail, 2 to retry, 1 failed; \
             2 messages not handled, to be tried again; 1 message put in the quarantine"
        );
    }
}
