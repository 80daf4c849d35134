//! The steps of one message under the write lock, in the order they run:
//! [`look_up`] (seen before? the last hour, the game: one round trip),
//! [`load`] (the facts the plan is made from), `decide::plan()` (pure),
//! and [`super::apply::apply`] (the writes and the mails). [`one_message`]
//! runs them; [`alone`] (for [`super::handle_message`] and a move sent by
//! Xfcc) and [`super::group::handle_group`] call it.

use std::future::Future;

use sqlx::AnyConnection;
use sqlx::any::AnyRow;

use super::apply::{self, Pending};
use super::load::load;
use super::{Handled, Read, Source};
use crate::config::Rules;
use crate::mail::InboxId;
use crate::store::batch::Batch;
use crate::store::messages::History;
use crate::store::{StoreError, games, messages};

/// One message taken alone on the caller's transaction, with nothing else
/// waiting: [`one_message`], then its replies rendered and its writes run,
/// ready for the caller to commit (or roll back). A mail taken alone and a
/// move sent by Xfcc both go this way.
pub(super) async fn alone(
    tx: &mut AnyConnection,
    rules: &Rules,
    source: &Source,
    read: Read,
) -> Result<Handled, StoreError> {
    let mut pending = Pending::default();
    let nothing_meanwhile = async { Ok(Batch::default()) };
    let mut handled = one_message(tx, rules, source, read, &mut pending, nothing_meanwhile).await?;
    pending.render(rules, Some(&mut handled))?;
    pending.writes.run(tx).await?;
    Ok(handled)
}

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
    tx: &mut AnyConnection,
    rules: &Rules,
    source: &Source,
    read: Read,
    pending: &mut Pending,
    meanwhile: impl Future<Output = Result<Batch, StoreError>>,
) -> Result<Handled, StoreError> {
    let (history, game_row) = look_up(tx, source, &read, pending, meanwhile).await?;
    let mut loaded = match load(tx, read, history, game_row).await? {
        Ok(loaded) => loaded,
        Err(outcome) => return Ok(Handled::Duplicate { outcome }),
    };
    if let Some(outcome) = loaded.copy.take() {
        // A copy is not decided again; a flag that fell before it still
        // ends the game, as it would have before any message.
        apply::forfeit_only(tx, rules, loaded).await?;
        return Ok(Handled::Duplicate { outcome });
    }
    let mut plan = loaded.plan(rules);
    // Only a message that ends an event game needs its section.
    if plan.ends.is_some()
        && let Some(g) = &loaded.stored
    {
        let section = super::load::event_section(tx, g).await?;
        plan.count_standing(g.view.id, section.as_ref());
    }
    apply::apply(tx, rules, loaded, plan, pending).await
}

/// Seen before, a copy seen before, the last hour's replies and the
/// sender's stored language, and the row of the game the address names:
/// one round trip, after the writes waiting in `pending`, while
/// `meanwhile` runs. Nothing this message's transaction writes before
/// they are used (a forfeit writes no message, no answer to one and no
/// player) changes them.
async fn look_up(
    tx: &mut AnyConnection,
    source: &Source,
    read: &Read,
    pending: &mut Pending,
    meanwhile: impl Future<Output = Result<Batch, StoreError>>,
) -> Result<(History, Option<AnyRow>), StoreError> {
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
