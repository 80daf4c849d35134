//! Mail in doubt, settled by its receipt (`[receipts]`). [IO]
//!
//! A process killed between the relay's "250 OK" and marking a mail sent
//! leaves that mail in doubt: its row is taken back (`doubt_since`), and
//! sending it again might deliver it twice. Every mail sent over SMTP also
//! names the receipts address in the same transaction, so the relay took
//! the player's copy exactly when a copy arrived in the receipts mailbox.
//! Before a mail in doubt is sent again, the sender looks for its copy
//! there: found, the mail is marked sent; not found, it waits for the copy
//! up to `[receipts] wait_secs` after the doubt began, then is sent again.

use std::collections::HashSet;
use std::sync::atomic::{AtomicI64, Ordering};

use tracing::{debug, error, info, warn};

use crate::config::ReceiptsConfig;
use crate::mail::InboxError;
use crate::mail::imap::ImapInbox;
use crate::store::{OutboxRow, Store, StoreError, now_secs};

/// How soon the receipts mailbox is looked at again when it cannot be read.
const UNREADABLE_RETRY_SECS: i64 = 30;

/// How often old copies are deleted from the receipts mailbox.
const CLEAN_EVERY_SECS: i64 = 3600;

/// What to do with the mails in doubt of a lease.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Settled {
    /// Their copy arrived: the relay took them. Marked sent, not sent.
    pub delivered: Vec<i64>,
    /// No copy yet and still within the wait: put back until then.
    pub waiting: Vec<(i64, i64)>,
    /// No copy within the wait: sent again.
    pub again: Vec<i64>,
}

/// Decides, for each mail in doubt of `rows`, from the copies `found` (by
/// Message-ID) at `now`, with `wait` seconds allowed for a copy. [pure]
pub fn settle(rows: &[OutboxRow], found: &HashSet<String>, now: i64, wait: i64) -> Settled {
    let mut s = Settled::default();
    for row in rows {
        let Some(since) = row.doubt_since else {
            continue;
        };
        if found.contains(&row.message_id) {
            s.delivered.push(row.id);
        } else if now < since + wait {
            s.waiting.push((row.id, since + wait));
        } else {
            s.again.push(row.id);
        }
    }
    s
}

/// Settles the mails in doubt among `rows` and returns the rows to send:
/// those not in doubt, and those in doubt whose copy never came (or whose
/// wait is over while the receipts mailbox cannot be read). Without
/// `[receipts]` the mails in doubt are sent again (at least once, perhaps
/// twice), as said in the log.
pub async fn sort_out(
    store: &Store,
    receipts: Option<&ReceiptsConfig>,
    rows: Vec<OutboxRow>,
) -> Result<Vec<OutboxRow>, StoreError> {
    if rows.iter().all(|r| r.doubt_since.is_none()) {
        return Ok(rows);
    }
    let Some(receipts) = receipts else {
        let count = rows.iter().filter(|r| r.doubt_since.is_some()).count();
        info!(
            count,
            "outbox: sending again mail a process that died may have sent; \
             with [receipts] configured it would be looked for first"
        );
        return Ok(rows);
    };
    let ids: Vec<String> = rows
        .iter()
        .filter(|r| r.doubt_since.is_some())
        .map(|r| r.message_id.clone())
        .collect();
    // Unreadable (a wrong password, the server away), the mailbox is
    // looked at again soon, and a mail whose wait is over goes anyway:
    // held until the operator mends [receipts], it would be late for sure.
    let (found, readable) = match look_for(receipts, &ids).await {
        Ok(found) => (found, true),
        Err(e) => {
            error!(error = %e, count = ids.len(),
                "outbox: the receipts mailbox cannot be read (check [receipts]); mail in doubt \
                 is looked for again soon, and sent once its wait is over");
            (HashSet::new(), false)
        }
    };
    let wait = i64::try_from(receipts.wait.as_secs()).unwrap_or(i64::MAX);
    let now = now_secs();
    let settled = settle(&rows, &found, now, wait);
    if !settled.delivered.is_empty() {
        info!(
            count = settled.delivered.len(),
            "outbox: the relay took mail before a process died (its receipt came); marked sent, not sent again"
        );
        store.mark_sent_many(&settled.delivered).await?;
    }
    for &(id, until) in &settled.waiting {
        let until = if readable {
            until
        } else {
            until.min(now + UNREADABLE_RETRY_SECS)
        };
        debug!(
            outbox_id = id,
            until, "outbox: mail in doubt waits for its receipt"
        );
        store.await_receipt(id, until).await?;
    }
    if !settled.again.is_empty() {
        info!(
            count = settled.again.len(),
            wait_secs = wait,
            "outbox: no receipt came for mail a process died with; sending it again"
        );
    }
    Ok(rows
        .into_iter()
        .filter(|r| r.doubt_since.is_none() || settled.again.contains(&r.id))
        .collect())
}

