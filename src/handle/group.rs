//! Group commit: several messages handled in one transaction, by the same
//! steps as [`super::handle_message`] ([`super::steps::one_message`] for
//! each, in order), with one commit for all. [IO: database]
//!
//! Two things are reordered, and nothing else:
//! - a message's writes that need nothing read after them (its row, the
//!   game's change, its replies' outbox rows, see `apply::Pending`) are
//!   not run on their own but go to the database with the next message's
//!   reads, in the same order, one round trip instead of two;
//! - while the database runs that round trip, the message before's replies
//!   are rendered (their bodies go with the round trip after) and the next
//!   message is read ([`super::Read`]).
//!
//! A failure in work moved to a later message is reported at that message;
//! the caller takes the group's messages again one at a time anyway.

use std::time::{Duration, Instant};

use super::apply::{Pending, add_bodies};
use super::{Handled, Incoming, Read, steps};
use crate::config::Rules;
use crate::store::batch::Batch;
use crate::store::{Store, StoreError, now_secs};

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
    budget: Duration,
    mut between: impl FnMut(),
) -> Result<Vec<Handled>, GroupError> {
    let started = Instant::now();
    let now = now_secs();
    let _turn = store.write_turn().await;
    let mut tx = store
        .begin()
        .await
        .map_err(|error| GroupError { at: None, error })?;
    let mut handled: Vec<Handled> = Vec::with_capacity(group.len());
    let mut pending = Pending::default();
    // The next message, read while the database ran this one's round trip.
    let mut next: Option<Read> = None;
    for (i, m) in group.iter().enumerate() {
        if i > 0 && started.elapsed() >= budget {
            break;
        }
        let read = match next.take() {
            Some(read) => read,
            None => Read::new(rules, m, now),
        };
        let ahead = group.get(i + 1);
        let behind = handled.last_mut();
        let unrendered = pending.unrendered.take();
        let next_slot = &mut next;
        // The replies of the message before, rendered and packed into the
        // next batch, and the next message read.
        let meanwhile = async move {
            let mut bodies = Batch::default();
            if let (Some(u), Some(h)) = (unrendered, behind) {
                let unwritten = u.render(rules, h);
                add_bodies(&mut bodies, h, &unwritten)?;
            }
            *next_slot = ahead.map(|m| Read::new(rules, m, now));
            Ok(bodies)
        };
        let one = steps::one_message(&mut tx, rules, &m.source, read, &mut pending, meanwhile);
        match one.await {
            Ok(h) => handled.push(h),
            Err(error) => {
                rollback(tx).await;
                return Err(GroupError { at: Some(i), error });
            }
        }
        crate::failpoint::hit("group-handled", i + 1);
        between();
    }
    let finished = match pending.render(rules, handled.last_mut()) {
        Ok(()) => pending.writes.run(&mut tx).await.map(drop),
        Err(e) => Err(e),
    };
    if let Err(error) = finished {
        let at = Some(handled.len().saturating_sub(1));
        rollback(tx).await;
        return Err(GroupError { at, error });
    }
    crate::failpoint::hit("group-before-commit", handled.len());
    tx.commit().await.map_err(|e| GroupError {
        at: None,
        error: e.into(),
    })?;
    Ok(handled)
}

/// Rolls the group's transaction back (dropping it would too; said here
/// for the reader).
async fn rollback(tx: sqlx::Transaction<'_, sqlx::Any>) {
    if let Err(e) = tx.rollback().await {
        tracing::warn!(error = %e, "group not rolled back cleanly; the database rolls it back when the connection is reused");
    }
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
