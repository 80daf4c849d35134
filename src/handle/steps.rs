//! The steps of one message under the write lock, in the order they run:
//! [`look_up`] (seen before? the last hour, the game: one round trip),
//! [`load`] (a time forfeit that fell before it, and the facts the plan
//! is made from), `decide::plan()` (pure), and [`super::apply::apply`]
//! (the writes and the mails). [`one_message`] runs them; both
//! [`super::handle_message`] and [`super::group::handle_group`] call it.

use std::future::Future;

use shakmaty::ByColor;
use sqlx::SqliteConnection;
use sqlx::sqlite::SqliteRow;

use super::apply::{Pending, apply};
use super::{Handled, Read, Source};
use crate::clock::Date;
use crate::config::Rules;
use crate::deadlines;
use crate::decide::{self, Facts, Plan};
use crate::mail::InboxId;
use crate::store::batch::Batch;
use crate::store::games::StoredGame;
use crate::store::messages::History;
use crate::store::{StoreError, clocks, conditionals, games, messages};

/// Everything of one message that runs under the write lock, on the
/// caller's transaction: look up, load, plan, apply.
///
/// The writes waiting in `pending` (the message before's, if any) go to
/// the database with this message's reads, while `meanwhile` runs (the
/// group renders the message before's replies in it, and reads the next
/// message); its batch of writes is what waits next. This message's own
/// writes and replies are left in `pending` in turn: the caller renders
/// them and runs the writes before the commit.
pub(super) async fn one_message(
    tx: &mut SqliteConnection,
    rules: &Rules,
    source: &Source,
    read: Read,
    pending: &mut Pending,
    meanwhile: impl Future<Output = Result<Batch, StoreError>>,
) -> Result<Handled, StoreError> {
    let (history, game_row) = look_up(tx, source, &read, pending, meanwhile).await?;
    let mut loaded = match load(tx, rules, read, history, game_row).await? {
        Ok(loaded) => loaded,
        Err(outcome) => return Ok(Handled::Duplicate { outcome }),
    };
    let plan = loaded.plan(rules);
    apply(tx, rules, loaded, plan, pending).await
}

/// Seen before, a copy seen before, the last hour's replies and the
/// sender's stored language, and the row of the game the address names:
/// one round trip, after the writes waiting in `pending`, while
/// `meanwhile` runs. Nothing this message's transaction writes before
/// they are used (a forfeit writes no message, no answer to one and no
/// player) changes them.
async fn look_up(
    tx: &mut SqliteConnection,
    source: &Source,
    read: &Read,
    pending: &mut Pending,
    meanwhile: impl Future<Output = Result<Batch, StoreError>>,
) -> Result<(History, Option<SqliteRow>), StoreError> {
    // An IMAP message keeps its coordinates (UIDVALIDITY + UID); a Maildir
    // file name is only a name: a different message may come under one seen
    // before, so there only the digest says "seen before".
    let inbox_source =
        matches!(source, Source::Inbox(InboxId::Imap { .. })).then_some(read.source_key.as_str());
    let keys = messages::Keys {
        sha256: &read.sha,
        source: inbox_source,
        message_id: read.intake.message_id.as_deref(),
        from: read.intake.from.as_deref(),
        game: read.intake.game_address.as_ref().map(|a| a.game),
        body_sha256: &read.body_sha,
        now: read.now,
    };
    let mut batch = std::mem::take(&mut pending.writes);
    let waiting = batch.len();
    messages::history_into(&mut batch, &keys)?;
    if let Some(a) = &read.intake.game_address {
        games::load_into(&mut batch, a.game)?;
    }
    // The results of the batch are waiting when `meanwhile` is done (no
    // wake-up per statement).
    let (rows, next_writes) = tokio::join!(batch.run(&mut *tx), meanwhile);
    pending.writes = next_writes?;
    let mut reads = rows?.into_iter().skip(waiting);
    let history = reads
        .next()
        .and_then(|rows| rows.into_iter().next())
        .ok_or_else(|| StoreError::Invariant("the history read gave no row".into()))?;
    let history = messages::history_of(&keys, &history)?;
    let game_row = match &read.intake.game_address {
        Some(_) => reads.next().and_then(|rows| rows.into_iter().next()),
        None => None,
    };
    Ok((history, game_row))
}