/// Of `message_ids`, those whose copy is in the receipts mailbox.
async fn look_for(
    receipts: &ReceiptsConfig,
    message_ids: &[String],
) -> Result<HashSet<String>, InboxError> {
    let mut mailbox = ImapInbox::connect(&receipts.imap).await?;
    let found = mailbox.receipts_found(message_ids).await;
    if let Err(e) = mailbox.logout().await {
        debug!(error = %e, "receipts mailbox: logout");
    }
    found
}

/// When this process last deleted old copies (seconds since the epoch).
static CLEANED_AT: AtomicI64 = AtomicI64::new(0);

/// Deletes the copies older than `[receipts] keep_days`, at most once an
/// hour per process; a failure is logged and tried again an hour later.
pub async fn clean_if_due(receipts: &ReceiptsConfig) {
    let now = now_secs();
    let last = CLEANED_AT.load(Ordering::Relaxed);
    if now - last < CLEAN_EVERY_SECS
        || CLEANED_AT
            .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
    {
        return;
    }
    let cleaned = async {
        let mut mailbox = ImapInbox::connect(&receipts.imap).await?;
        let dropped = mailbox.drop_receipts_older(receipts.keep.as_secs()).await;
        if let Err(e) = mailbox.logout().await {
            debug!(error = %e, "receipts mailbox: logout");
        }
        dropped
    }
    .await;
    match cleaned {
        Ok(0) => {}
        Ok(n) => info!(deleted = n, "receipts mailbox: old copies deleted"),
        Err(e) => {
            warn!(error = %e, "receipts mailbox: old copies not deleted; tried again in an hour")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: i64, doubt_since: Option<i64>) -> OutboxRow {
        OutboxRow {
            id,
            message_id: format!("m{id}@club.example"),
            sender: "ref@club.example".into(),
            recipient: "p@example.org".into(),
            raw: Vec::new(),
            attempts: 1,
            doubt_since,
        }
    }

    /// A mail whose copy came is delivered however old its doubt; one
    /// without a copy waits until the doubt is `wait` old, then is sent
    /// again; a mail not in doubt is none of these.
    #[test]
    fn a_copy_settles_a_mail_in_doubt_and_its_absence_waits_then_resends() {
        let rows = [
            row(1, None),
            row(2, Some(1_000)),
            row(3, Some(1_000)),
            row(4, Some(700)),
        ];
        let found: HashSet<String> = ["m2@club.example".to_owned()].into();
        let s = settle(&rows, &found, 1_100, 300);
        assert_eq!(s.delivered, [2]);
        assert_eq!(s.waiting, [(3, 1_300)]);
        assert_eq!(s.again, [4]);
        let found_late: HashSet<String> = ["m4@club.example".to_owned()].into();
        assert_eq!(settle(&rows, &found_late, 5_000, 300).delivered, [4]);
    }
}
