//! The inbox the daemon reads: one [`Inbox`] over the Maildir and IMAP
//! implementations, the id of a message in it, and why reading it failed. [IO]

use std::path::PathBuf;
use std::time::Duration;

use tracing::debug;

use super::imap::ImapInbox;
use super::maildir::MaildirInbox;
use crate::config::InboxConfig;

/// At most this many Maildir messages per [`Inbox::fetch_waiting`] (IMAP has
/// its own batch, [`super::imap::FETCH_BATCH`]). A listing holds names and
/// sizes only (bodies are read a group at a time), while each listing reads
/// the whole folder: with 200, a backlog of 10,000 mails is listed 50
/// times, 4 % of the CPU of taking it.
const BATCH: usize = 2000;

/// The inbox behind the loop.
pub enum Inbox {
    Maildir(MaildirInbox),
    Imap(Box<ImapInbox>),
}

impl Inbox {
    /// Opens the inbox; it reads at most `max_message_bytes + 1` bytes of
    /// any message.
    pub async fn open(config: &InboxConfig, max_message_bytes: usize) -> Result<Inbox, InboxError> {
        Ok(match config {
            InboxConfig::Maildir { path } => {
                let mut m = MaildirInbox::open(path)?;
                m.set_max_message_bytes(max_message_bytes);
                Inbox::Maildir(m)
            }
            InboxConfig::Imap(cfg) => {
                let mut i = ImapInbox::connect(cfg).await?;
                i.set_max_message_bytes(max_message_bytes);
                Inbox::Imap(Box::new(i))
            }
        })
    }

    /// The messages waiting, oldest first, at most a batch of them.
    pub async fn fetch_waiting(&mut self) -> Result<Vec<Inbound>, InboxError> {
        match self {
            Inbox::Maildir(m) => m.fetch_waiting(BATCH),
            Inbox::Imap(i) => i.fetch_waiting().await,
        }
    }

    /// The messages waiting, oldest first, at most a batch of them, without
    /// their bodies: take each with [`Inbox::fetch_one`], so that a flood
    /// costs the memory of one message and the daemon can tell the watchdog
    /// it is alive between any two.
    pub async fn list_waiting(&mut self) -> Result<Vec<Waiting>, InboxError> {
        match self {
            Inbox::Maildir(m) => m.list_waiting(BATCH),
            Inbox::Imap(i) => i.list_waiting().await,
        }
    }

    /// Whether mail arrived since the last listing, as far as the inbox was
    /// told without asking (an IMAP server's `EXISTS` after a command): the
    /// daemon then lists again between two groups, so fresh mail can go
    /// before a backlog it does not depend on. A Maildir is listed again
    /// only once its listing is done.
    pub fn mail_announced(&mut self) -> bool {
        match self {
            Inbox::Maildir(_) => false,
            Inbox::Imap(i) => i.mail_announced(),
        }
    }

    /// One listed message with its body (at most `max_message_bytes + 1`
    /// bytes of it); `None` if it is gone or, in a Maildir, cannot be read
    /// (it is skipped with a warning).
    pub async fn fetch_one(&mut self, id: &InboxId) -> Result<Option<Inbound>, InboxError> {
        match self {
            Inbox::Maildir(m) => m.fetch_one(id),
            Inbox::Imap(i) => i.fetch_one(id).await,
        }
    }

    /// The listed messages `waiting` with their bodies, in that order, for
    /// one group: an IMAP inbox fetches them with one command per few
    /// megabytes ([`crate::mail::imap::ImapInbox::fetch_many`]). A message
    /// gone or unreadable is left out, as with [`Inbox::fetch_one`].
    pub async fn fetch_many(&mut self, waiting: &[Waiting]) -> Result<Vec<Inbound>, InboxError> {
        match self {
            Inbox::Maildir(m) => {
                let mut out = Vec::with_capacity(waiting.len());
                for w in waiting {
                    if let Some(msg) = m.fetch_one(&w.id)? {
                        out.push(msg);
                    }
                }
                Ok(out)
            }
            Inbox::Imap(i) => i.fetch_many(waiting).await,
        }
    }

    /// Tells the inbox a message is handled (its outcome is committed).
    pub async fn mark_done(&mut self, id: &InboxId) -> Result<(), InboxError> {
        match self {
            Inbox::Maildir(m) => m.mark_done(id),
            Inbox::Imap(i) => i.mark_done(id).await,
        }
    }

    /// Tells the inbox the messages `ids` are handled, all at once where the
    /// inbox can: one `UID STORE` (and one `UID MOVE`) for a group of IMAP
    /// messages of one mailbox instead of one each.
    pub async fn mark_done_all(&mut self, ids: &[InboxId]) -> Result<(), InboxError> {
        match self {
            Inbox::Maildir(m) => ids.iter().try_for_each(|id| m.mark_done(id)),
            Inbox::Imap(i) => i.mark_done_all(ids).await,
        }
    }

    /// Puts a message that could not be handled in the quarantine `folder`
    /// (a Maildir++ subfolder `.folder`, or an IMAP folder), where the
    /// organiser finds it and the daemon no longer fetches it.
    pub async fn quarantine(&mut self, id: &InboxId, folder: &str) -> Result<(), InboxError> {
        match self {
            Inbox::Maildir(m) => m.quarantine(id, folder).map(drop),
            Inbox::Imap(i) => i.quarantine(id, folder).await,
        }
    }

