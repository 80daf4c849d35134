//! `wildt serve`: wait for mail, take a message, decide it in one transaction,
//! tell the inbox, send the outbox. [IO]
//!
//! The stop request races only the waiting ([`Shutdown`]), never the work: a
//! message in hand is fully processed and committed before a stop is noticed.
//! The outbox worker runs beside the loop and drains what is due before it
//! stops.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{Notify, watch};
use tracing::{Instrument, debug, debug_span, error, info, info_span, warn};

use crate::config::QUARANTINE_AFTER;
use crate::config::{Config, OutboxConfig, Rules};
use crate::handle::{
    Handled, Incoming, Mode, Source, handle_group, handle_message_at, message_digest,
};
use crate::intake::IntakeConfig;
use crate::intake::order::{self, OrderKeys};
use crate::mail::imap::Backoff;
use crate::mail::{Inbound, Inbox, InboxError, InboxId, Transport, TransportError, Waiting};
use crate::shutdown::Shutdown;
use crate::store::{OutboxRow, Store, StoreError, failures, now_secs, outbox};

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
    /// Inbox messages whose handling failed, to be tried again.
    pub failed_attempts: u64,
    /// Inbox messages put in the quarantine.
    pub quarantined: u64,
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

/// Rows claimed at once (marked sent with one commit), and how long a claim
/// holds: long enough for every one of them to meet the SMTP command
/// timeout once, [`Transport::parallelism`] at a time. Over SMTP a claim is
/// [`CLAIM_ROUNDS`] rounds of the pool: the next claim, whose first half
/// is the newest due mail, follows soon, so a fresh reply does not wait
/// behind a long batch of a backlog. A file outbox takes
/// [`FILE_CLAIM_BATCH`].
const CLAIM_BATCH: i64 = 32;
/// Rows a file outbox claims at once: a file is written in microseconds,
/// and each claim and each commit of the sent marks waits for its turn at
/// the write lock behind the intake's group (up to [`GROUP_TIME`]): with
/// 32 a claim, a backlog of replies outgrew the outbox while the inbox was
/// drained.
const FILE_CLAIM_BATCH: i64 = 512;
const CLAIM_ROUNDS: i64 = 4;
const CLAIM_LEASE_SECS: i64 = 600;

/// How often an idle worker looks for mail queued by another process (the
/// CLI's `game new`, `outbox retry`): one indexed query.
const POLL: Duration = Duration::from_secs(2);

/// Who claims outbox rows: this process, told apart from a restarted one.
pub fn claim_owner() -> String {
    format!("pid:{}:{:08x}", std::process::id(), rand::random::<u32>())
}

/// Gives back the claims of processes of this machine that are gone (a
/// `kill -9` mid-send), so their rows need not wait for the lease to end.
async fn release_dead_claims(store: &Store) -> Result<(), StoreError> {
    for owner in store.outbox_claimants(now_secs()).await? {
        let alive = owner
            .strip_prefix("pid:")
            .and_then(|rest| rest.split(':').next())
            .and_then(|pid| pid.parse::<u32>().ok())
            .is_none_or(|pid| std::path::Path::new(&format!("/proc/{pid}")).exists());
        if !alive {
            info!(%owner, "outbox: releasing the claims of a process that is gone");
            store.release_claims(&owner).await?;
        }
    }
    Ok(())
}

/// How a flush ended.
#[derive(Debug)]
pub enum Flushed {
    /// Nothing due is left that this process may send.
    Done,
    /// The transport failed in a way that may pass (no relay, refused
    /// login, a full disk): the round stopped; wait before the next.
    TransportDown(TransportError),
}

