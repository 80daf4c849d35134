//! The loop: takes the inbox's mail a group at a time, decides each group
//! in one transaction, tells the inbox, and wakes the sender. `serve` and
//! `serve --once` run the same body ([`Loop::take_waiting`]); `serve`
//! also waits for mail, runs the clocks' deadlines and keeps systemd told.
//! [IO]
//!
//! The stop request races only the waiting ([`Shutdown`]), never the work: a
//! message in hand is fully processed and committed before a stop is noticed.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::time::{Duration, Instant};

use tokio::sync::Notify;
use tracing::{Instrument, debug, error, info, info_span, warn};

use super::backoff::{Backoff, millis};
use super::lease::Leases;
use super::systemd::{notify, watchdog_interval};
use super::{DaemonError, RunReport, quarantine};
use crate::config::{Config, Rules};
use crate::handle::{Handled, Incoming, Mode, Source, handle_group, handle_message_at};
use crate::intake::IntakeConfig;
use crate::intake::order::{self, OrderKeys};
use crate::mail::{Inbound, Inbox, InboxError, InboxId, Waiting};
use crate::shutdown::Shutdown;
use crate::store::{Store, now_secs};

/// Most messages decided in one transaction. A group shares one commit (one
/// `fsync`), one begin and one wait for the outbox's turn at the write lock;
/// this and [`GROUP_TIME`] bound how long an idle inbox's first message
/// waits for the group's commit, and [`GROUP_BYTES`] what the group holds
/// in memory. With 64, those per-group waits are a third of a backlog's
/// time (10,000 first moves: 160 groups, 1.1 s of 3.3); with 256 the run
/// takes 7.6 % less.
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

/// What taking the inbox's mail works with, the same under `serve` and
/// `serve --once`.
pub(super) struct Loop<'a> {
    pub(super) store: &'a Store,
    /// The sender's side: the bodies of committed mail are handed to it.
    pub(super) leases: &'a Leases,
    pub(super) config: &'a Config,
    pub(super) rules: &'a Rules,
    /// Wakes the outbox worker after each group.
    pub(super) wake: &'a Notify,
    /// Tells the watchdog the loop is alive (nothing under `--once`).
    pub(super) ping: &'a dyn Fn(),
    /// Whether this daemon leads: only the leader runs the deadlines and
    /// publishes the site (see `leader`).
    pub(super) leader: &'a super::leader::Leadership,
}

/// A failure that ended a round: the inbox's, or the messages' (a database
/// or inbox failure while taking a group).
pub(super) struct Failed {
    what: &'static str,
    pub(super) error: DaemonError,
}

impl Failed {
    fn inbox(e: InboxError) -> Failed {
        Failed {
            what: "inbox",
            error: e.into(),
        }
    }
}

/// What a round of [`Loop::take_waiting`] came to.
#[derive(Default)]
pub(super) struct Round {
    /// Some message was read.
    fetched: bool,
    /// Some group was taken, or tried: the public pages may be behind.
    taken: bool,
    /// A stop was asked for between two groups.
    stop: bool,
    /// The round ended early; the messages not yet told stay waiting.
    failed: Option<Failed>,
}

/// The order keys of the listed messages, read once per message while it
/// waits, and the choice of the next group from them.
#[derive(Default)]
pub(super) struct Order {
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

impl Loop<'_> {
    /// The loop's body, under `serve` and `serve --once` alike: takes the
    /// messages of `waiting` a group at a time until none is left. A flood
    /// holds at most [`GROUP_MAX`] messages and [`GROUP_BYTES`] of mail in
    /// memory, and the watchdog hears from the loop between any two
    /// groups. Mail is taken in order of arrival, except that a fresh
    /// message may go before older ones of other games and senders
    /// (`intake::order`): mail announced meanwhile is listed again between
    /// two groups. Between groups, never during one, `stop_asked` is asked
    /// whether to stop.
    pub(super) async fn take_waiting(
        &self,
        inbox: &mut Inbox,
        order: &mut Order,
        mut waiting: Vec<Waiting>,
        stop_asked: &mut dyn FnMut() -> bool,
        summary: &mut RunReport,
    ) -> Round {
        let mut round = Round::default();
        order.forget_all_but(&waiting);
        while !waiting.is_empty() {
            (self.ping)();
            let chunk = order.next_group(&mut waiting, &self.rules.intake);
            let group = match order.read(inbox, &chunk).await {
                Ok(group) => group,
                Err(e) => {
                    round.failed = Some(Failed::inbox(e));
                    break;
                }
            };
            let mut cut_short = false;
            if !group.is_empty() {
                round.fetched = true;
                round.taken = true;
                match self.take_group(inbox, &group, summary).await {
                    Ok(rest) => {
                        cut_short = !rest.is_empty();
                        order.keep_read(rest);
                    }
                    Err(error) => {
                        round.failed = Some(Failed {
                            what: "messages not handled",
                            error,
                        });
                    }
                }
                self.wake.notify_one();
                if stop_asked() {
                    round.stop = true;
                    break;
                }
                if round.failed.is_some() {
                    break;
                }
            }
            if cut_short || inbox.mail_announced() {
                match order.relist(inbox).await {
                    Ok(w) => waiting = w,
                    Err(e) => {
                        round.failed = Some(Failed::inbox(e));
                        break;
                    }
                }
            }
        }
        round
    }

