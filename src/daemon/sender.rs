//! The outbox's sender: leases the mail that is due, hands it to the
//! transport a batch at a time, and records what became of each mail. [IO]
//!
//! [`flush_outbox`] sends until nothing due is left; the worker
//! ([`super::worker`]) calls it whenever mail is due, beside the loop.

use std::time::{Duration, Instant};

use tracing::{Instrument, debug, debug_span, error, info, info_span, warn};

use super::RunReport;
use super::backoff::Backoff;
use super::lease::Leases;
use crate::config::{OutboxConfig, OutboxKind, RefereeConfig};
use crate::mail::{Transport, TransportError};
use crate::store::{OutboxRow, Store, StoreError, now_secs};

/// Rows leased at once (marked sent with one commit), and how long a lease
/// holds: long enough for every one of them to meet the SMTP command
/// timeout once, [`Transport::parallelism`] at a time. Over SMTP a lease is
/// [`LEASE_ROUNDS`] rounds of the pool: the next lease, whose first half
/// is the newest due mail, follows soon, so a fresh reply does not wait
/// behind a long batch of a backlog. A file outbox takes
/// [`FILE_LEASE_BATCH`].
const LEASE_BATCH: i64 = 32;
/// Rows a file outbox leases at once: a file is written in microseconds,
/// and each lease and each commit of the sent marks waits for its turn at
/// the write lock behind the intake's group (up to
/// [`super::GROUP_TIME`]): with 32 a lease, a backlog of replies outgrows
/// the outbox while the inbox is drained.
const FILE_LEASE_BATCH: i64 = 512;
const LEASE_ROUNDS: i64 = 4;
const LEASE_SECS: i64 = 600;

/// Batches this process has started to send, for the crash points
/// `batch-leased` and `batch-sent` (see [`crate::failpoint`]).
static BATCHES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How a flush ended.
#[derive(Debug)]
pub enum Flushed {
    /// Nothing due is left that this process may send.
    Done,
    /// The transport failed in a way that may pass (no relay, refused
    /// login, a full disk): the round stopped; wait before the next.
    TransportDown(TransportError),
}

/// What one flush works with.
struct Flush<'a> {
    leases: &'a Leases,
    config: &'a OutboxConfig,
    referee: &'a RefereeConfig,
    owner: &'a str,
    /// Rows a lease takes.
    batch: i64,
    /// `[outbox] send_rate`: mails a second at most.
    rate: Option<u32>,
}

impl Flush<'_> {
    fn store(&self) -> &Store {
        self.leases.store()
    }

    /// Leases the next batch.
    async fn lease(&self) -> Result<Vec<OutboxRow>, StoreError> {
        let now = now_secs();
        let until = now + LEASE_SECS;
        self.leases
            .lease_due(now, self.batch, self.owner, until)
            .await
    }

    /// Marks the batch sent last in the transaction that leases the next
    /// one (one wait for the write lock a batch, not two), then records
    /// the rest of it.
    async fn settle_and_lease(
        &self,
        done: &[Tried],
        summary: &mut RunReport,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        let now = now_secs();
        let until = now + LEASE_SECS;
        let sent = sent_ids(done);
        let rows = self
            .leases
            .mark_sent_and_lease(&sent, now, self.batch, self.owner, until)
            .await
            .inspect_err(|_| self.leases.remember_unmarked(&sent))?;
        settled(self.store(), self.referee, done, summary).await?;
        Ok(rows)
    }

    /// What is done while a batch is being sent: the batch before it
    /// (`unsettled`) is marked and, unpaced, the next one leased. Unpaced,
    /// the relay is what waits: the next batch is leased now. Under a send
    /// rate it is leased after the pause ([`flush_outbox`]), so that it
    /// takes the mail queued meanwhile: leased now, a fresh reply would
    /// wait a whole paced batch (~0.2 s) longer.
    async fn meanwhile(
        &self,
        unsettled: Option<Vec<Tried>>,
        summary: &mut RunReport,
    ) -> Result<Option<Vec<OutboxRow>>, StoreError> {
        match (unsettled, self.rate) {
            (Some(done), None) => self.settle_and_lease(&done, summary).await.map(Some),
            (None, None) => self.lease().await.map(Some),
            (Some(done), Some(_)) => settle(self.leases, self.referee, &done, summary)
                .await
                .map(|()| None),
            (None, Some(_)) => Ok(None),
        }
    }

    /// Ends the round after a transient failure in `tried`: the batch is
    /// recorded now, and the leases not tried (this batch's and the next
    /// one's) are given back. A refused login reopens the transport: a
    /// rotated password is put in the file, which is read again.
    async fn stop_round(
        &self,
        transport: &mut Transport,
        tried: Vec<Tried>,
        summary: &mut RunReport,
    ) -> Result<Flushed, StoreError> {
        settle(self.leases, self.referee, &tried, summary).await?;
        let e = retry_later(self.store(), self.config, tried, summary).await?;
        self.store().release_leases(self.owner).await?;
        let Some(e) = e else {
            return Ok(Flushed::Done);
        };
        if e.is_login_refused() {
            match Transport::open(self.config).await {
                Ok(t) => *transport = t,
                Err(e) => error!(error = %e, "outbox: cannot reopen the transport"),
            }
        }
        Ok(Flushed::TransportDown(e))
    }
}