    /// Logs out of IMAP, but never holds up a stop for long: a session that
    /// does not answer within 5 s is simply dropped.
    pub async fn close(self) {
        if let Inbox::Imap(i) = self {
            match tokio::time::timeout(Duration::from_secs(5), i.logout()).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => debug!(error = %e, "IMAP logout"),
                Err(_) => debug!("IMAP logout timed out"),
            }
        }
    }

    /// Forgets the current IMAP session; the next call opens a new one.
    pub fn drop_session(&mut self) {
        if let Inbox::Imap(i) = self {
            i.drop_session();
        }
    }

    /// Waits until mail may have arrived, or `max`. Cancel-safe: the daemon
    /// races it against the stop request.
    pub async fn wait_for_mail(&mut self, max: Duration) -> Result<(), InboxError> {
        match self {
            Inbox::Maildir(m) => {
                m.wait_for_mail(max).await;
                Ok(())
            }
            Inbox::Imap(i) => i.wait_for_mail(max).await,
        }
    }
}

/// Where a message came from, precisely enough to tell the inbox it is done and
/// to recognise it again.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum InboxId {
    /// The Maildir file's unique id (the part of its name before `:2,`).
    Maildir { id: String },
    /// IMAP coordinates: the same message keeps them until UIDVALIDITY changes.
    Imap {
        mailbox: String,
        uidvalidity: u32,
        uid: u32,
    },
}

/// A message waiting in the inbox, before its body is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    pub id: InboxId,
    /// The whole message's size in bytes, as the inbox reports it.
    pub size: usize,
    /// The header fields that say which waiting mail it must not pass
    /// ([`crate::intake::order::ORDER_HEADERS`]), where the inbox reads them
    /// with the listing (IMAP); `None`: it is taken in order of arrival.
    pub headers: Option<std::sync::Arc<[u8]>>,
}

/// A message waiting in the inbox: its id, its raw bytes (RFC 5322), and its
/// size. An inbox reads at most `max_message_bytes + 1` bytes of a message:
/// a larger one is not read anyway, and this bounds the memory it can take.
#[derive(Debug, Clone)]
pub struct Inbound {
    pub id: InboxId,
    /// The whole message, or only its first `max_message_bytes + 1` bytes
    /// when `size` is larger.
    pub raw: Vec<u8>,
    /// The whole message's size in bytes.
    pub size: usize,
    /// When the mailbox received it (IMAP INTERNALDATE, a Maildir file's
    /// modification time), Unix seconds; the day clocks count from it.
    pub arrived: Option<i64>,
}

#[derive(Debug, thiserror::Error)]
pub enum InboxError {
    #[error("maildir {path}: {source}")]
    Maildir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("IMAP {context}: {source}")]
    Imap {
        context: &'static str,
        source: async_imap::error::Error,
    },
    #[error("IMAP connection to {host}:{port}: {source}")]
    Connect {
        host: String,
        port: u16,
        source: std::io::Error,
    },
    #[error("TLS setup: {0}")]
    Tls(#[from] TlsError),
    /// A command on an open session failed (`server` is `host:port`).
    #[error("IMAP {server}: {step}: {source}")]
    ImapStep {
        server: String,
        step: &'static str,
        source: async_imap::error::Error,
    },
    /// The server answered LOGIN with NO: wrong user or password.
    #[error("IMAP {server}: login as {username} refused: {reason}")]
    Login {
        server: String,
        username: String,
        reason: String,
    },
    #[error("IMAP {server}: STARTTLS refused: {reason}")]
    StartTlsRefused { server: String, reason: String },
    #[error("IMAP {server}: TLS handshake: {source}")]
    TlsHandshake {
        server: String,
        source: std::io::Error,
    },
    #[error("IMAP {server}: {step} took longer than {after:?}")]
    Timeout {
        server: String,
        step: &'static str,
        after: std::time::Duration,
    },
    #[error("IMAP {server}: mailbox {mailbox} reports no UIDVALIDITY")]
    NoUidValidity { server: String, mailbox: String },
    /// The mailbox was recreated since the message was fetched: its UID no
    /// longer names it, so it cannot be flagged; it will be fetched again.
    #[error(
        "IMAP mailbox {mailbox}: UIDVALIDITY is now {found}, the message was fetched under {expected}"
    )]
    UidValidityChanged {
        mailbox: String,
        expected: u32,
        found: u32,
    },
    /// An id from another inbox kind (a Maildir id given to the IMAP inbox).
    #[error("{0:?} does not belong to this inbox")]
    ForeignId(InboxId),
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
}

/// Why the TLS client for IMAP could not be set up (before any connection).
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("CA file {path}: {source}")]
    CaFileRead {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("CA file {path}: {source}")]
    CaFilePem {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("CA file {path} holds no PEM certificate")]
    CaFileEmpty { path: PathBuf },
    #[error("CA file {path}: {source}")]
    CaFileCertificate {
        path: PathBuf,
        source: rustls::Error,
    },
    #[error("host {host:?}: {source}")]
    ServerName {
        host: String,
        source: rustls::pki_types::InvalidDnsNameError,
    },
    #[error(transparent)]
    Protocol(rustls::Error),
}
