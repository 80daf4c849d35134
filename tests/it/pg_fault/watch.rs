//! A mailbox watched as it fills: each look fetches only the headers of the
//! messages that arrived since the last one, over its own plain IMAP session
//! (read-only, flags untouched), so a thousand mails cost a thousand small
//! fetches over a run, not one whole mailbox a poll. [IO: network]

use futures::TryStreamExt;

use crate::e2e::Mail;
use crate::support::rig::{Rig, Seen, default_password};

/// The header fields a look fetches: enough to count a mail by Message-ID
/// and tell what it is (its kind, game and subject).
const FIELDS: &str = "MESSAGE-ID X-WILDT-EVENT X-WILDT-GAME SUBJECT FROM TO";

/// One account's INBOX and the mails seen in it so far.
pub struct Watch {
    pub account: String,
    session: async_imap::Session<tokio::net::TcpStream>,
    /// The next UID not yet seen.
    next_uid: u32,
    /// Every mail seen, in UID order, with its headers only.
    pub seen: Vec<Mail>,
}

impl Watch {
    pub async fn open(rig: &Rig, account: &str) -> Watch {
        let tcp = tokio::net::TcpStream::connect((rig.host.as_str(), rig.imap_port))
            .await
            .unwrap_or_else(|e| panic!("watch {account}: connect: {e}"));
        let mut client = async_imap::Client::new(tcp);
        client
            .read_response()
            .await
            .expect("watch: greeting")
            .expect("watch: greeting");
        let session = client
            .login(account, default_password(account))
            .await
            .unwrap_or_else(|(e, _)| panic!("watch {account}: login: {e}"));
        Watch {
            account: account.to_owned(),
            session,
            next_uid: 1,
            seen: Vec::new(),
        }
    }

    /// Fetches what arrived since the last look; returns how many mails.
    pub async fn look(&mut self) -> usize {
        // EXAMINE again: the session then knows of every message delivered
        // since, and nothing is flagged.
        let mb = self
            .session
            .examine("INBOX")
            .await
            .unwrap_or_else(|e| panic!("watch {}: EXAMINE: {e}", self.account));
        if mb.exists == 0 || mb.uid_next.is_some_and(|next| next <= self.next_uid) {
            return 0;
        }
        let fetches: Vec<_> = self
            .session
            .uid_fetch(
                format!("{}:*", self.next_uid),
                format!("(UID BODY.PEEK[HEADER.FIELDS ({FIELDS})])"),
            )
            .await
            .unwrap_or_else(|e| panic!("watch {}: UID FETCH: {e}", self.account))
            .try_collect()
            .await
            .unwrap_or_else(|e| panic!("watch {}: UID FETCH: {e}", self.account));
        let mut fresh: Vec<Seen> = fetches
            .iter()
            .filter_map(|f| {
                Some(Seen {
                    uid: f.uid?,
                    seen_flag: false,
                    raw: f.header()?.to_vec(),
                })
            })
            // `N:*` names the last message even when its UID is below N.
            .filter(|s| s.uid >= self.next_uid)
            .collect();
        fresh.sort_by_key(|s| s.uid);
        let n = fresh.len();
        if let Some(last) = fresh.last() {
            self.next_uid = last.uid + 1;
        }
        self.seen.extend(fresh.into_iter().map(Mail::parse));
        n
    }

    pub async fn close(mut self) {
        // The session ends with the test either way; a failed LOGOUT changes
        // nothing counted.
        self.session.logout().await.ok();
    }
}
