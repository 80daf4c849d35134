//! Mail in and out: the inbox (Maildir, IMAP) and the outbox transports (file,
//! SMTP, sendmail). [IO]
//!
//! The daemon sees one [`Inbox`] and one [`Transport`]; which implementation sits
//! behind them comes from the configuration.

pub mod imap;
pub mod maildir;
pub mod outbox;
pub mod render;

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

/// A message waiting in the inbox: its id and its raw bytes (RFC 5322).
#[derive(Debug, Clone)]
pub struct Inbound {
    pub id: InboxId,
    pub raw: Vec<u8>,
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
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
}