    /// Takes a group of messages: decides them in one transaction
    /// ([`handle_group`]), a group at a time until all are taken, and tells
    /// the inbox of each once its group is committed. If a group cannot be
    /// kept (one message fails, the database is busy), nothing of it was
    /// recorded: its messages are taken again one transaction each, where a
    /// failing message is counted and, in the end, put in the quarantine
    /// alone. Returns the messages read but not taken when a group's time
    /// was spent and mail arrived meanwhile.
    async fn take_group(
        &self,
        inbox: &mut Inbox,
        msgs: &[Inbound],
        summary: &mut RunReport,
    ) -> Result<Vec<Inbound>, DaemonError> {
        let mut rest = msgs;
        while !rest.is_empty() {
            if let [msg] = rest {
                self.take(inbox, msg, summary).await?;
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
            match handle_group(
                self.store,
                self.rules,
                &group,
                crate::failpoint::group_time(GROUP_TIME),
                self.ping,
            )
            .await
            {
                Ok(mut handled) => {
                    self.keep_fresh(&mut handled);
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
                        (self.ping)();
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
                        self.take(inbox, m, summary).await?;
                        (self.ping)();
                    }
                    return Ok(Vec::new());
                }
            }
            (self.ping)();
        }
        Ok(Vec::new())
    }

    /// Hands the bodies of committed mails to this process's sender, which
    /// then need not read them back from the database. Called at once
    /// after the commit, before anything else is awaited.
    fn keep_fresh(&self, handled: &mut [Handled]) {
        for h in handled {
            if let Handled::Decided { mails, .. } = h {
                self.leases.keep_fresh(mails);
            }
        }
    }

    /// Takes one message: handles it, or, when that fails in a way that
    /// will not pass by waiting (a damaged game row, a refused write),
    /// counts the failure ([`quarantine::count_failure`]), so that one
    /// message never blocks the inbox. Only a failure that may pass (a busy
    /// database, the inbox) is returned: the caller waits and takes the
    /// message again.
    async fn take(
        &self,
        inbox: &mut Inbox,
        msg: &Inbound,
        summary: &mut RunReport,
    ) -> Result<(), DaemonError> {
        let error = match self.handle_one(inbox, msg, summary).await {
            Err(DaemonError::Store(e)) if !e.is_transient() => e,
            other => return other,
        };
        quarantine::count_failure(
            self.store,
            inbox,
            self.config,
            self.rules,
            msg,
            &error,
            summary,
        )
        .await
    }

    /// Handles one message in its own span, then tells the inbox it is done.
    async fn handle_one(
        &self,
        inbox: &mut Inbox,
        msg: &Inbound,
        summary: &mut RunReport,
    ) -> Result<(), DaemonError> {
        let source = Source::Inbox(msg.id.clone());
        let mut handled = handle_message_at(
            self.store,
            self.rules,
            &source,
            &msg.raw,
            msg.size,
            Mode::Commit,
            msg.arrived,
        )
        .instrument(message_span(&source))
        .await?;
        self.keep_fresh(std::slice::from_mut(&mut handled));
        report(&source, &handled, summary);
        // Only now, with the outcome committed, is the inbox told.
        inbox.mark_done(&msg.id).await?;
        Ok(())
    }
}

