//! The receipts mailbox (`[receipts]`): whether the copy of a mail in
//! doubt arrived, and deleting the copies kept long enough. [IO]
//!
//! Every mail sent over SMTP names the receipts address as a second
//! envelope recipient in the same transaction, so the relay takes both or
//! neither: a copy here proves the relay took the player's mail.

use std::collections::HashSet;

use futures::TryStreamExt;

use super::{COMMAND_TIMEOUT, ImapInbox, Session, quote};
use crate::mail::InboxError;

impl ImapInbox {
    /// Of the mails `message_ids` (without their angle brackets), those
    /// whose copy is in the configured mailbox.
    pub async fn receipts_found(
        &mut self,
        message_ids: &[String],
    ) -> Result<HashSet<String>, InboxError> {
        let mut session = self.take_session().await?;
        let result = tokio::time::timeout(
            COMMAND_TIMEOUT,
            self.receipts_found_in(&mut session, message_ids),
        )
        .await;
        self.finish(session, "look for receipts", result)
    }

    async fn receipts_found_in(
        &mut self,
        session: &mut Session,
        message_ids: &[String],
    ) -> Result<HashSet<String>, InboxError> {
        // A fresh SELECT: the copies that arrived since the last one count.
        self.selected = None;
        let mailbox = self.cfg.mailbox.clone();
        self.select(session, &mailbox).await?;
        let mut found = HashSet::new();
        for id in message_ids {
            let query = format!("HEADER Message-ID {}", quote(&format!("<{id}>")));
            let uids = session
                .uid_search(&query)
                .await
                .map_err(|source| self.step_error("UID SEARCH receipt", source))?;
            if !uids.is_empty() {
                found.insert(id.clone());
            }
        }
        Ok(found)
    }

    /// Deletes the copies that arrived more than `older_than_secs` ago
    /// (IMAP `OLDER`, RFC 5032); how many.
    pub async fn drop_receipts_older(&mut self, older_than_secs: u64) -> Result<usize, InboxError> {
        let mut session = self.take_session().await?;
        let result = tokio::time::timeout(
            COMMAND_TIMEOUT,
            self.drop_receipts_in(&mut session, older_than_secs),
        )
        .await;
        self.finish(session, "delete old receipts", result)
    }

    async fn drop_receipts_in(
        &mut self,
        session: &mut Session,
        older_than_secs: u64,
    ) -> Result<usize, InboxError> {
        self.selected = None;
        let mailbox = self.cfg.mailbox.clone();
        self.select(session, &mailbox).await?;
        let mut uids: Vec<u32> = session
            .uid_search(format!("OLDER {}", older_than_secs.max(1)))
            .await
            .map_err(|source| self.step_error("UID SEARCH OLDER", source))?
            .into_iter()
            .collect();
        if uids.is_empty() {
            return Ok(0);
        }
        uids.sort_unstable();
        let set = super::uid_set(&uids);
        self.store(session, &set, "+FLAGS.SILENT (\\Seen \\Deleted)")
            .await?;
        // The mailbox holds nothing but copies: a plain EXPUNGE is safe.
        let expunged: Vec<u32> = session
            .expunge()
            .await
            .map_err(|source| self.step_error("EXPUNGE receipts", source))?
            .try_collect()
            .await
            .map_err(|source| self.step_error("EXPUNGE receipts", source))?;
        tracing::debug!(expunged = expunged.len(), "old receipts expunged");
        Ok(uids.len())
    }
}
