//! The use case "a message arrives": read it, decide it, write the answers,
//! and record it all in one transaction. [IO: database]
//!
//! The daemon and `wildt check` both call [`handle_message`]; the dry run
//! (`check`) only skips the commit, so nothing is recorded and nothing sent.
//! Followed as data, a message goes down once: intake -> decide -> reply ->
//! render -> store (one transaction); the daemon's transport sends the
//! outbox afterwards.

use std::borrow::Cow;
use std::fmt;

use sha2::{Digest, Sha256};
use shakmaty::Color;
use sqlx::SqliteConnection;

use crate::clock::{
    Date, Leave, LeaveCancel, LeaveDecision, LeaveRequest, cancel_leave, decide_leave,
};
use crate::config::Rules;
use crate::deadlines;
use crate::decide::conditional::{Fate, Sequel};
use crate::decide::{self, Decision, GameView};
use crate::i18n::Lang;
use crate::intake::{self, Intake};
use crate::mail::InboxId;
use crate::mail::render::{Rendered, new_message_id, render_as};
use crate::referee::Verdict;
use crate::reply::{self, Letters};
use crate::reply::{LeaveChange, OutMail};
use crate::store::batch::Batch;
use crate::store::messages::MessageRow;
use crate::store::players::{self, LangSource};
use crate::store::{Store, StoreError, clocks, conditionals, games, messages, now_secs, outbox};

/// Where a message came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// An inbox's message: an IMAP message seen again at the same
    /// coordinates is a duplicate even if its bytes changed; a Maildir
    /// message only if its bytes are the same (a name may be used again).
    Inbox(InboxId),
    /// A file handed to `wildt check`: only the same bytes are a duplicate.
    Cli,
}

impl fmt::Display for Source {
    /// The source as recorded in the database.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Inbox(InboxId::Maildir { id }) => write!(f, "maildir:{id}"),
            Source::Inbox(InboxId::Imap {
                mailbox,
                uidvalidity,
                uid,
            }) => write!(f, "imap:{mailbox}:{uidvalidity}:{uid}"),
            Source::Cli => f.write_str("cli"),
        }
    }
}

/// Whether the outcome is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Commit,
    /// Everything is decided and written, then rolled back: what would
    /// happen, nothing done.
    DryRun,
}

/// What became of a message.
#[derive(Debug)]
pub enum Handled {
    /// Seen before (same bytes, same inbox coordinates, or another copy:
    /// the same Message-ID from the same sender in the same game, with the
    /// same body): nothing done again.
    Duplicate { outcome: String },
    Decided {
        intake: Box<Intake>,
        decision: Box<Decision>,
        /// The mails the decision writes, after the hourly limit.
        letters: Letters,
        /// Those of them queued in the outbox (a mail whose address lettre
        /// cannot write is left out). Once the message's transaction is
        /// committed, their bytes (`raw`) have been handed to this process's
        /// sender and are empty here.
        mails: Vec<Rendered>,
    },
}

/// Handles one inbound message: dedupe, read, decide, persist, enqueue mail.
/// Every check against deciding it twice runs inside the message's
/// transaction, so two copies handled at once are still decided once.
/// `raw` is the message of `size` bytes, or only its beginning when the
/// inbox did not read all of a message too large to be read anyway.
pub async fn handle_message(
    store: &Store,
    rules: &Rules,
    source: &Source,
    raw: &[u8],
    size: usize,
    mode: Mode,
) -> Result<Handled, StoreError> {
    handle_message_at(store, rules, source, raw, size, mode, None).await
}