/// A message not seen before, with everything its plan is made from.
pub(super) struct Loaded {
    pub read: Read,
    pub history: History,
    /// Its game, after any time forfeit that fell before it arrived.
    pub stored: Option<StoredGame>,
    /// Whether the game keeps clocks (a limited time control): only then
    /// are there clocks to show and a flag to fall.
    pub timed: bool,
    sets: ByColor<Option<crate::conditional::ConditionalTree>>,
    leaves: Option<ByColor<Vec<crate::clock::Leave>>>,
}

impl Loaded {
    /// The plan for the message: `decide::plan()` on what was loaded.
    fn plan(&mut self, rules: &Rules) -> Plan {
        let facts = Facts {
            game: self.stored.as_ref().map(|g| &g.view),
            recent: self.history.recent,
            sets: std::mem::take(&mut self.sets),
            leaves: self.leaves.take(),
            today: Some(Date::of_instant(self.read.now)),
        };
        decide::plan(&self.read.intake, facts, rules, self.read.auth.take())
    }
}

/// The message's game and facts, from its looked-up rows; `Err` with the
/// outcome recorded before when it is a duplicate.
async fn load(
    tx: &mut SqliteConnection,
    rules: &Rules,
    read: Read,
    history: History,
    game_row: Option<SqliteRow>,
) -> Result<Result<Loaded, String>, StoreError> {
    if let Some(outcome) = history.seen {
        return Ok(Err(outcome));
    }
    let mut stored = match &read.intake.game_address {
        Some(a) => games::load_of(tx, a.game, game_row).await?,
        None => None,
    };
    // Only a game with a limited time control has clocks to keep: an
    // unlimited one never has a deadline and its mails show no clocks.
    let timed = stored.as_ref().is_some_and(|g| g.time_control.is_limited());
    if timed {
        stored = forfeit_first(tx, rules, stored, read.arrival).await?;
    }
    // Another copy of a message already decided (two envelope recipients, a
    // mailbox migrated with its history): other header bytes, but the same
    // Message-ID from the same sender in the same game, with the same body.
    // Answered once.
    if let Some(outcome) = history.copy {
        return Ok(Err(outcome));
    }
    // A claim counts repetitions: their keys are read from the store for it
    // alone (the record would replay its plies for them).
    if let (Some(g), Some(command)) = (stored.as_mut(), read.intake.command())
        && command.claims_draw()
    {
        games::read_window(tx, g.view.id, &mut g.view.record).await?;
    }
    // Both seats' sets are read and written in this transaction: the
    // opponent's move and the prepared answer are stored together or not
    // at all.
    let sets = match &stored {
        Some(g) if g.has_conditionals => conditionals::load(tx, g.view.id).await?,
        _ => ByColor::default(),
    };
    let leaves = match &stored {
        Some(g) if decide::plan::asks_for_leave(&read.intake) => player_leaves(tx, g).await?,
        _ => None,
    };
    Ok(Ok(Loaded {
        read,
        history,
        stored,
        timed,
        sets,
        leaves,
    }))
}

/// A flag that fell before this message arrived (at `arrival`) ends the
/// game first: `stored`, a timed game, as it is after the forfeits due.
async fn forfeit_first(
    tx: &mut SqliteConnection,
    rules: &Rules,
    mut stored: Option<StoredGame>,
    arrival: i64,
) -> Result<Option<StoredGame>, StoreError> {
    let Some(g) = stored.take_if(|g| !g.view.record.is_over()) else {
        return Ok(stored);
    };
    let id = g.view.id;
    match deadlines::TimedGame::with_clock(tx, g).await? {
        Some(clocked) => {
            let due =
                deadlines::act_due_on(tx, rules, &clocked, arrival, deadlines::Scope::Forfeit)
                    .await?;
            if due.forfeits > 0 {
                games::load(tx, id).await
            } else {
                Ok(Some(clocked.game))
            }
        }
        None => games::load(tx, id).await,
    }
}

/// Both players' leaves, for a request for leave in `game`; `None` when the
/// game keeps no clock.
async fn player_leaves(
    tx: &mut SqliteConnection,
    game: &StoredGame,
) -> Result<Option<ByColor<Vec<crate::clock::Leave>>>, StoreError> {
    if clocks::game_clock(tx, game.view.id).await?.is_none() {
        return Ok(None);
    }
    Ok(Some(ByColor {
        white: clocks::leaves(tx, &game.view.white.email).await?,
        black: clocks::leaves(tx, &game.view.black.email).await?,
    }))
}