/// Sends every due outbox row this process can lease, up to
/// [`Transport::parallelism`] mails in flight at once, and marks those sent
/// with one commit per leased batch. Unless a send rate paces the mail,
/// while a batch is being sent the batch before is marked and the next
/// one leased (a lease never takes rows this process holds), so the
/// server is not kept waiting for either commit, each of which may wait
/// for the intake's turn at the write lock. Paced, a batch is marked as
/// soon as it is out and the next leased after the pause.
/// A transient failure puts the row back with exponential backoff, lets no
/// further mail of the round start, and ends the round once the mails in
/// flight are done (the next rows would meet the same relay); a permanent
/// refusal of a recipient fails that row for good and tells the organiser.
pub async fn flush_outbox(
    leases: &Leases,
    transport: &mut Transport,
    config: &OutboxConfig,
    referee: &RefereeConfig,
    owner: &str,
    summary: &mut RunReport,
) -> Result<Flushed, StoreError> {
    let rate = match &config.kind {
        OutboxKind::Smtp(smtp) => smtp.send_rate,
        _ => None,
    };
    let batch = match transport {
        Transport::Smtp(..) => {
            (LEASE_ROUNDS * i64::try_from(transport.parallelism()).unwrap_or(1)).min(LEASE_BATCH)
        }
        _ => FILE_LEASE_BATCH,
    };
    let batch = rate.map_or(batch, |r| batch.min(paced_lease(r)));
    let f = Flush {
        leases,
        config,
        referee,
        owner,
        batch,
        rate,
    };
    let mut rows = f.lease().await?;
    // The batch sent last, until it is marked.
    let mut unsettled: Option<Vec<Tried>> = None;
    loop {
        if rows.is_empty() {
            let Some(done) = unsettled.take() else {
                return Ok(Flushed::Done);
            };
            // Marked, and the mail queued while that batch was out leased.
            rows = f.settle_and_lease(&done, summary).await?;
            continue;
        }
        // Mail a process that died may have sent is looked for first.
        rows = super::receipts::sort_out(f.store(), config.receipts.as_ref(), rows).await?;
        if rows.is_empty() {
            continue;
        }
        let batch_no = BATCHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        crate::failpoint::hit("batch-leased", batch_no);
        let started = Instant::now();
        let sender: &Transport = transport;
        let (tried, next) = tokio::join!(
            send_batch(sender, rows),
            f.meanwhile(unsettled.take(), summary)
        );
        // The relay took the batch; nothing of it is marked sent yet.
        crate::failpoint::hit("batch-sent", batch_no);
        let failed = tried
            .iter()
            .any(|(_, r)| matches!(r, Some(Err(e)) if !e.is_permanent()));
        if failed {
            return f.stop_round(transport, tried, summary).await;
        }
        let handed = tried.iter().filter(|(_, r)| r.is_some()).count();
        // This batch went out but is not marked: it stays leased until the
        // worker gives its leases back, and is sent again then.
        let unmarked = |e: StoreError| {
            warn!(error = %e, sent = handed, "outbox: a batch sent but not marked");
            e
        };
        rows = match next {
            Ok(Some(rows)) => {
                unsettled = Some(tried);
                rows
            }
            // Paced: the relay is not what waits, so the batch is marked
            // at once, as its mails are handed over.
            Ok(None) => {
                settle(f.leases, referee, &tried, summary)
                    .await
                    .map_err(unmarked)?;
                if let Some(rate) = rate {
                    tokio::time::sleep(pace(handed, rate, started.elapsed())).await;
                }
                f.lease().await?
            }
            // The batch before is not marked (remembered by the failed
            // mark) and neither is this one, handed over meanwhile.
            Err(e) => {
                f.leases.remember_unmarked(&sent_ids(&tried));
                return Err(unmarked(e));
            }
        };
    }
}