/// [`handle_message`] for a message the mailbox received at `arrived`
/// (Unix seconds): the day clocks count the move from then, never from
/// later than now (an outage of the referee costs nobody time).
pub async fn handle_message_at(
    store: &Store,
    rules: &Rules,
    source: &Source,
    raw: &[u8],
    size: usize,
    mode: Mode,
    arrived: Option<i64>,
) -> Result<Handled, StoreError> {
    let incoming = Incoming {
        source: source.clone(),
        raw,
        size,
        arrived,
    };
    let read = Read::new(rules, &incoming, now_secs());
    let _turn = store.write_turn().await;
    let mut tx = store.begin().await?;
    let mut carry = Carry::default();
    let mut handled = decide_in(
        &mut tx,
        rules,
        &incoming.source,
        read,
        &mut carry,
        None,
        None,
    )
    .await?;
    render_behind(rules, &mut carry, Some(&mut handled))?;
    carry.writes.run(&mut tx).await?;
    match mode {
        Mode::Commit => tx.commit().await?,
        Mode::DryRun => tx.rollback().await?,
    }
    Ok(handled)
}

/// A message waiting in an inbox, as handed to [`handle_group`].
#[derive(Debug, Clone)]
pub struct Incoming<'a> {
    pub source: Source,
    /// The message, or its beginning when it is larger than the inbox reads.
    pub raw: &'a [u8],
    /// Its size in bytes.
    pub size: usize,
    /// When the mailbox received it (Unix seconds), if the inbox knows.
    pub arrived: Option<i64>,
}

