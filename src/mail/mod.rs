//! Mail in and out: the inbox (Maildir, IMAP) and the transports (file, SMTP,
//! sendmail). [IO]
//!
//! The daemon sees one [`Inbox`] and one [`Transport`]; which implementation
//! sits behind them comes from the configuration.
//!
//! - [`inbox`]     the [`Inbox`], a message's [`InboxId`], [`InboxError`]
//! - [`maildir`]   the Maildir inbox
//! - [`imap`]      the IMAP inbox and the reconnect backoff
//! - [`transport`] the [`Transport`] and [`TransportError`]
//! - [`smtp`]      the SMTP transport
//! - [`render`]    a reply as RFC 5322 bytes

pub mod imap;
pub mod inbox;
pub mod maildir;
pub mod render;
pub mod smtp;
pub mod transport;

pub use inbox::{Inbound, Inbox, InboxError, InboxId, TlsError, Waiting};
pub use transport::{Transport, TransportError};