/// A leased row and what became of it: `None` when it was not tried (a
/// transient failure earlier in the batch stopped the round).
type Tried = (OutboxRow, Option<Result<(), TransportError>>);

/// Hands the mails of `rows` to the transport, up to its parallelism at
/// once; after a transient failure no further mail starts.
async fn send_batch(sender: &Transport, rows: Vec<OutboxRow>) -> Vec<Tried> {
    use futures::StreamExt as _;
    use std::sync::atomic::{AtomicBool, Ordering};
    if let Transport::File(dir) = sender {
        // The file outbox writes the whole batch in one blocking call.
        let mut rows = rows;
        let mails = rows
            .iter_mut()
            .map(|r| (r.message_id.clone(), std::mem::take(&mut r.raw)))
            .collect();
        let written = crate::mail::transport::write_files(dir, mails).await;
        return rows.into_iter().zip(written).collect();
    }
    let down = AtomicBool::new(false);
    futures::stream::iter(rows)
        .map(|row| {
            let down = &down;
            async move {
                if down.load(Ordering::Relaxed) {
                    return (row, None);
                }
                // A debug span: what is logged inside a send is debug, and an
                // info span formats its fields for every mail at info level.
                let span = debug_span!("send", message_id = %row.message_id, to = %row.recipient);
                // Boxed: a send's state is kilobytes, and the future around
                // it is moved whole into the set of mails in flight (three
                // copies of 8 KB a mail otherwise).
                let sent =
                    Box::pin(sender.send(&row.message_id, &row.sender, &row.recipient, &row.raw))
                        .instrument(span)
                        .await;
                if matches!(&sent, Err(e) if !e.is_permanent()) {
                    down.store(true, Ordering::Relaxed);
                }
                (row, Some(sent))
            }
        })
        .buffered(sender.parallelism())
        .collect()
        .await
}

/// Records what is final of a sent batch: the mails that went out, marked
/// sent in one commit, and those refused for good, failed and reported to
/// the organiser. Transient failures are [`retry_later`]'s.
async fn settle(
    leases: &Leases,
    referee: &RefereeConfig,
    tried: &[Tried],
    summary: &mut RunReport,
) -> Result<(), StoreError> {
    let sent = sent_ids(tried);
    leases
        .store()
        .mark_sent_many(&sent)
        .await
        .inspect_err(|_| leases.remember_unmarked(&sent))?;
    settled(leases.store(), referee, tried, summary).await
}

/// The ids of the mails of `tried` that went out.
fn sent_ids(tried: &[Tried]) -> Vec<i64> {
    tried
        .iter()
        .filter(|t| went_out(t))
        .map(|(row, _)| row.id)
        .collect()
}

fn went_out((_, result): &Tried) -> bool {
    matches!(result, Some(Ok(())))
}

/// The rest of [`settle`] once the mails that went out are marked: they
/// are counted, and those refused for good failed and reported.
async fn settled(
    store: &Store,
    referee: &RefereeConfig,
    tried: &[Tried],
    summary: &mut RunReport,
) -> Result<(), StoreError> {
    summary.sent += tried.iter().filter(|t| went_out(t)).count() as u64;
    for (row, result) in tried {
        match result {
            // No span for a mail sent: made for every mail, only to hold a
            // debug line, it would cost 1 % of wildt's instructions on the
            // real servers (the fields formatted for the log at info level).
            Some(Ok(())) => debug!(message_id = %row.message_id, to = %row.recipient, "sent"),
            Some(Err(e)) if e.is_permanent() => {
                let span = send_span(row);
                store.mark_failed(row.id, &e.to_string()).await?;
                summary.failed += 1;
                span.in_scope(|| warn!(error = %e, "recipient refused for good; not retried"));
                tell_organiser(store, referee, row.id, e)
                    .instrument(span.clone())
                    .await?;
            }
            // Not tried, or to be tried again: the caller's.
            None | Some(Err(_)) => {}
        }
    }
    Ok(())
}

