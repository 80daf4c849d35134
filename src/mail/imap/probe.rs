//! What `wildt config check --connect` asks of the IMAP inbox beyond the
//! daemon's needs: whether the server offers IDLE, and taking back the probe
//! mail it sent itself (find it by Message-ID, read its header, delete it). [IO]

use futures::TryStreamExt;

use super::{COMMAND_TIMEOUT, Fetch, ImapInbox, Session, quote};
use crate::mail::InboxError;

impl ImapInbox {
    /// The server listed IDLE in its capabilities at login.
    pub fn offers_idle(&self) -> bool {
        self.caps.idle
    }

    /// Looks for the message whose `Message-ID` is `<message_id>` in the
    /// configured mailbox, then in `processed_mailbox` (a running daemon may
    /// have moved it there); when found, returns its header and deletes it.
    pub async fn take_probe(&mut self, message_id: &str) -> Result<Option<Vec<u8>>, InboxError> {
        let mut mailboxes = vec![self.cfg.mailbox.clone()];
        mailboxes.extend(self.cfg.processed_mailbox.clone());
        for mailbox in mailboxes {
            let mut session = self.take_session().await?;
            let result = tokio::time::timeout(
                COMMAND_TIMEOUT,
                self.take_probe_in(&mut session, &mailbox, message_id),
            )
            .await;
            if let Some(header) = self.finish(session, "take probe", result)? {
                return Ok(Some(header));
            }
        }
        Ok(None)
    }

    async fn take_probe_in(
        &mut self,
        session: &mut Session,
        mailbox: &str,
        message_id: &str,
    ) -> Result<Option<Vec<u8>>, InboxError> {
        // A fresh SELECT: the probe may have arrived since the last one.
        self.selected = None;
        self.select(session, mailbox).await?;
        let query = format!("HEADER Message-ID {}", quote(&format!("<{message_id}>")));
        let uids: Vec<u32> = session
            .uid_search(&query)
            .await
            .map_err(|source| self.step_error("UID SEARCH probe", source))?
            .into_iter()
            .collect();
        let Some(uid) = uids.into_iter().min() else {
            return Ok(None);
        };
        let uid = uid.to_string();
        let fetches: Vec<Fetch> = session
            .uid_fetch(&uid, "(UID BODY.PEEK[HEADER])")
            .await
            .map_err(|source| self.step_error("UID FETCH probe", source))?
            .try_collect()
            .await
            .map_err(|source| self.step_error("UID FETCH probe", source))?;
        let header = fetches
            .iter()
            .find_map(|f| f.header().map(<[u8]>::to_vec))
            .unwrap_or_default();
        self.store(session, &uid, "+FLAGS.SILENT (\\Seen \\Deleted)")
            .await?;
        // Only the probe goes: without UIDPLUS it stays flagged \Deleted
        // rather than expunging other messages someone marked so.
        if self.caps.uidplus {
            let expunged: Vec<u32> = session
                .uid_expunge(&uid)
                .await
                .map_err(|source| self.step_error("UID EXPUNGE probe", source))?
                .try_collect()
                .await
                .map_err(|source| self.step_error("UID EXPUNGE probe", source))?;
            tracing::debug!(count = expunged.len(), "probe expunged");
        }
        Ok(Some(header))
    }
}
