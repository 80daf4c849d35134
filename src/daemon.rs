//! `wildt serve`: wait for mail, take a message, decide it in one transaction,
//! tell the inbox, send the outbox. [IO]
//!
//! The stop request races only the waiting ([`Shutdown`]), never the work: a
//! message in hand is fully processed and committed before a stop is noticed.
//! The outbox worker runs beside the loop and drains what is due before it
//! stops.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Notify, watch};
use tracing::{Instrument, debug, error, info, info_span, warn};

use crate::config::{Config, OutboxConfig, Rules};
use crate::handle::{Handled, Mode, Source, handle_message_at};
use crate::mail::imap::Backoff;
use crate::mail::{Inbound, Inbox, InboxError, Transport, TransportError};
use crate::shutdown::Shutdown;
use crate::store::{Store, StoreError, now_secs};

#[derive(Debug, thiserror::Error)]
pub enum DaemonError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Inbox(#[from] InboxError),
    /// The transport could not be opened (the prefix says which side).
    #[error("outbox: {0}")]
    Outbox(TransportError),
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
}

fn notify(state: &[sd_notify::NotifyState<'_>]) {
    // Without NOTIFY_SOCKET this is a no-op. The datagram is sent without
    // blocking: a notify socket nobody reads (its queue holds only a few
    // datagrams) must never stall the referee — a blocking send here once
    // froze the whole loop after ten pings. A dropped ping is logged; missing
    // the watchdog is systemd's to judge, not a reason to hang.
    if let Err(e) = notify_nonblocking(state) {
        debug!(error = %e, "sd_notify");
    }
}

fn notify_nonblocking(state: &[sd_notify::NotifyState<'_>]) -> std::io::Result<()> {
    use std::os::unix::net::{SocketAddr, UnixDatagram};
    let Some(path) = std::env::var_os("NOTIFY_SOCKET") else {
        return Ok(());
    };
    let addr = match path.to_str().and_then(|p| p.strip_prefix('@')) {
        Some(name) => {
            use std::os::linux::net::SocketAddrExt as _;
            SocketAddr::from_abstract_name(name.as_bytes())?
        }
        None => SocketAddr::from_pathname(&path)?,
    };
    let msg: String = state.iter().map(|s| format!("{s}\n")).collect();
    let sock = UnixDatagram::unbound()?;
    sock.set_nonblocking(true)?;
    sock.send_to_addr(msg.as_bytes(), &addr)?;
    Ok(())
}

/// Sends every due outbox row once. Transient failures are retried later with
/// exponential backoff; permanent ones are recorded and not retried.
pub async fn flush_outbox(
    store: &Store,
    transport: &Transport,
    config: &OutboxConfig,
    summary: &mut RunReport,
) -> Result<(), StoreError> {
    loop {
        let rows = store.due_mail(now_secs(), 100).await?;
        if rows.is_empty() {
            return Ok(());
        }
        let mut progressed = false;
        for row in rows {
            let span = info_span!("send", message_id = %row.message_id, to = %row.recipient);
            let sent = transport
                .send(&row.message_id, &row.sender, &row.recipient, &row.raw)
                .instrument(span.clone())
                .await;
            match sent {
                Ok(()) => {
                    store.mark_sent(row.id).await?;
                    summary.sent += 1;
                    progressed = true;
                    span.in_scope(|| debug!("sent"));
                }
                Err(e) if e.is_permanent() => {
                    store.mark_failed(row.id, &e.to_string()).await?;
                    summary.failed += 1;
                    span.in_scope(|| warn!(error = %e, "permanent failure; not retried"));
                }
                Err(e) => {
                    let shift = u32::try_from(row.attempts.clamp(0, 20)).unwrap_or(20);
                    let delay = config
                        .retry_initial
                        .saturating_mul(1u32 << shift.min(16))
                        .min(config.retry_max);
                    let next = now_secs() + i64::try_from(delay.as_secs()).unwrap_or(i64::MAX);
                    store.mark_retry(row.id, next, &e.to_string()).await?;
                    summary.retried += 1;
                    span.in_scope(
                        || warn!(error = %e, retry_in_secs = delay.as_secs(), "transient failure"),
                    );
                }
            }
        }
        if !progressed {
            return Ok(());
        }
    }
}

/// Handles one message in its own span, then tells the inbox it is done.
async fn handle_one(
    store: &Store,
    inbox: &mut Inbox,
    rules: &Rules,
    msg: Inbound,
    summary: &mut RunReport,
) -> Result<(), DaemonError> {
    let source = Source::Inbox(msg.id.clone());
    let span = info_span!("message", source = %source, message_id = tracing::field::Empty, game = tracing::field::Empty);
    async {
        match handle_message_at(
            store,
            rules,
            &source,
            &msg.raw,
            msg.size,
            Mode::Commit,
            msg.arrived,
        )
        .await?
        {
            Handled::Duplicate { outcome } => {
                summary.duplicates += 1;
                info!(%outcome, "already processed; not decided again");
            }
            Handled::Decided {
                intake,
                decision,
                letters,
                mails,
            } => {
                summary.messages += 1;
                let span = tracing::Span::current();
                if let Some(id) = &intake.message_id {
                    span.record("message_id", id.as_str());
                }
                if let Some(g) = decision.game {
                    span.record("game", g);
                }
                info!(
                    outcome = %decision.outcome,
                    detail = %decision.detail,
                    sender_auth = decision.auth.as_ref().map(tracing::field::display),
                    replies = mails.len(),
                    rate_limited = letters.rate_limited,
                    "decided"
                );
            }
        }
        // Only now, with the outcome committed, is the inbox told.
        inbox.mark_done(&msg.id).await?;
        Ok(())
    }
    .instrument(span)
    .await
}

/// Runs the referee until `shutdown` completes (or, with `once`, until the
/// inbox is empty).
pub async fn run(
    config: Config,
    options: RunOptions,
    shutdown: impl Future<Output = ()>,
) -> Result<RunReport, DaemonError> {
    let store = Store::open(&config.database_url).await?;
    let rules = config.rules();
    let transport = Arc::new(
        Transport::open(&config.outbox)
            .await
            .map_err(DaemonError::Outbox)?,
    );
    let mut summary = RunReport::default();
    let mut shutdown = Shutdown::new(shutdown);
    let mut backoff = Backoff::new(Duration::from_secs(1), Duration::from_secs(300));
    // READY means the inbox is reachable: keep trying (with backoff) until it
    // is, or until told to stop.
    let mut inbox = loop {
        match Inbox::open(&config.inbox, config.limits.max_message_bytes).await {
            Ok(inbox) => break inbox,
            Err(e) if options.once => return Err(e.into()),
            Err(e) => {
                let delay = backoff.next_delay();
                error!(error = %e, retry_in_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX), "inbox not reachable");
                let status = format!("inbox not reachable: {e}");
                notify(&[
                    sd_notify::NotifyState::Status(&status),
                    sd_notify::NotifyState::Watchdog,
                ]);
                if shutdown.sleep_or_stop(delay).await {
                    store.close().await;
                    return Ok(summary);
                }
            }
        }
    };
    backoff.reset();

    if options.once {
        loop {
            let batch = inbox.fetch_waiting().await?;
            if batch.is_empty() {
                break;
            }
            for msg in batch {
                handle_one(&store, &mut inbox, &rules, msg, &mut summary).await?;
            }
            crate::publish::refresh(&store, config.publish.as_ref()).await;
        }
        if crate::deadlines::run_due(&store, &rules, now_secs())
            .await?
            .forfeits
            > 0
        {
            crate::publish::refresh(&store, config.publish.as_ref()).await;
        }
        flush_outbox(&store, &transport, &config.outbox, &mut summary).await?;
        inbox.close().await;
        store.close().await;
        info!(?summary, "done");
        return Ok(summary);
    }

    let (stop_tx, stop_rx) = watch::channel(false);
    let wake = Arc::new(Notify::new());
    let worker = tokio::spawn(outbox_worker(
        store.clone(),
        transport.clone(),
        config.outbox.clone(),
        wake.clone(),
        stop_rx.clone(),
    ));

    let watchdog = watchdog_interval();
    notify(&[
        sd_notify::NotifyState::Ready,
        sd_notify::NotifyState::Status("waiting for mail"),
    ]);
    info!("ready");

    let mut deadlines = crate::deadlines::Schedule::default();
    'serve: loop {
        notify(&[sd_notify::NotifyState::Watchdog]);
        let batch = match inbox.fetch_waiting().await {
            Ok(b) => {
                backoff.reset();
                b
            }
            Err(e) => {
                // The IMAP inbox reconnects on its next call; wait first.
                let delay = backoff.next_delay();
                error!(error = %e, retry_in_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX), "inbox");
                if shutdown.sleep_or_stop(delay).await {
                    break;
                }
                continue;
            }
        };
        let had_mail = !batch.is_empty();
        // The clock's deadlines: when one falls, after mail (a move moves
        // them), and every minute (the organiser's commands run elsewhere).
        let now = now_secs();
        if deadlines.is_due(now) {
            match crate::deadlines::run_due(&store, &rules, now).await {
                Ok(due) => {
                    if due.forfeits > 0 {
                        crate::publish::refresh(&store, config.publish.as_ref()).await;
                    }
                    wake.notify_one();
                    deadlines.scanned(now, due.next_at);
                }
                Err(e) => error!(error = %e, "clock deadlines"),
            }
        }
        let mut failed = false;
        for msg in batch {
            if let Err(e) = handle_one(&store, &mut inbox, &rules, msg, &mut summary).await {
                // A database or inbox failure: the message stays waiting and is
                // taken again on the next round, after a pause.
                error!(error = %e, "message not handled");
                failed = true;
                break;
            }
            wake.notify_one();
            // Between messages, never during one: has a stop been asked for?
            if shutdown.requested() {
                break 'serve;
            }
        }
        if failed {
            if shutdown.sleep_or_stop(backoff.next_delay()).await {
                break;
            }
            continue;
        }
        if had_mail {
            deadlines.mail_handled();
            crate::publish::refresh(&store, config.publish.as_ref()).await;
            let status = format!("{} messages handled", summary.messages);
            notify(&[sd_notify::NotifyState::Status(&status)]);
            continue;
        }
        // The wait is bounded here too: if an IMAP session ever stops answering
        // (a missed IDLE wake-up was measured in the latency benchmark), the
        // session is dropped — which is safe while waiting — and the next
        // fetch reconnects, instead of the loop sitting still.
        let wait = deadlines.wait(now_secs()).min(watchdog);
        let bound = wait + Duration::from_secs(5);
        let waited = shutdown
            .wait_or_stop(tokio::time::timeout(bound, inbox.wait_for_mail(wait)))
            .await;
        let Some(waited) = waited else {
            break;
        };
        let waited = waited.unwrap_or_else(|_| {
            warn!(
                after_ms = u64::try_from(bound.as_millis()).unwrap_or(u64::MAX),
                "waiting for mail did not return; reconnecting"
            );
            inbox.drop_session();
            Ok(())
        });
        if let Err(e) = waited {
            // The session is gone; the next fetch reconnects.
            let delay = backoff.next_delay();
            warn!(error = %e, retry_in_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX), "waiting for mail");
            if shutdown.sleep_or_stop(delay).await {
                break;
            }
        }
    }

    info!("stopping: draining the outbox");
    notify(&[sd_notify::NotifyState::Stopping]);
    if stop_tx.send(true).is_err() {
        debug!("outbox worker already gone");
    }
    match worker.await {
        Ok(Ok(sent)) => {
            summary.sent += sent.sent;
            summary.retried += sent.retried;
            summary.failed += sent.failed;
        }
        Ok(Err(e)) => error!(error = %e, "outbox worker"),
        Err(e) => error!(error = %e, "outbox worker panicked"),
    }
    inbox.close().await;
    store.close().await;
    info!(?summary, "stopped");
    Ok(summary)
}

fn watchdog_interval() -> Duration {
    let mut usec = 0u64;
    if sd_notify::watchdog_enabled(false, &mut usec) && usec > 0 {
        Duration::from_micros(usec / 2).max(Duration::from_millis(100))
    } else {
        Duration::from_secs(10)
    }
}

async fn outbox_worker(
    store: Store,
    transport: Arc<Transport>,
    config: OutboxConfig,
    wake: Arc<Notify>,
    mut stop: watch::Receiver<bool>,
) -> Result<RunReport, StoreError> {
    let mut summary = RunReport::default();
    loop {
        flush_outbox(&store, &transport, &config, &mut summary).await?;
        if *stop.borrow() {
            return Ok(summary);
        }
        let wait = match store.next_due_in(now_secs()).await? {
            Some(secs) => Duration::from_secs(u64::try_from(secs).unwrap_or(0).max(1)),
            None => Duration::from_secs(60),
        };
        tokio::select! {
            () = wake.notified() => {}
            () = tokio::time::sleep(wait) => {}
            r = stop.changed() => {
                if r.is_err() {
                    return Ok(summary);
                }
            }
        }
    }
}