/// The span of what is logged at info level or above about one mail.
fn send_span(row: &OutboxRow) -> tracing::Span {
    info_span!("send", message_id = %row.message_id, to = %row.recipient)
}

/// Puts the rows of `tried` that failed transiently back with exponential
/// backoff; the first such failure.
async fn retry_later(
    store: &Store,
    config: &OutboxConfig,
    tried: Vec<Tried>,
    summary: &mut RunReport,
) -> Result<Option<TransportError>, StoreError> {
    let mut first = None;
    for (row, result) in tried {
        let Some(Err(e)) = result else { continue };
        if e.is_permanent() {
            continue;
        }
        let shift = u32::try_from(row.attempts.clamp(0, 20)).unwrap_or(20);
        let delay = Backoff::new(config.retry_initial, config.retry_max).bound(shift.min(16));
        let next = now_secs() + i64::try_from(delay.as_secs()).unwrap_or(i64::MAX);
        store.mark_retry(row.id, next, &e.to_string()).await?;
        summary.retried += 1;
        send_span(&row).in_scope(|| {
            if e.is_login_refused() {
                let file = password_file(config);
                error!(error = %e, password_file = %file, retry_in_secs = delay.as_secs(),
                    "SMTP login refused: check the password file {file}; the file is read again before the next try");
            } else {
                warn!(error = %e, retry_in_secs = delay.as_secs(), "transient failure");
            }
        });
        if first.is_none() {
            first = Some(e);
        }
    }
    Ok(first)
}

/// How many mails a lease takes under `[outbox] send_rate` (mails per
/// second): a quarter of a second's worth, at least one, so that the next
/// lease (half of it the newest heads of the recipients' queues) is never
/// far off.
fn paced_lease(rate: u32) -> i64 {
    i64::from(rate / 4).max(1)
}

/// How long to wait after handing `tried` mails to the server in `took`
/// so that no more than `rate` a second go out.
fn pace(tried: usize, rate: u32, took: Duration) -> Duration {
    let due = Duration::from_secs_f64(tried as f64 / f64::from(rate.max(1)));
    due.saturating_sub(took)
}

fn password_file(config: &OutboxConfig) -> String {
    match &config.kind {
        OutboxKind::Smtp(smtp) => smtp.password.as_ref().map_or_else(
            || "(none: outbox.password_file is not set)".to_owned(),
            |p| p.path().display().to_string(),
        ),
        _ => "(none)".to_owned(),
    }
}

/// A mail to a player failed for good: queue a notice to the organiser, if
/// one is configured (never for a notice to the organiser itself).
async fn tell_organiser(
    store: &Store,
    referee: &RefereeConfig,
    row: i64,
    error: &TransportError,
) -> Result<(), StoreError> {
    let Some(organiser) = &referee.organiser else {
        info!("no [referee] organiser configured: nobody to tell of the failed mail");
        return Ok(());
    };
    match crate::organise::tell_organiser_of_failure(
        store,
        referee,
        organiser,
        row,
        &error.to_string(),
    )
    .await
    {
        Ok(true) => info!(%organiser, "organiser told of the failed mail"),
        Ok(false) => debug!("the failed mail was the organiser's own; not told again"),
        Err(crate::organise::OrganiseError::Store(e)) => return Err(e),
        Err(e) => error!(error = %e, "organiser notice not queued"),
    }
    Ok(())
}

#[cfg(test)]
mod pacing_tests {
    use super::*;

    /// Under a send rate, a lease is a quarter of a second's worth of mail
    /// (at least one), and after handing mails over the worker waits out
    /// what is left of the time they are allowed: 50 at 100 a second take
    /// half a second however fast the server took them.
    #[test]
    fn a_send_rate_sizes_the_leases_and_spaces_them() {
        assert_eq!(paced_lease(100), 25);
        assert_eq!(paced_lease(3), 1);
        assert_eq!(
            pace(50, 100, Duration::from_millis(100)),
            Duration::from_millis(400)
        );
        assert_eq!(pace(50, 100, Duration::from_millis(700)), Duration::ZERO);
        assert_eq!(pace(0, 100, Duration::ZERO), Duration::ZERO);
        assert_eq!(pace(1, 1, Duration::ZERO), Duration::from_secs(1));
    }
}