/// `serve --once`: takes what is waiting until nothing readable is left,
/// refreshing the public pages after each round, then runs the clocks'
/// deadlines once.
pub(super) async fn take_all(
    lp: &Loop<'_>,
    inbox: &mut Inbox,
    summary: &mut RunReport,
) -> Result<(), DaemonError> {
    let config = lp.config;
    let mut order = Order::default();
    loop {
        let waiting = order.relist(inbox).await?;
        let round = lp
            .take_waiting(inbox, &mut order, waiting, &mut || false, summary)
            .await;
        if let Some(failed) = round.failed {
            return Err(failed.error);
        }
        // Nothing left, or only entries that cannot be read.
        if !round.fetched {
            break;
        }
        crate::publish::refresh(lp.store, &config.clock.rules, config.publish.as_ref()).await;
    }
    // Among several daemons, the leader's to run.
    if !lp.leader.leads() {
        return Ok(());
    }
    let due = crate::deadlines::run_due(lp.store, lp.rules, now_secs()).await?;
    if due.forfeits > 0 {
        crate::publish::refresh(lp.store, &config.clock.rules, config.publish.as_ref()).await;
    }
    Ok(())
}

/// Opens the inbox. READY means the inbox is reachable: under `serve` it
/// is tried again (with backoff) until it is, or until a stop is asked for
/// (`None`); under `--once` its failure is returned.
pub(super) async fn open_inbox<F: Future<Output = ()>>(
    config: &Config,
    once: bool,
    shutdown: &mut Shutdown<F>,
    backoff: &mut Backoff,
) -> Result<Option<Inbox>, DaemonError> {
    loop {
        match Inbox::open(&config.inbox, config.limits.max_message_bytes).await {
            Ok(inbox) => return Ok(Some(inbox)),
            Err(e) if once => return Err(e.into()),
            Err(e) => {
                let delay = backoff.next_delay();
                error!(error = %e, retry_in_ms = millis(delay), "inbox not reachable");
                let status = format!("inbox not reachable: {e}");
                notify(&[
                    sd_notify::NotifyState::Status(&status),
                    sd_notify::NotifyState::Watchdog,
                ]);
                if shutdown.sleep_or_stop(delay).await {
                    return Ok(None);
                }
            }
        }
    }
}

/// What the serve loop keeps between rounds besides the inbox.
struct Serving {
    deadlines: crate::deadlines::Schedule,
    order: Order,
    /// Groups were taken since the public pages were last refreshed.
    unpublished: bool,
    last_published: Instant,
    /// The newest message id when the site was last published, for a
    /// leader among several daemons: the others' moves change the games
    /// too.
    published_at_message: i64,
}

impl Serving {
    /// The clock's deadlines: when one falls, after mail (a move moves
    /// them), and every minute (the organiser's commands run elsewhere).
    async fn run_deadlines(&mut self, lp: &Loop<'_>) {
        let now = now_secs();
        if !lp.leader.leads() {
            // Another daemon runs them; when this one leads, it scans at once.
            self.deadlines = crate::deadlines::Schedule::default();
            return;
        }
        if !self.deadlines.is_due(now) {
            return;
        }
        match crate::deadlines::run_due(lp.store, lp.rules, now).await {
            Ok(due) => {
                if due.forfeits > 0 {
                    let config = lp.config;
                    crate::publish::refresh(lp.store, &config.clock.rules, config.publish.as_ref())
                        .await;
                }
                lp.wake.notify_one();
                self.deadlines.scanned(now, due.next_at);
            }
            Err(e) => error!(error = %e, "clock deadlines"),
        }
    }

    /// Refreshes the public pages if groups were taken since they last were
    /// and, with `every`, if that was at least that long ago.
    ///
    /// Only the leader publishes; on PostgreSQL it also publishes when
    /// another daemon took messages since it last did.
    async fn publish(&mut self, lp: &Loop<'_>, every: Option<Duration>) {
        if !lp.leader.leads() {
            return;
        }
        let due = every.is_none_or(|every| self.last_published.elapsed() >= every);
        if due && lp.store.backend() == crate::store::Backend::Postgres {
            match super::leader::newest_message(lp.store).await {
                Ok(newest) if newest != self.published_at_message => {
                    self.unpublished = true;
                    self.published_at_message = newest;
                }
                Ok(_) => {}
                Err(e) => warn!(error = %e, "publishing: the newest message not read"),
            }
        }
        if self.unpublished && due {
            let config = lp.config;
            crate::publish::refresh(lp.store, &config.clock.rules, config.publish.as_ref()).await;
            self.unpublished = false;
            self.last_published = Instant::now();
        }
    }
}

