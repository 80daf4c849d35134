//! The quarantine: a message whose handling fails in a way that will not
//! pass by waiting is counted, durably, and at the [`QUARANTINE_AFTER`]th
//! failure moved to the quarantine folder, with a notice to the organiser,
//! so that one message never blocks the inbox. The organiser's use case,
//! in transactions of its own. [IO]

use tracing::{error, warn};

use super::{DaemonError, RunReport};
use crate::config::{Config, QUARANTINE_AFTER, Rules};
use crate::handle::{Source, message_digest};
use crate::mail::{Inbound, Inbox};
use crate::store::{Store, StoreError, failures, now_secs, outbox};

/// Counts the failure `error` of handling `msg` and, at the
/// [`QUARANTINE_AFTER`]th, puts the message in the quarantine and tells the
/// organiser. Below that, the message stays in the inbox and is tried again.
pub(super) async fn count_failure(
    store: &Store,
    inbox: &mut Inbox,
    config: &Config,
    rules: &Rules,
    msg: &Inbound,
    error: &StoreError,
    summary: &mut RunReport,
) -> Result<(), DaemonError> {
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
    if let Err(e) = inbox.quarantine(&msg.id, &config.quarantine).await {
        // Several daemons on one inbox each count the failures of a
        // message: the one that moved it first recorded it, and the others
        // find it gone from the inbox. Only then is the failure to move it
        // nothing to report.
        if already_quarantined(store, &sha).await {
            warn!(%source, "message put in the quarantine by another daemon");
            return Ok(());
        }
        return Err(e.into());
    }
    let failure = Failure {
        source: &source,
        sha: &sha,
        attempts,
        error,
        now,
    };
    quarantined(store, config, rules, msg, &failure).await?;
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

/// Whether the message with digest `sha` is recorded as in the quarantine
/// (by another daemon); a database error counts as not.
async fn already_quarantined(store: &Store, sha: &str) -> bool {
    match sqlx::query_scalar::<_, i64>(
        "SELECT COUNT(*) FROM inbox_failures WHERE sha256 = $1 AND quarantined_at IS NOT NULL",
    )
    .bind(sha.to_owned())
    .fetch_one(store.pool())
    .await
    {
        Ok(n) => n > 0,
        Err(e) => {
            warn!(error = %e, "quarantine: not read");
            false
        }
    }
}

/// A message's last failure, as the quarantine records it.
struct Failure<'a> {
    source: &'a str,
    sha: &'a str,
    attempts: u32,
    error: &'a StoreError,
    now: i64,
}

/// Records that the message of `failure` is in the quarantine and queues
/// the organiser's notice, if an organiser is configured, in one
/// transaction.
async fn quarantined(
    store: &Store,
    config: &Config,
    rules: &Rules,
    msg: &Inbound,
    failure: &Failure<'_>,
) -> Result<(), StoreError> {
    // Headers only, read again here: what the organiser needs to find it.
    let intake = crate::intake::read_sized(&msg.raw, msg.size, &rules.intake);
    let mut tx = store.begin().await?;
    failures::mark_quarantined(&mut tx, failure.sha, failure.now).await?;
    if let Some(organiser) = &rules.referee.organiser {
        let mail = crate::reply::quarantine_notice(
            organiser,
            failure.source,
            intake.message_id.as_deref(),
            intake.from.as_deref(),
            failure.attempts,
            &failure.error.to_string(),
            &config.quarantine,
        );
        match crate::mail::render::render(&mail, &rules.referee, None, &[]) {
            Ok(r) => {
                let from = &rules.referee.address;
                outbox::enqueue(&mut tx, None, &mail, &r, from, failure.now).await?;
            }
            Err(e) => warn!(error = %e, "organiser notice not rendered"),
        }
    }
    tx.commit().await?;
    Ok(())
}