/// Sends every due outbox row this process can claim, up to
/// [`Transport::parallelism`] mails in flight at once, and marks those sent
/// with one commit per claimed batch. Unless a send rate paces the mail,
/// while a batch is being sent the batch before it is marked and the next
/// one claimed (a claim never takes rows this process holds), so the
/// server is not kept waiting for either commit, each of which may wait
/// for the intake's turn at the write lock. Paced, a batch is marked as
/// soon as it is out and the next claimed after the pause.
/// A transient failure puts the row back with exponential backoff, lets no
/// further mail of the round start, and ends the round once the mails in
/// flight are done (the next rows would meet the same relay); a permanent
/// refusal of a recipient fails that row for good and tells the organiser.
pub async fn flush_outbox(
    store: &Store,
    transport: &mut Transport,
    config: &OutboxConfig,
    referee: &crate::config::RefereeConfig,
    owner: &str,
    summary: &mut RunReport,
) -> Result<Flushed, StoreError> {
    let rate = match &config.kind {
        crate::config::OutboxKind::Smtp(smtp) => smtp.send_rate,
        _ => None,
    };
    let batch = match transport {
        Transport::Smtp(_) => {
            (CLAIM_ROUNDS * i64::try_from(transport.parallelism()).unwrap_or(1)).min(CLAIM_BATCH)
        }
        _ => FILE_CLAIM_BATCH,
    };
    let batch = rate.map_or(batch, |r| batch.min(paced_claim(r)));
    let claim = || {
        let now = now_secs();
        store.claim_due_mail(now, batch, owner, now + CLAIM_LEASE_SECS)
    };
    // The batch sent last is marked in the transaction that claims the
    // next one: one wait for the write lock a batch, not two.
    let settle_and_claim = async |done: &[Tried], summary: &mut RunReport| {
        let now = now_secs();
        let rows = store
            .mark_sent_and_claim(&sent_ids(done), now, batch, owner, now + CLAIM_LEASE_SECS)
            .await?;
        settled(store, referee, done, summary).await?;
        Ok::<_, StoreError>(rows)
    };
    let mut rows = claim().await?;
    // The batch sent last, until it is marked.
    let mut unsettled: Option<Vec<Tried>> = None;
    loop {
        if rows.is_empty() {
            let Some(done) = unsettled.take() else {
                return Ok(Flushed::Done);
            };
            // Marked, and the mail queued while that batch was out claimed.
            rows = settle_and_claim(&done, summary).await?;
            continue;
        }
        let started = Instant::now();
        let sender: &Transport = transport;
        let (tried, next) = tokio::join!(send_batch(sender, rows), async {
            // Unpaced, the relay is what waits: the next batch is claimed
            // now. Under a send rate it is claimed after the pause (below),
            // so that it takes the mail queued meanwhile: claimed now, a
            // fresh reply would wait a whole paced batch (~0.2 s) longer.
            match (unsettled.take(), rate) {
                (Some(done), None) => settle_and_claim(&done, summary).await.map(Some),
                (None, None) => claim().await.map(Some),
                (Some(done), Some(_)) => {
                    settle(store, referee, &done, summary).await.map(|()| None)
                }
                (None, Some(_)) => Ok(None),
            }
        });
        let failed = tried
            .iter()
            .any(|(_, r)| matches!(r, Some(Err(e)) if !e.is_permanent()));
        if failed {
            // The round stops: this batch is recorded now, and the claims
            // not tried (this batch's and the next one's) are given back.
            settle(store, referee, &tried, summary).await?;
            let e = retry_later(store, config, tried, summary).await?;
            store.release_claims(owner).await?;
            if let Some(e) = e {
                if e.is_login_refused() {
                    // A rotated password is put in the file: read it again.
                    match Transport::open(config).await {
                        Ok(t) => *transport = t,
                        Err(e) => error!(error = %e, "outbox: cannot reopen the transport"),
                    }
                }
                return Ok(Flushed::TransportDown(e));
            }
            return Ok(Flushed::Done);
        }
        let handed = tried.iter().filter(|(_, r)| r.is_some()).count();
        // This batch went out but is not marked: it stays claimed until the
        // worker gives its claims back, and is sent again then.
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
                settle(store, referee, &tried, summary)
                    .await
                    .map_err(unmarked)?;
                if let Some(rate) = rate {
                    tokio::time::sleep(pace(handed, rate, started.elapsed())).await;
                }
                claim().await?
            }
            Err(e) => return Err(unmarked(e)),
        };
    }
}

