//! Mail in and out: the inbox (Maildir, IMAP) and the outbox transports (file,
//! SMTP, sendmail). [IO]
//!
//! The daemon sees one [`Inbox`] and one [`Transport`]; which implementation sits
//! behind them comes from the configuration.

pub mod imap;
pub mod maildir;
pub mod outbox;
pub mod render;
pub mod smtp;

/// Where a message came from, precisely enough to tell the inbox it is done and
/// to recognise it again.
#[derive(Debug, Clone, PartialEq, Eq)]
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
}

#[derive(Debug, thiserror::Error)]
pub enum InboxError {
    #[error("maildir {path}: {source}")]
    Maildir {
        path: std::path::PathBuf,
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
    Tls(String),
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