/// `serve`: takes the mail that is waiting, then waits for more, until a
/// stop is asked for.
pub(super) async fn serve<F: Future<Output = ()>>(
    lp: &Loop<'_>,
    inbox: &mut Inbox,
    shutdown: &mut Shutdown<F>,
    backoff: &mut Backoff,
    summary: &mut RunReport,
) {
    let watchdog = watchdog_interval();
    notify(&[
        sd_notify::NotifyState::Ready,
        sd_notify::NotifyState::Status("waiting for mail"),
    ]);
    info!("ready");
    let mut s = Serving {
        deadlines: crate::deadlines::Schedule::default(),
        order: Order::default(),
        unpublished: false,
        last_published: Instant::now(),
        published_at_message: 0,
    };
    loop {
        (lp.ping)();
        let waiting = match inbox.list_waiting().await {
            Ok(w) => {
                backoff.reset();
                w
            }
            Err(e) => {
                // The IMAP inbox reconnects on its next call; wait first.
                let delay = backoff.next_delay();
                error!(error = %e, retry_in_ms = millis(delay), "inbox");
                if shutdown.sleep_or_stop(delay).await {
                    break;
                }
                continue;
            }
        };
        s.run_deadlines(lp).await;
        let listed_any = !waiting.is_empty();
        let round = lp
            .take_waiting(
                inbox,
                &mut s.order,
                waiting,
                &mut || shutdown.requested(),
                summary,
            )
            .await;
        s.unpublished |= round.taken;
        if let Some(f) = &round.failed {
            // A database or inbox failure: the messages not yet told stay
            // waiting and are taken again on the next round, after a pause.
            error!(error = %f.error, "{}", f.what);
        }
        if round.stop {
            break;
        }
        if round.failed.is_some() {
            if shutdown.sleep_or_stop(backoff.next_delay()).await {
                break;
            }
            continue;
        }
        if listed_any {
            s.deadlines.mail_handled();
            let status = format!("{} messages handled", summary.messages);
            notify(&[sd_notify::NotifyState::Status(&status)]);
            // The public pages follow the games, but not after every group
            // of a burst: when the inbox is empty, or every few seconds.
            s.publish(lp, Some(PUBLISH_EVERY)).await;
            continue;
        }
        s.publish(lp, None).await;
        // A daemon that does not lead looks again for the leadership's
        // turn: it may have to take the deadlines over.
        let wait = if lp.leader.leads() {
            s.deadlines.wait(now_secs())
        } else {
            super::leader::RENEW_EVERY
        };
        if !wait_for_mail(inbox, shutdown, wait, watchdog, backoff).await {
            break;
        }
    }
}

/// Waits for mail until the next deadline, at most `watchdog`; `false` when
/// a stop was asked for meanwhile. The wait is bounded here too: if an IMAP
/// session ever stops answering (a missed IDLE wake-up was measured in the
/// latency benchmark), the session is dropped, which is safe while
/// waiting, and the next fetch reconnects, instead of the loop sitting
/// still.
async fn wait_for_mail<F: Future<Output = ()>>(
    inbox: &mut Inbox,
    shutdown: &mut Shutdown<F>,
    until_deadline: Duration,
    watchdog: Duration,
    backoff: &mut Backoff,
) -> bool {
    let wait = until_deadline.min(watchdog);
    let bound = wait + Duration::from_secs(5);
    let waited = shutdown
        .wait_or_stop(tokio::time::timeout(bound, inbox.wait_for_mail(wait)))
        .await;
    let Some(waited) = waited else {
        return false;
    };
    let waited = waited.unwrap_or_else(|_| {
        warn!(
            after_ms = millis(bound),
            "waiting for mail did not return; reconnecting"
        );
        inbox.drop_session();
        Ok(())
    });
    if let Err(e) = waited {
        // The session is gone; the next fetch reconnects.
        let delay = backoff.next_delay();
        warn!(error = %e, retry_in_ms = millis(delay), "waiting for mail");
        if shutdown.sleep_or_stop(delay).await {
            return false;
        }
    }
    true
}

pub(super) fn message_span(source: &Source) -> tracing::Span {
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