/// Handles a group of messages in ONE transaction, in order, and commits
/// them together: one commit (one `fsync` of the log) for the group instead
/// of one per message. Each message still gets its own dedupe row and is
/// decided against what the messages before it in the group changed, exactly
/// as if each had had its own transaction; a crash before the commit loses
/// the whole group's outcome and nothing else (the messages are still in the
/// inbox, which is told only after the commit), a crash after it finds every
/// one of them recorded.
///
/// The group ends early, with the messages decided so far, once it has
/// taken `budget`: a group's time bounds how long its first message waits
/// for the commit, and how much work a crash can undo. `between` runs
/// after each message (the daemon tells the watchdog it is alive).
///
/// All or nothing: if any message fails, nothing of the group is kept and
/// the error is returned with the index of the message that failed; the
/// caller takes the messages again one transaction each. On success, the
/// outcomes of the first `n` messages are returned, `n >= 1`; the rest were
/// not touched.
pub async fn handle_group(
    store: &Store,
    rules: &Rules,
    group: &[Incoming<'_>],
    budget: std::time::Duration,
    mut between: impl FnMut(),
) -> Result<Vec<Handled>, GroupError> {
    let started = std::time::Instant::now();
    let now = now_secs();
    let _turn = store.write_turn().await;
    let mut tx = store
        .begin()
        .await
        .map_err(|error| GroupError { at: None, error })?;
    let mut handled = Vec::with_capacity(group.len());
    // A message's writes go to the database with the next message's reads
    // (the statements run in the same order, in one round trip per
    // message), and its replies are rendered meanwhile; a failure there is
    // reported at the next message, and the caller takes the group's
    // messages again one at a time anyway.
    let mut carry = Carry::default();
    for (i, m) in group.iter().enumerate() {
        if i > 0 && started.elapsed() >= budget {
            break;
        }
        let read = match carry.next.take() {
            Some(read) => read,
            None => Read::new(rules, m, now),
        };
        let ahead = group.get(i + 1).map(|next| (next, now));
        let behind = handled.last_mut();
        match decide_in(&mut tx, rules, &m.source, read, &mut carry, ahead, behind).await {
            Ok(h) => handled.push(h),
            Err(error) => {
                // Dropping the transaction rolls it back; said here for the reader.
                if let Err(e) = tx.rollback().await {
                    tracing::warn!(error = %e, "group not rolled back cleanly; SQLite rolls it back when the connection is reused");
                }
                return Err(GroupError { at: Some(i), error });
            }
        }
        crate::failpoint::hit("group-handled", i + 1);
        between();
    }
    let finished = match render_behind(rules, &mut carry, handled.last_mut()) {
        Ok(()) => carry.writes.run(&mut tx).await.map(drop),
        Err(e) => Err(e),
    };
    if let Err(error) = finished {
        let at = Some(handled.len().saturating_sub(1));
        if let Err(e) = tx.rollback().await {
            tracing::warn!(error = %e, "group not rolled back cleanly; SQLite rolls it back when the connection is reused");
        }
        return Err(GroupError { at, error });
    }
    crate::failpoint::hit("group-before-commit", handled.len());
    tx.commit().await.map_err(|e| GroupError {
        at: None,
        error: e.into(),
    })?;
    Ok(handled)
}

/// Why a group was not kept: the message at index `at` failed (`None`: the
/// transaction itself, its begin or commit).
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
pub struct GroupError {
    pub at: Option<usize>,
    #[source]
    pub error: StoreError,
}

/// What a message of a group leaves for the next: its replies to queue
/// (sent with the next message's reads), and the next message's reading.
#[derive(Default)]
struct Carry {
    writes: Batch,
    next: Option<Read>,
    /// The message before's replies, queued without their bodies.
    unrendered: Option<Unrendered>,
}

/// The replies of a decided message whose outbox rows are written but
/// whose bodies are not rendered yet: they are rendered while the
/// database runs the next message's batch, and their bodies go with the
/// batch after.
struct Unrendered {
    /// The game's thread id.
    root: Option<String>,
    /// The Message-ID of each of the message's mails, in order.
    ids: Vec<String>,
}

impl Unrendered {
    /// Renders the mails of `handled` (the message these replies answer)
    /// into its `mails`; returns the Message-IDs of those that could not be
    /// rendered, whose rows are to be taken out.
    fn render(self, rules: &Rules, handled: &mut Handled) -> Vec<String> {
        let Handled::Decided {
            intake,
            letters,
            mails,
            ..
        } = handled
        else {
            return self.ids;
        };
        let mut unwritten = Vec::new();
        mails.reserve(letters.mails.len());
        let root = self.root.as_deref();
        for (mail, id) in letters.mails.iter().zip(self.ids) {
            match render_as(mail, &rules.referee, root, &intake.references, id.clone()) {
                Ok(r) => mails.push(r),
                Err(e) => {
                    // An address lettre cannot write (e.g. a malformed
                    // From): that one mail is not sent; the message is
                    // still recorded.
                    tracing::warn!(recipient = %mail.to, error = %e, "reply not rendered");
                    unwritten.push(id);
                }
            }
        }
        unwritten
    }
}

/// Renders the replies left unrendered in `carry` (those of `behind`, the
/// message decided last) and adds their bodies to the writes carried.
fn render_behind(
    rules: &Rules,
    carry: &mut Carry,
    behind: Option<&mut Handled>,
) -> Result<(), StoreError> {
    if let (Some(unrendered), Some(handled)) = (carry.unrendered.take(), behind) {
        let unwritten = unrendered.render(rules, handled);
        add_bodies(&mut carry.writes, handled, &unwritten)?;
    }
    Ok(())
}

/// The bodies of `handled`'s rendered mails, and the removal of the rows
/// of the `unwritten` ones, added to `batch`.
fn add_bodies(
    batch: &mut Batch,
    handled: &Handled,
    unwritten: &[String],
) -> Result<(), StoreError> {
    let bodies: Vec<&Rendered> = match handled {
        Handled::Decided { mails, .. } => mails.iter().collect(),
        Handled::Duplicate { .. } => Vec::new(),
    };
    outbox::bodies_into(batch, &bodies, unwritten)
}

/// What is read from a message before any lock is taken: its digests, the
/// intake's reading and the trusted server's word on the sender.
struct Read {
    sha: String,
    body_sha: String,
    intake: Intake,
    auth: Option<crate::auth::AuthOutcome>,
    source_key: String,
    now: i64,
    arrival: i64,
}

impl Read {
    fn new(rules: &Rules, m: &Incoming<'_>, now: i64) -> Read {
        let intake = intake::read_sized(m.raw, m.size, &rules.intake);
        let auth = crate::auth::sender_verdict(
            m.raw,
            rules.security.trusted_authserv_id.as_deref(),
            intake.from.as_deref(),
        );
        Read {
            sha: message_digest(m.raw, m.size),
            body_sha: body_digest(m.raw),
            intake,
            auth,
            source_key: m.source.to_string(),
            now,
            arrival: m.arrived.map_or(now, |a| a.min(now)),
        }
    }
}

/// Everything of one message that runs under the write lock: the lookups,
/// the pure decision, and the writes, on the caller's transaction.
///
/// The writes left in `carry` (the message before's row, plies and outbox
/// rows) are sent with this message's reads, and this message's are left
/// there: the caller runs them before the commit. While the database works,
/// the replies of `behind` (the message before, its bodies left unrendered
/// in `carry`) are rendered and `ahead`, the next message of the group, is
/// read into `carry.next`; this message's replies are left unrendered in
/// `carry` in turn, unless a leave's notices to other games need them first.
async fn decide_in(
    tx: &mut SqliteConnection,
    rules: &Rules,
    source: &Source,
    read: Read,
    carry: &mut Carry,
    ahead: Option<(&Incoming<'_>, i64)>,
    behind: Option<&mut Handled>,
) -> Result<Handled, StoreError> {
    let Read {
        sha,
        body_sha,
        intake,
        auth,
        source_key,
        now,
        arrival,
    } = read;
    // An IMAP message keeps its coordinates (UIDVALIDITY + UID); a Maildir
    // file name is only a name: a different message may come under one seen
    // before, so there only the digest says "seen before".
    let inbox_source =
        matches!(source, Source::Inbox(InboxId::Imap { .. })).then_some(source_key.as_str());
    // Seen before, a copy seen before, the last hour's replies and the
    // sender's stored language: one read. Nothing this message's transaction
    // writes before it uses them (a forfeit below writes no message, no
    // answer to one and no player) changes them.
    let keys = messages::Keys {
        sha256: &sha,
        source: inbox_source,
        message_id: intake.message_id.as_deref(),
        from: intake.from.as_deref(),
        game: intake.game_address.as_ref().map(|a| a.game),
        body_sha256: &body_sha,
        now,
    };
    // The writes waiting (the message before's), then the history and the
    // game: one round trip.
    let mut batch = std::mem::take(&mut carry.writes);
    let waiting = batch.len();
    messages::history_into(&mut batch, &keys)?;
    if let Some(a) = &intake.game_address {
        games::load_into(&mut batch, a.game)?;
    }
    // Meanwhile the replies of the message before are rendered and packed
    // into the next batch, and the next message of the group is read: the
    // results of the batch are waiting when this thread is done (no wake-up
    // per statement).
    let unrendered = carry.unrendered.take();
    let (rows, (next, bodies)) = tokio::join!(batch.run(&mut *tx), async {
        let mut bodies = Batch::default();
        if let (Some(u), Some(h)) = (unrendered, behind) {
            let unwritten = u.render(rules, h);
            if let Err(e) = add_bodies(&mut bodies, h, &unwritten) {
                return (None, Err(e));
            }
        }
        (ahead.map(|(m, now)| Read::new(rules, m, now)), Ok(bodies))
    });
    carry.next = next;
    carry.writes = bodies?;
    let mut reads = rows?.into_iter().skip(waiting);
    let history = reads
        .next()
        .and_then(|rows| rows.into_iter().next())
        .ok_or_else(|| StoreError::Invariant("the history read gave no row".into()))?;
    let history = messages::history_of(&keys, &history)?;
    if let Some(outcome) = history.seen {
        return Ok(Handled::Duplicate { outcome });
    }
    let mut stored = match &intake.game_address {
        Some(a) => {
            let row = reads.next().and_then(|rows| rows.into_iter().next());
            games::load_of(tx, a.game, row).await?
        }
        None => None,
    };
    // Only a game with a limited time control has clocks to keep: an
    // unlimited one never has a deadline and its mails show no clocks.
    let timed = match &stored {
        Some(g) => g.time_control.is_limited(),
        None => false,
    };
    // A flag that fell before this message arrived ends the game first.
    if let Some(g) = stored.take_if(|g| timed && !g.view.record.is_over()) {
        let id = g.view.id;
        match deadlines::TimedGame::with_clock(tx, g).await? {
            Some(clocked) => {
                let due =
                    deadlines::act_due_on(tx, rules, &clocked, arrival, deadlines::Scope::Forfeit)
                        .await?;
                stored = if due.forfeits > 0 {
                    games::load(tx, id).await?
                } else {
                    Some(clocked.game)
                };
            }
            None => stored = games::load(tx, id).await?,
        }
    }
    // Another copy of a message already decided (two envelope recipients, a
    // mailbox migrated with its history): other header bytes, but the same
    // Message-ID from the same sender in the same game, with the same body.
    // Answered once.
    if let Some(outcome) = history.copy {
        return Ok(Handled::Duplicate { outcome });
    }
    // A claim counts repetitions: their keys are read for it alone.
    if let (Some(g), Some(command)) = (stored.as_mut(), intake.command())
        && command.claims_draw()
    {
        games::read_window(tx, g.view.id, &mut g.view.record).await?;
    }
    let view = stored.as_ref().map(|g| &g.view);
    let recent = history.recent;
    let mut decision = decide::decide(&intake, view, recent, rules, auth);
    if let (Some(g), Some(_)) = (view, decision.seat) {
        // Both seats' sets are read and written in this transaction: the
        // opponent's move and the prepared answer are stored together or
        // not at all.
        let has_sets = stored.as_ref().is_some_and(|s| s.has_conditionals);
        let sets = if has_sets {
            conditionals::load(tx, g.id).await?
        } else {
            Default::default()
        };
        decide::conditional::follow(&mut decision, g, sets);
    }
    let (sender_lang, reply_view) =
        languages(tx, &intake, &decision, view, history.sender_lang).await?;
    let mut letters = reply::write(
        &decision,
        &intake,
        reply_view.as_deref(),
        &rules.referee,
        sender_lang,
    );
    let row = MessageRow {
        sha256: &sha,
        body_sha256: &body_sha,
        source: &source_key,
        message_id: intake.message_id.as_deref(),
        from: intake.from.as_deref(),
        game: view.map(|g| g.id),
        outcome: decision.outcome,
        detail: &decision.detail,
        received_at: now,
        replies_held_back: letters.rate_limited,
    };
    // The message's row, with a move's plies, after the bodies of the
    // message before: one batch, written with the next message's reads, or
    // before a read below that needs it.
    let mut mine = std::mem::take(&mut carry.writes);
    match (decision.final_record(), view) {
        (Some(after), Some(g)) => games::save_change_into(
            &mut mine,
            g.id,
            [g.white.lang, g.black.lang],
            &g.record,
            after,
            Some(&row),
            Some(arrival),
        )?,
        _ => messages::insert_into(&mut mine, &row)?,
    }
    if let Some(g) = view
        && timed
    {
        mine.run_now(tx).await?;
        if let Some(clocked) = deadlines::TimedGame::load(tx, g.id).await? {
            let state = clocked.state(&rules.clock, arrival);
            reply::add_clocks(&mut letters, g.id, &state);
        }
    }
    if let (Some(sequel), Some(g)) = (&decision.sequel, view) {
        mine.run_now(tx).await?;
        save_sequel(tx, g.id, sequel).await?;
    }
    // Notices of a leave to the opponents of the player's other games: each
    // threaded in its own game.
    let mut other_games = Vec::new();
    if let (Some(req), Some(seat), Some(g)) = (&decision.leave, decision.seat, view) {
        mine.run_now(tx).await?;
        let answering = intake.message_id.as_deref();
        let (mails, others) = leave_by_mail(tx, rules, g.id, seat, req, now, answering).await?;
        letters.mails.extend(mails);
        other_games = others;
    }
    if let Some(g) = view
        && letters
            .mails
            .iter()
            .any(|m| m.kind == reply::MailKind::GameOver)
    {
        // An event game's game-over mails end with the player's standing,
        // counted with this result (a prepared answer's included).
        mine.run_now(tx).await?;
        crate::organise::event::add_standing(tx, g.id, &mut letters.mails).await?;
    }
    // The replies' outbox rows are written with the message's row (the
    // next message's reading counts them against the hourly limit); their
    // bodies are rendered while the database runs the next batch.
    let ids: Vec<String> = letters
        .mails
        .iter()
        .map(|_| new_message_id(&rules.referee))
        .collect();
    let rows: Vec<(&OutMail, &str)> = letters
        .mails
        .iter()
        .zip(&ids)
        .map(|(m, id)| (m, id.as_str()))
        .collect();
    let answering = outbox::Answering::Digest(&sha);
    outbox::rows_into(&mut mine, answering, &rows, &rules.referee.address, now)?;
    let unrendered = Unrendered {
        root: stored.map(|g| g.thread_root),
        ids,
    };
    let mut handled = Handled::Decided {
        intake: Box::new(intake),
        decision: Box::new(decision),
        letters,
        mails: Vec::new(),
    };
    if other_games.is_empty() {
        carry.writes = mine;
        carry.unrendered = Some(unrendered);
        return Ok(handled);
    }
    // A leave's notices to the opponents of the player's other games are
    // queued below with their own reads: this message's replies first.
    let unwritten = unrendered.render(rules, &mut handled);
    add_bodies(&mut mine, &handled, &unwritten)?;
    let message_row = messages::run_for_id(tx, mine, &sha).await?;
    if let Handled::Decided { letters, mails, .. } = &mut handled {
        for other in other_games {
            let mail = other.mail;
            let queued = deadlines::queue_in_thread(
                tx,
                &rules.referee,
                &mail,
                &other.thread_root,
                Some(message_row),
                now,
            )
            .await?;
            mails.extend(queued);
            letters.mails.push(mail);
        }
    }
    Ok(handled)
}

/// Writes what the stored sets became, and marks the prepared answers'
/// plies as free of reflection time.
async fn save_sequel(
    conn: &mut sqlx::SqliteConnection,
    game: i64,
    sequel: &Sequel,
) -> Result<(), StoreError> {
    for seat in [Color::White, Color::Black] {
        match sequel.fate.get(seat) {
            Fate::Keep => {}
            Fate::Store(tree) => conditionals::save(conn, game, tree).await?,
            Fate::Clear(_) => conditionals::clear(conn, game, seat).await?,
        }
    }
    for p in &sequel.played {
        if matches!(p.verdict, Verdict::Moved { .. }) {
            games::mark_prepared(conn, game, p.after.ply_count()).await?;
        }
    }
    Ok(())
}

/// A player's request for leave (or its cancellation), decided against
/// their leaves on the day of `now`; returns the mails that answer it: on a
/// change, to both players of the game, else to the player alone; and, on a
/// change, the notices to the opponents of the player's other games.
async fn leave_by_mail(
    conn: &mut sqlx::SqliteConnection,
    rules: &Rules,
    game: i64,
    seat: shakmaty::Color,
    req: &LeaveRequest,
    now: i64,
    answering: Option<&str>,
) -> Result<(Vec<OutMail>, Vec<deadlines::GameMail>), StoreError> {
    let Some(timed) = deadlines::TimedGame::load(conn, game).await? else {
        return Ok((Vec::new(), Vec::new()));
    };
    let email = timed.game.view.player(seat).email.clone();
    let today = Date::of_instant(now);
    let view = &timed.game.view;
    let referee = &rules.referee;
    let alone = |mail| Ok((vec![mail], Vec::new()));
    let change = match req {
        LeaveRequest::Unclear(_) => {
            return alone(reply::with_game(view, referee, |ctx| {
                reply::leave_refused_mail(ctx, seat, None, answering)
            }));
        }
        LeaveRequest::Take { from, to } => {
            let asked = Leave {
                from: *from,
                to: *to,
            };
            match decide_leave(asked, &timed.leaves[seat], today, &rules.clock) {
                LeaveDecision::Granted(leave) => {
                    clocks::insert_leave(conn, &email, leave, now).await?;
                    LeaveChange::Granted(leave)
                }
                LeaveDecision::Refused(why) => {
                    return alone(reply::with_game(view, referee, |ctx| {
                        reply::leave_refused_mail(ctx, seat, Some(&why), answering)
                    }));
                }
            }
        }
        LeaveRequest::Cancel { from } => match cancel_leave(&timed.leaves[seat], *from, today) {
            LeaveCancel::Remove(leave) => {
                clocks::delete_leave(conn, &email, leave.from).await?;
                LeaveChange::Cancelled { from: leave.from }
            }
            LeaveCancel::EndEarly { leave, new_to } => {
                clocks::shorten_leave(conn, &email, leave.from, new_to).await?;
                LeaveChange::Cancelled { from: leave.from }
            }
            LeaveCancel::NothingToCancel => {
                return alone(reply::with_game(view, referee, |ctx| {
                    reply::nothing_to_cancel_mail(ctx, seat, answering)
                }));
            }
        },
    };
    // Both players of this game told, with the clocks as they now stand;
    // and the opponent in each other game of the player.
    let after = deadlines::TimedGame::load(conn, game)
        .await?
        .unwrap_or(timed);
    let state = after.state(&rules.clock, now);
    let mails = reply::with_game(&after.game.view, referee, |ctx| {
        reply::leave_changed_mails(ctx, seat, change, &state)
    });
    let others = deadlines::leave_notices(conn, rules, &email, game, change, now).await?;
    Ok((mails, others))
}

/// The language to answer the sender in, and the game as the reply writer
/// sees it: with the seat's language updated when the player chose one by
/// mail ("language: deutsch") or, having none, wrote command words of one
/// language only or a `Content-Language` they agree with (stored as a guess).
/// Only a player at their own game address (`decision.seat`) changes what is
/// stored; anyone else is answered in their stored or confidently guessed
/// language.
async fn languages<'v>(
    tx: &mut SqliteConnection,
    intake: &Intake,
    decision: &Decision,
    view: Option<&'v GameView>,
    stored: Option<(Lang, players::LangSource)>,
) -> Result<(Lang, Option<Cow<'v, GameView>>), StoreError> {
    let mut view = view.map(Cow::Borrowed);
    let Some(from) = intake.from.as_deref() else {
        return Ok((Lang::En, view));
    };
    let hint = intake.lang;
    let guess = hint.guessed.filter(|_| hint.confident);
    let lang = match (hint.requested, stored, guess) {
        (Some(chosen), _, _) => {
            if decision.seat.is_some() {
                players::set_lang(tx, from, chosen, LangSource::Mail).await?;
            }
            chosen
        }
        (None, Some((lang, _)), _) => lang,
        (None, None, Some(guess)) => {
            if decision.seat.is_some() {
                players::set_lang(tx, from, guess, LangSource::Guess).await?;
                tracing::info!(player = %from, lang = %guess, "language guessed");
            }
            guess
        }
        (None, None, None) => Lang::En,
    };
    // The game is copied (a long game's record and all) only when the
    // seat's language changes.
    if let (Some(seat), Some(v)) = (decision.seat, view.as_mut())
        && v.player(seat).lang != lang
    {
        v.to_mut().player_mut(seat).lang = lang;
    }
    Ok((lang, view))
}

/// The message's digest, the key against deciding it twice. Of a message
/// larger than the inbox reads, `raw` is its beginning: its size goes into
/// the digest too, so two different large messages that begin alike are not
/// taken for one.
pub fn message_digest(raw: &[u8], size: usize) -> String {
    let sum = if size > raw.len() {
        let mut h = Sha256::new();
        h.update(raw);
        h.update(format!("\0{size}"));
        h.finalize()
    } else {
        Sha256::digest(raw)
    };
    hex(&sum)
}

/// The digest of the message's body (what follows the first blank line),
/// with carriage returns dropped: copies of one message differ in the
/// headers each delivery adds, and a mailbox moved between servers may have
/// changed its line ends, but the body is the same.
fn body_digest(raw: &[u8]) -> String {
    let lf = raw.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    let crlf = raw.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4);
    let start = lf.into_iter().chain(crlf).min().unwrap_or(raw.len());
    let mut h = Sha256::new();
    for chunk in raw[start..].split(|b| *b == b'\r') {
        h.update(chunk);
    }
    hex(&h.finalize())
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A message's digest is the lowercase hex SHA-256 of its bytes (as
    /// `sha256sum` prints it), as earlier versions recorded it: a database
    /// kept across an upgrade still knows the messages it decided.
    #[test]
    fn a_messages_digest_is_its_sha256_in_lowercase_hex_as_before() {
        assert_eq!(
            message_digest(b"Subject: x\r\n\r\n5254\r\n", 20),
            "2388e3eb2ba19bdf923563545d7127ab739cac306888225361bfcf097d078e4d"
        );
        assert_eq!(hex(&[0x00, 0x0f, 0xa5, 0xff]), "000fa5ff");
    }

    /// The dedupe key of an inbox's message is what earlier versions
    /// recorded: a database kept across an upgrade still knows its messages.
    #[test]
    fn sources_are_recorded_as_before() {
        let maildir = Source::Inbox(InboxId::Maildir {
            id: "1732400000.M1P2.host".to_owned(),
        });
        let imap = Source::Inbox(InboxId::Imap {
            mailbox: "INBOX".to_owned(),
            uidvalidity: 7,
            uid: 42,
        });
        assert_eq!(maildir.to_string(), "maildir:1732400000.M1P2.host");
        assert_eq!(imap.to_string(), "imap:INBOX:7:42");
        assert_eq!(Source::Cli.to_string(), "cli");
    }

    /// Two copies of one message, delivered to two envelope recipients
    /// (other headers on top) or kept with other line ends, have one body
    /// digest; a different text under the same headers has another.
    #[test]
    fn copies_of_a_message_share_the_body_digest() {
        let body = "1. 5254\r\n\r\nAnna\r\n";
        let copy =
            |head: &str| format!("{head}From: a@example.org\r\nMessage-ID: <m@x>\r\n\r\n{body}");
        let first = copy("Delivered-To: chess+1-abcdefgh@club.example\r\n");
        let second = copy("Delivered-To: chess@club.example\r\nReceived: by mx\r\n");
        let lf = first.replace("\r\n", "\n");
        assert_eq!(
            body_digest(first.as_bytes()),
            body_digest(second.as_bytes())
        );
        assert_eq!(body_digest(first.as_bytes()), body_digest(lf.as_bytes()));
        let other = first.replace("5254", "5253");
        assert_ne!(body_digest(first.as_bytes()), body_digest(other.as_bytes()));
    }

    /// A message larger than the inbox read is keyed by its beginning and
    /// its size: two that begin alike but differ in size are two messages.
    #[test]
    fn a_cut_message_is_keyed_by_its_size_too() {
        let head = b"From: a@example.org\r\n\r\nxxxx";
        assert_ne!(message_digest(head, 1000), message_digest(head, 1001));
        assert_ne!(message_digest(head, 1000), message_digest(head, head.len()));
    }
}