/// A claimed row and what became of it: `None` when it was not tried (a
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
    store: &Store,
    referee: &crate::config::RefereeConfig,
    tried: &[Tried],
    summary: &mut RunReport,
) -> Result<(), StoreError> {
    store.mark_sent_many(&sent_ids(tried)).await?;
    settled(store, referee, tried, summary).await
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
    referee: &crate::config::RefereeConfig,
    tried: &[Tried],
    summary: &mut RunReport,
) -> Result<(), StoreError> {
    summary.sent += tried.iter().filter(|t| went_out(t)).count() as u64;
    for (row, result) in tried {
        match result {
            // No span for a mail sent: made for every mail, only to hold a
            // debug line, it was 1 % of wildt's instructions on the real
            // servers (the fields formatted for the log at info level).
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
        let delay = config
            .retry_initial
            .saturating_mul(1u32 << shift.min(16))
            .min(config.retry_max);
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

/// How many mails a claim takes under `[outbox] send_rate` (mails per
/// second): a quarter of a second's worth, at least one, so that the next
/// claim (half of it the newest heads of the recipients' queues) is never
/// far off.
fn paced_claim(rate: u32) -> i64 {
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
        crate::config::OutboxKind::Smtp(smtp) => smtp.password.as_ref().map_or_else(
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
    referee: &crate::config::RefereeConfig,
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

/// Handles one message in its own span, then tells the inbox it is done.
async fn handle_one(
    store: &Store,
    inbox: &mut Inbox,
    rules: &Rules,
    msg: &Inbound,
    summary: &mut RunReport,
) -> Result<(), DaemonError> {
    let source = Source::Inbox(msg.id.clone());
    let handled = handle_message_at(
        store,
        rules,
        &source,
        &msg.raw,
        msg.size,
        Mode::Commit,
        msg.arrived,
    )
    .instrument(message_span(&source))
    .await?;
    report(&source, &handled, summary);
    // Only now, with the outcome committed, is the inbox told.
    inbox.mark_done(&msg.id).await?;
    Ok(())
}

fn message_span(source: &Source) -> tracing::Span {
    info_span!("message", source = %source, message_id = tracing::field::Empty, game = tracing::field::Empty)
}

/// Logs what became of a message, in its own span, and counts it.
fn report(source: &Source, handled: &Handled, summary: &mut RunReport) {
    let span = message_span(source);
    let _entered = span.enter();
    match handled {
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
            // The player's own words stay out of `info`: the reading with
            // the text it quotes is for `debug` only.
            debug!(reading = ?intake.disposition, "read");
        }
    }
}

/// Most messages decided in one transaction. A group shares one commit (one
/// `fsync`), one begin and one wait for the outbox's turn at the write lock;
/// this and [`GROUP_TIME`] bound how long an idle inbox's first message
/// waits for the group's commit, and [`GROUP_BYTES`] what the group holds
/// in memory. With 64, those per-group waits were a third of a backlog's
/// time (10,000 first moves: 160 groups, 1.1 s of 3.3); with 256 the run
/// took 7.6 % less (BENCHMARKS.md, issue 17, twenty-fourth round).
pub const GROUP_MAX: usize = 256;

/// Most bytes of mail one group holds (each message counted as far as the
/// inbox reads it): 64 of the largest messages read at the default
/// `max_message_bytes`, what a group of at most 64 messages could hold. A
/// larger configured limit does not raise it: a burst of large mails makes
/// smaller groups ([`crate::intake::order::next_group_within`]).
pub const GROUP_BYTES: usize = 64 * (crate::intake::DEFAULT_MAX_MESSAGE_BYTES + 1);

/// A group is committed once it has taken this long, however few messages
/// it holds: the wait for a commit, and the work a crash can undo, stay
/// this small.
pub const GROUP_TIME: Duration = Duration::from_millis(50);

/// How often the public pages are refreshed while a backlog of mail lasts.
const PUBLISH_EVERY: Duration = Duration::from_secs(10);

/// Takes a group of messages: decides them in one transaction
/// ([`handle_group`]), a group at a time until all are taken, and tells the
/// inbox of each once its group is committed. If a group cannot be kept
/// (one message fails, the database is busy), nothing of it was recorded:
/// its messages are taken again one transaction each, where a failing
/// message is counted and, in the end, put in the quarantine alone.
/// The order keys of the listed messages, read once per message while it
/// waits, and the choice of the next group from them.
#[derive(Default)]
struct Order {
    keys: HashMap<InboxId, Option<OrderKeys>>,
    /// Messages read but not yet decided (a group cut short for fresh
    /// mail): not read again.
    read: HashMap<InboxId, Inbound>,
}

impl Order {
    /// Forgets the keys and bodies of messages no longer waiting.
    fn forget_all_but(&mut self, waiting: &[Waiting]) {
        let listed: HashSet<&InboxId> = waiting.iter().map(|w| &w.id).collect();
        self.keys.retain(|id, _| listed.contains(id));
        self.read.retain(|id, _| listed.contains(id));
    }

    /// Lists the inbox again and forgets what is no longer waiting.
    async fn relist(&mut self, inbox: &mut Inbox) -> Result<Vec<Waiting>, InboxError> {
        let waiting = inbox.list_waiting().await?;
        self.forget_all_but(&waiting);
        Ok(waiting)
    }

    /// Keeps the bodies of messages read but not decided.
    fn keep_read(&mut self, rest: Vec<Inbound>) {
        for m in rest {
            self.read.insert(m.id.clone(), m);
        }
    }

    /// The messages of `chunk` with their bodies, in its order: those kept
    /// from before, the others read from the inbox at once.
    async fn read(
        &mut self,
        inbox: &mut Inbox,
        chunk: &[Waiting],
    ) -> Result<Vec<Inbound>, InboxError> {
        let unread: Vec<Waiting> = chunk
            .iter()
            .filter(|w| !self.read.contains_key(&w.id))
            .cloned()
            .collect();
        let mut fresh: HashMap<InboxId, Inbound> = inbox
            .fetch_many(&unread)
            .await?
            .into_iter()
            .map(|m| (m.id.clone(), m))
            .collect();
        Ok(chunk
            .iter()
            .filter_map(|w| self.read.remove(&w.id).or_else(|| fresh.remove(&w.id)))
            .collect())
    }

    /// Takes the next group out of `waiting` ([`order::next_group`]), in the
    /// order to decide it; the rest stay, oldest first.
    fn next_group(&mut self, waiting: &mut Vec<Waiting>, intake: &IntakeConfig) -> Vec<Waiting> {
        for w in waiting.iter() {
            if !self.keys.contains_key(&w.id) {
                let keys = w
                    .headers
                    .as_deref()
                    .and_then(|h| order::order_keys(h, intake));
                self.keys.insert(w.id.clone(), keys);
            }
        }
        let keys: Vec<Option<&OrderKeys>> = waiting
            .iter()
            .map(|w| self.keys.get(&w.id).and_then(Option::as_ref))
            .collect();
        let sizes: Vec<usize> = waiting.iter().map(|w| w.size).collect();
        let picked = order::next_group_within(
            &keys,
            &sizes,
            intake.max_message_bytes.saturating_add(1),
            GROUP_MAX,
            GROUP_BYTES,
        );
        let mut next = picked.iter().copied().peekable();
        let mut group = Vec::with_capacity(picked.len());
        let mut rest = Vec::with_capacity(waiting.len() - picked.len());
        for (i, w) in waiting.drain(..).enumerate() {
            if next.peek() == Some(&i) {
                next.next();
                group.push(w);
            } else {
                rest.push(w);
            }
        }
        *waiting = rest;
        group
    }
}

async fn take_group(
    store: &Store,
    inbox: &mut Inbox,
    config: &Config,
    rules: &Rules,
    msgs: &[Inbound],
    summary: &mut RunReport,
    ping: &dyn Fn(),
) -> Result<Vec<Inbound>, DaemonError> {
    let mut rest = msgs;
    while !rest.is_empty() {
        if let [msg] = rest {
            take(store, inbox, config, rules, msg, summary).await?;
            return Ok(Vec::new());
        }
        let group: Vec<Incoming<'_>> = rest
            .iter()
            .map(|m| Incoming {
                source: Source::Inbox(m.id.clone()),
                raw: &m.raw,
                size: m.size,
                arrived: m.arrived,
            })
            .collect();
        match handle_group(store, rules, &group, GROUP_TIME, ping).await {
            Ok(handled) => {
                crate::failpoint::hit("group-committed", 1);
                for (m, h) in group.iter().zip(&handled) {
                    report(&m.source, h, summary);
                }
                // Only now, with the outcomes committed, is the inbox told,
                // of the whole group at once.
                let done: Vec<_> = rest[..handled.len()].iter().map(|m| m.id.clone()).collect();
                inbox.mark_done_all(&done).await?;
                rest = &rest[handled.len()..];
                // A group's time was spent and mail arrived meanwhile: the
                // rest goes back to the caller, which lists again, so the
                // fresh mail can join the next group.
                if !rest.is_empty() && inbox.mail_announced() {
                    ping();
                    return Ok(rest.to_vec());
                }
            }
            Err(e) => {
                let at =
                    e.at.and_then(|i| group.get(i))
                        .map(|m| m.source.to_string());
                warn!(error = %e, message = at.as_deref().unwrap_or("(the transaction)"),
                    "group of {} not kept; taking its messages one by one", group.len());
                for m in rest {
                    take(store, inbox, config, rules, m, summary).await?;
                    ping();
                }
                return Ok(Vec::new());
            }
        }
        ping();
    }
    Ok(Vec::new())
}

/// Takes one message: handles it, or, when that fails in a way that will
/// not pass by waiting (a damaged game row, a refused write), counts the
/// failure durably and, at the [`QUARANTINE_AFTER`]th, puts the message in
/// the quarantine and tells the organiser, so that one message never blocks
/// the inbox. Only a failure that may pass (a busy database, the inbox) is
/// returned: the caller waits and takes the message again.
async fn take(
    store: &Store,
    inbox: &mut Inbox,
    config: &Config,
    rules: &Rules,
    msg: &Inbound,
    summary: &mut RunReport,
) -> Result<(), DaemonError> {
    let error = match handle_one(store, inbox, rules, msg, summary).await {
        Err(DaemonError::Store(e)) if !e.is_transient() => e,
        other => return other,
    };
    let source = Source::Inbox(msg.id.clone()).to_string();
    let sha = message_digest(&msg.raw, msg.size);
    let now = now_secs();
    let mut tx = store.begin().await?;
    let attempts = failures::record(&mut tx, &sha, &source, &error.to_string(), now).await?;
    tx.commit().await.map_err(StoreError::from)?;
    if attempts < QUARANTINE_AFTER {
        summary.failed_attempts += 1;
        warn!(%source, error = %error, attempts, "message not handled; it is tried again");
        return Ok(());
    }
    inbox.quarantine(&msg.id, &config.quarantine).await?;
    // Headers only, read again here: what the organiser needs to find it.
    let intake = crate::intake::read_sized(&msg.raw, msg.size, &rules.intake);
    let mut tx = store.begin().await?;
    failures::mark_quarantined(&mut tx, &sha, now).await?;
    if let Some(organiser) = &rules.referee.organiser {
        let mail = crate::reply::quarantine_notice(
            organiser,
            &source,
            intake.message_id.as_deref(),
            intake.from.as_deref(),
            attempts,
            &error.to_string(),
            &config.quarantine,
        );
        match crate::mail::render::render(&mail, &rules.referee, None, &[]) {
            Ok(r) => outbox::enqueue(&mut tx, None, &mail, &r, &rules.referee.address, now).await?,
            Err(e) => warn!(error = %e, "organiser notice not rendered"),
        }
    }
    tx.commit().await.map_err(StoreError::from)?;
    summary.quarantined += 1;
    error!(
        %source,
        error = %error,
        attempts,
        folder = %config.quarantine,
        organiser_told = rules.referee.organiser.is_some(),
        "message could not be handled; put in the quarantine"
    );
    Ok(())
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
    let transport = Transport::open(&config.outbox)
        .await
        .map_err(DaemonError::Outbox)?;
    let owner = claim_owner();
    release_dead_claims(&store).await?;
    let mut summary = RunReport::default();
    let mut shutdown = Shutdown::new(shutdown);
    // Polled once now, the stop future installs its signal handlers (an
    // async fn does nothing until polled): from here on a SIGTERM asks for a
    // stop between two groups, instead of ending the process mid-group.
    if shutdown.requested() {
        store.close().await;
        return Ok(summary);
    }
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
        // The outbox is sent while the inbox is read, as when serving: the
        // replies of the first groups are on their way while the next are
        // decided. At the end the worker drains what is due and stops.
        let outbox = Outbox::start(Worker {
            store: store.clone(),
            transport,
            config: config.outbox.clone(),
            referee: config.referee.clone(),
            owner: owner.clone(),
            health: Arc::new(WorkerHealth::default()),
        });
        let wake = outbox.wake.clone();
        let mut order = Order::default();
        let taken = async {
            loop {
                let mut fetched = false;
                let mut waiting = order.relist(&mut inbox).await?;
                while !waiting.is_empty() {
                    let chunk = order.next_group(&mut waiting, &rules.intake);
                    let group = order.read(&mut inbox, &chunk).await?;
                    fetched |= !group.is_empty();
                    let rest = take_group(
                        &store,
                        &mut inbox,
                        &config,
                        &rules,
                        &group,
                        &mut summary,
                        &|| {},
                    )
                    .await?;
                    wake.notify_one();
                    let cut_short = !rest.is_empty();
                    order.keep_read(rest);
                    if cut_short || inbox.mail_announced() {
                        waiting = order.relist(&mut inbox).await?;
                    }
                }
                // Nothing left, or only entries that cannot be read.
                if !fetched {
                    break;
                }
                crate::publish::refresh(&store, &config.clock.rules, config.publish.as_ref()).await;
            }
            if crate::deadlines::run_due(&store, &rules, now_secs())
                .await?
                .forfeits
                > 0
            {
                crate::publish::refresh(&store, &config.clock.rules, config.publish.as_ref()).await;
            }
            Ok::<(), DaemonError>(())
        }
        .await;
        outbox.stop(&mut summary).await;
        taken?;
        store.release_claims(&owner).await?;
        inbox.close().await;
        store.close().await;
        info!(?summary, "done");
        return Ok(summary);
    }

    let health = Arc::new(WorkerHealth::default());
    let outbox = Outbox::start(Worker {
        store: store.clone(),
        transport,
        config: config.outbox.clone(),
        referee: config.referee.clone(),
        owner,
        health: health.clone(),
    });
    let wake = outbox.wake.clone();
    let ping = || watchdog_ping(&health, config.outbox.stall_after);

    let watchdog = watchdog_interval();
    notify(&[
        sd_notify::NotifyState::Ready,
        sd_notify::NotifyState::Status("waiting for mail"),
    ]);
    info!("ready");

    let mut deadlines = crate::deadlines::Schedule::default();
    let mut order = Order::default();
    let mut unpublished = false;
    let mut last_published = Instant::now();
    'serve: loop {
        ping();
        let mut waiting = match inbox.list_waiting().await {
            Ok(w) => {
                backoff.reset();
                w
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
        // The clock's deadlines: when one falls, after mail (a move moves
        // them), and every minute (the organiser's commands run elsewhere).
        let now = now_secs();
        if deadlines.is_due(now) {
            match crate::deadlines::run_due(&store, &rules, now).await {
                Ok(due) => {
                    if due.forfeits > 0 {
                        crate::publish::refresh(
                            &store,
                            &config.clock.rules,
                            config.publish.as_ref(),
                        )
                        .await;
                    }
                    wake.notify_one();
                    deadlines.scanned(now, due.next_at);
                }
                Err(e) => error!(error = %e, "clock deadlines"),
            }
        }
        // A group at a time: a flood holds at most GROUP_MAX messages and
        // GROUP_BYTES of mail in memory, and the watchdog hears from the
        // loop between any two. Mail
        // is taken in order of arrival, except that a fresh message may go
        // before older ones of other games and senders (`intake::order`):
        // mail announced meanwhile is listed again between two groups.
        let mut failed = false;
        let listed_any = !waiting.is_empty();
        order.forget_all_but(&waiting);
        while !waiting.is_empty() {
            ping();
            let chunk = order.next_group(&mut waiting, &rules.intake);
            let group = match order.read(&mut inbox, &chunk).await {
                Ok(group) => group,
                Err(e) => {
                    error!(error = %e, "inbox");
                    failed = true;
                    break;
                }
            };
            if group.is_empty() {
                continue;
            }
            let mut cut_short = false;
            match take_group(
                &store,
                &mut inbox,
                &config,
                &rules,
                &group,
                &mut summary,
                &ping,
            )
            .await
            {
                Ok(rest) => {
                    cut_short = !rest.is_empty();
                    order.keep_read(rest);
                }
                Err(e) => {
                    // A database or inbox failure: the messages not yet told
                    // stay waiting and are taken again on the next round,
                    // after a pause.
                    error!(error = %e, "messages not handled");
                    failed = true;
                }
            }
            wake.notify_one();
            unpublished = true;
            // Between groups, never during one: has a stop been asked for?
            if shutdown.requested() {
                break 'serve;
            }
            if failed {
                break;
            }
            if cut_short || inbox.mail_announced() {
                match order.relist(&mut inbox).await {
                    Ok(w) => waiting = w,
                    Err(e) => {
                        error!(error = %e, "inbox");
                        failed = true;
                        break;
                    }
                }
            }
        }
        if failed {
            if shutdown.sleep_or_stop(backoff.next_delay()).await {
                break;
            }
            continue;
        }
        if listed_any {
            deadlines.mail_handled();
            let status = format!("{} messages handled", summary.messages);
            notify(&[sd_notify::NotifyState::Status(&status)]);
            // The public pages follow the games, but not after every group
            // of a burst: when the inbox is empty, or every few seconds.
            if unpublished && last_published.elapsed() >= PUBLISH_EVERY {
                crate::publish::refresh(&store, &config.clock.rules, config.publish.as_ref()).await;
                unpublished = false;
                last_published = Instant::now();
            }
            continue;
        }
        if unpublished {
            crate::publish::refresh(&store, &config.clock.rules, config.publish.as_ref()).await;
            unpublished = false;
            last_published = Instant::now();
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
    outbox.stop(&mut summary).await;
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

/// Whether the outbox worker is getting anywhere: since when its rounds
/// have failed, and why.
#[derive(Default)]
struct WorkerHealth {
    failing: std::sync::Mutex<Option<(Instant, String)>>,
    /// Told once per stall, not at every ping.
    reported: std::sync::atomic::AtomicBool,
}

impl WorkerHealth {
    fn ok(&self) {
        *self.failing.lock().unwrap_or_else(|p| p.into_inner()) = None;
        if self
            .reported
            .swap(false, std::sync::atomic::Ordering::Relaxed)
        {
            info!("outbox worker is making progress again; pinging the watchdog");
        }
    }

    fn failed(&self, why: String) {
        let mut failing = self.failing.lock().unwrap_or_else(|p| p.into_inner());
        match &mut *failing {
            Some((_, reason)) => *reason = why,
            None => *failing = Some((Instant::now(), why)),
        }
    }

    /// Why the worker has been stuck for longer than `limit`, if it has.
    fn stalled(&self, limit: Duration) -> Option<(Duration, String)> {
        let failing = self.failing.lock().unwrap_or_else(|p| p.into_inner());
        failing
            .as_ref()
            .map(|(since, why)| (since.elapsed(), why.clone()))
            .filter(|(for_, _)| *for_ >= limit)
    }
}

/// Pings the watchdog unless the outbox worker has been stuck for longer
/// than `stall_after`: then systemd is left to restart the daemon, and the
/// journal says why.
fn watchdog_ping(health: &WorkerHealth, stall_after: Duration) {
    match health.stalled(stall_after) {
        None => notify(&[sd_notify::NotifyState::Watchdog]),
        Some((for_, why)) => {
            if !health
                .reported
                .swap(true, std::sync::atomic::Ordering::Relaxed)
            {
                error!(
                    stalled_secs = for_.as_secs(),
                    error = %why,
                    "outbox worker has made no progress for {} s; no longer pinging the watchdog so that systemd restarts wildt",
                    for_.as_secs()
                );
            }
            let status = format!("outbox stuck: {why}");
            notify(&[sd_notify::NotifyState::Status(&status)]);
        }
    }
}

/// What the outbox worker owns.
struct Worker {
    store: Store,
    transport: Transport,
    config: OutboxConfig,
    referee: crate::config::RefereeConfig,
    owner: String,
    health: Arc<WorkerHealth>,
}

/// The outbox worker running beside the inbox: woken after each group,
/// asked to stop (it then drains what is due) at the end.
struct Outbox {
    wake: Arc<Notify>,
    stop: watch::Sender<bool>,
    worker: tokio::task::JoinHandle<RunReport>,
}

impl Outbox {
    fn start(w: Worker) -> Outbox {
        let (stop, stop_rx) = watch::channel(false);
        let wake = Arc::new(Notify::new());
        let worker = tokio::spawn(supervise_outbox(w, wake.clone(), stop_rx));
        Outbox { wake, stop, worker }
    }

    /// Stops the worker once it has drained what is due, and adds what it
    /// sent to `summary`.
    async fn stop(self, summary: &mut RunReport) {
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
    let (store, config, referee, owner, health) = (
        w.store.clone(),
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
                    store: store.clone(),
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

/// Free pages kept in the database file (1 MiB), and given back per idle
/// round of the outbox worker (8 MiB: a few milliseconds of the write lock).
const RECLAIM_KEEP: i64 = 256;
const RECLAIM_PAGES: i64 = 2048;

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
    // After a database error in a flush, rows this process claimed may be
    // left claimed (a batch sent but not marked): a claim does not take
    // its owner's rows, so they are given back before the next flush, and
    // sent again.
    let mut claims_left = false;
    loop {
        let stopping = *stop.borrow();
        if claims_left && give_back_claims(&w.store, &w.owner).await {
            claims_left = false;
        }
        // The idle poll is a read: claiming takes the write lock, which the
        // message transactions need, so it is taken only when mail is due.
        let due = match w.store.next_due_in(now_secs()).await {
            Ok(next) => next == Some(0),
            // Let the flush meet (and report) the error.
            Err(_) => true,
        };
        let flushed = if due || stopping {
            flush_outbox(
                &w.store,
                &mut w.transport,
                &w.config,
                &w.referee,
                &w.owner,
                &mut summary,
            )
            .await
        } else {
            Ok(Flushed::Done)
        };
        let wait = match flushed {
            Ok(Flushed::Done) => {
                store_backoff.reset();
                relay_backoff.reset();
                w.health.ok();
                if stopping {
                    reclaim(&w.store, true).await;
                    break;
                }
                match w.store.next_due_in(now_secs()).await {
                    Ok(Some(secs)) => Duration::from_secs(u64::try_from(secs).unwrap_or(0))
                        .clamp(Duration::from_millis(200), POLL),
                    // Nothing left to send: only now, not between the
                    // groups of a burst, are free pages given back.
                    Ok(None) => {
                        reclaim(&w.store, false).await;
                        POLL
                    }
                    Err(e) => {
                        warn!(error = %e, "outbox: cannot read when mail is next due");
                        POLL
                    }
                }
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
                claims_left = true;
                let delay = store_backoff.next_delay();
                error!(error = %e, retry_in_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX), "outbox: database error; retrying");
                w.health.failed(e.to_string());
                if stopping {
                    // Draining at shutdown: one more try, then the rest
                    // waits for the next start.
                    tokio::time::sleep(delay.min(Duration::from_secs(2))).await;
                    give_back_claims(&w.store, &w.owner).await;
                    match flush_outbox(
                        &w.store,
                        &mut w.transport,
                        &w.config,
                        &w.referee,
                        &w.owner,
                        &mut summary,
                    )
                    .await
                    {
                        Ok(_) => {}
                        Err(e) => {
                            error!(error = %e, "outbox: not drained at shutdown; the rest is sent after the next start")
                        }
                    }
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
    give_back_claims(&w.store, &w.owner).await;
    summary
}

/// Gives back the outbox rows `owner` holds claimed; whether it could (if
/// not, said in the log: they are claimed again once given back or once
/// their lease runs out).
async fn give_back_claims(store: &Store, owner: &str) -> bool {
    match store.release_claims(owner).await {
        Ok(()) => true,
        Err(e) => {
            warn!(error = %e, "outbox: own claims not given back; sent once given back or their lease runs out");
            false
        }
    }
}

#[cfg(test)]
mod pacing_tests {
    use super::*;

    /// Under a send rate, a claim is a quarter of a second's worth of mail
    /// (at least one), and after handing mails over the worker waits out
    /// what is left of the time they are allowed: 50 at 100 a second take
    /// half a second however fast the server took them.
    #[test]
    fn a_send_rate_sizes_the_claims_and_spaces_them() {
        assert_eq!(paced_claim(100), 25);
        assert_eq!(paced_claim(3), 1);
        assert_eq!(
            pace(50, 100, Duration::from_millis(100)),
            Duration::from_millis(400)
        );
        assert_eq!(pace(50, 100, Duration::from_millis(700)), Duration::ZERO);
        assert_eq!(pace(0, 100, Duration::ZERO), Duration::ZERO);
        assert_eq!(pace(1, 1, Duration::ZERO), Duration::from_secs(1));
    }
}
