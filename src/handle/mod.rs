//! The use case "a message arrives": read it, decide it, write the answers,
//! and record it all in one transaction. [IO: database]
//!
//! [`handle_message`] is the path of one message: read it (`Read`, before
//! any lock), look up what is known of it (`steps`), load its game and
//! everything its plan is made from (`load`), make its plan
//! (`decide::plan()`, pure), apply the plan and queue the replies
//! (`apply`), render the replies, commit. `wildt
//! check` calls it (a dry run skips the commit, so nothing is recorded and
//! nothing sent); the daemon calls [`handle_group`], which runs the same
//! steps for several messages in one transaction (see `group`), and
//! [`handle_message_at`] for a message taken again alone. The daemon's
//! transport sends the outbox afterwards. A MakeAMove by Xfcc takes the
//! same steps as a message of its own ([`handle_xfcc_move`]).

mod apply;
mod group;
mod load;
mod steps;
mod xfcc;

use std::fmt;

use sha2::{Digest, Sha256};

use crate::config::Rules;
use crate::decide::Decision;
use crate::intake::{self, Intake};
use crate::mail::InboxId;
use crate::mail::render::Rendered;
use crate::reply::Letters;
use crate::store::{Store, StoreError, now_secs};

pub use group::{GroupError, handle_group};
pub use xfcc::{XfccHandled, handle_xfcc_move};

/// Where a message came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// An inbox's message: an IMAP message seen again at the same
    /// coordinates is a duplicate even if its bytes changed; a Maildir
    /// message only if its bytes are the same (a name may be used again).
    Inbox(InboxId),
    /// A file handed to `wildt check`: only the same bytes are a duplicate.
    Cli,
    /// A MakeAMove by Xfcc: each call is a message of its own.
    Xfcc,
}

impl fmt::Display for Source {
    /// The source as recorded in the database.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Inbox(InboxId::Maildir { id }) => write!(f, "maildir:{id}"),
            Source::Inbox(InboxId::Imap {
                mailbox,
                uidvalidity,
                uid,
            }) => write!(f, "imap:{mailbox}:{uidvalidity}:{uid}"),
            Source::Cli => f.write_str("cli"),
            Source::Xfcc => f.write_str("xfcc"),
        }
    }
}

/// Whether the outcome is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Commit,
    /// Everything is decided and written, then rolled back: what would
    /// happen, nothing done.
    DryRun,
}

/// What became of a message.
#[derive(Debug)]
pub enum Handled {
    /// Seen before (same bytes, same inbox coordinates, or another copy:
    /// the same Message-ID from the same sender in the same game, with the
    /// same body): nothing done again.
    Duplicate { outcome: String },
    Decided {
        intake: Box<Intake>,
        decision: Box<Decision>,
        /// The mails the decision writes, after the hourly limit.
        letters: Letters,
        /// Those of them queued in the outbox (a mail whose address lettre
        /// cannot write is left out). Once the message's transaction is
        /// committed, their bytes (`raw`) have been handed to this process's
        /// sender and are empty here.
        mails: Vec<Rendered>,
    },
}

/// Handles one inbound message: dedupe, read, decide, persist, enqueue mail.
/// Every check against deciding it twice runs inside the message's
/// transaction, so two copies handled at once are still decided once.
/// `raw` is the message of `size` bytes, or only its beginning when the
/// inbox did not read all of a message too large to be read anyway.
pub async fn handle_message(
    store: &Store,
    rules: &Rules,
    source: &Source,
    raw: &[u8],
    size: usize,
    mode: Mode,
) -> Result<Handled, StoreError> {
    handle_message_at(store, rules, source, raw, size, mode, None).await
}

/// [`handle_message`] for a message the mailbox received at `arrived`
/// (Unix seconds): the day clocks count the move from then, never from
/// later than now (an outage of the referee costs nobody time).
pub async fn handle_message_at(
    store: &Store,
    rules: &Rules,
    source: &Source,
    raw: &[u8],
    size: usize,
    mode: Mode,
    arrived: Option<i64>,
) -> Result<Handled, StoreError> {
    let incoming = Incoming {
        source: source.clone(),
        raw,
        size,
        arrived,
    };
    let read = Read::new(rules, &incoming, now_secs());
    let _turn = store.write_turn().await;
    let mut tx = store.begin().await?;
    let handled = steps::alone(&mut tx, rules, &incoming.source, read).await?;
    match mode {
        Mode::Commit => tx.commit().await?,
        Mode::DryRun => tx.rollback().await?,
    }
    Ok(handled)
}

/// A message waiting in an inbox, as handed to [`handle_group`].
#[derive(Debug, Clone)]
pub struct Incoming<'a> {
    pub source: Source,
    /// The message, or its beginning when it is larger than the inbox reads.
    pub raw: &'a [u8],
    /// Its size in bytes.
    pub size: usize,
    /// When the mailbox received it (Unix seconds), if the inbox knows.
    pub arrived: Option<i64>,
}

/// What is read from a message before any lock is taken: its digests, the
/// intake's reading and the trusted server's word on the sender.
struct Read {
    sha: String,
    body_sha: String,
    intake: Intake,
    auth: Option<crate::auth::AuthOutcome>,
    source_key: String,
    now: i64,
    /// When the message arrived, never later than `now`.
    arrival: i64,
    /// What a call by Xfcc adds (`None` for a mail).
    xfcc: Option<xfcc::XfccExtras>,
}

impl Read {
    fn new(rules: &Rules, m: &Incoming<'_>, now: i64) -> Read {
        let intake = intake::read_sized(m.raw, m.size, &rules.intake);
        let auth = crate::auth::sender_verdict(
            m.raw,
            rules.security.trusted_authserv_id.as_deref(),
            intake.from.as_deref(),
        );
        Read {
            sha: message_digest(m.raw, m.size),
            body_sha: body_digest(m.raw),
            intake,
            auth,
            source_key: m.source.to_string(),
            now,
            arrival: m.arrived.map_or(now, |a| a.min(now)),
            xfcc: None,
        }
    }
}

/// The message's digest, the key against deciding it twice. Of a message
/// larger than the inbox reads, `raw` is its beginning: its size goes into
/// the digest too, so two different large messages that begin alike are not
/// taken for one.
pub fn message_digest(raw: &[u8], size: usize) -> String {
    let sum = if size > raw.len() {
        let mut h = Sha256::new();
        h.update(raw);
        h.update(format!("\0{size}"));
        h.finalize()
    } else {
        Sha256::digest(raw)
    };
    hex(&sum)
}

/// The digest of the message's body (what follows the first blank line),
/// with carriage returns dropped: copies of one message differ in the
/// headers each delivery adds, and a mailbox moved between servers may have
/// changed its line ends, but the body is the same.
fn body_digest(raw: &[u8]) -> String {
    let lf = raw.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    let crlf = raw.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4);
    let start = lf.into_iter().chain(crlf).min().unwrap_or(raw.len());
    let mut h = Sha256::new();
    for chunk in raw[start..].split(|b| *b == b'\r') {
        h.update(chunk);
    }
    hex(&h.finalize())
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A message's digest is the lowercase hex SHA-256 of its bytes (as
    /// `sha256sum` prints it), as earlier versions recorded it: a database
    /// kept across an upgrade still knows the messages it decided.
    #[test]
    fn a_messages_digest_is_its_sha256_in_lowercase_hex_as_before() {
        assert_eq!(
            message_digest(b"Subject: x\r\n\r\n5254\r\n", 20),
            "2388e3eb2ba19bdf923563545d7127ab739cac306888225361bfcf097d078e4d"
        );
        assert_eq!(hex(&[0x00, 0x0f, 0xa5, 0xff]), "000fa5ff");
    }

    /// The dedupe key of an inbox's message is what earlier versions
    /// recorded: a database kept across an upgrade still knows its messages.
    #[test]
    fn sources_are_recorded_as_before() {
        let maildir = Source::Inbox(InboxId::Maildir {
            id: "1732400000.M1P2.host".to_owned(),
        });
        let imap = Source::Inbox(InboxId::Imap {
            mailbox: "INBOX".to_owned(),
            uidvalidity: 7,
            uid: 42,
        });
        assert_eq!(maildir.to_string(), "maildir:1732400000.M1P2.host");
        assert_eq!(imap.to_string(), "imap:INBOX:7:42");
        assert_eq!(Source::Cli.to_string(), "cli");
    }

    /// Two copies of one message, delivered to two envelope recipients
    /// (other headers on top) or kept with other line ends, have one body
    /// digest; a different text under the same headers has another.
    #[test]
    fn copies_of_a_message_share_the_body_digest() {
        let body = "1. 5254\r\n\r\nAnna\r\n";
        let copy =
            |head: &str| format!("{head}From: a@example.org\r\nMessage-ID: <m@x>\r\n\r\n{body}");
        let first = copy("Delivered-To: chess+1-abcdefgh@club.example\r\n");
        let second = copy("Delivered-To: chess@club.example\r\nReceived: by mx\r\n");
        let lf = first.replace("\r\n", "\n");
        assert_eq!(
            body_digest(first.as_bytes()),
            body_digest(second.as_bytes())
        );
        assert_eq!(body_digest(first.as_bytes()), body_digest(lf.as_bytes()));
        let other = first.replace("5254", "5253");
        assert_ne!(body_digest(first.as_bytes()), body_digest(other.as_bytes()));
    }

    /// A message larger than the inbox read is keyed by its beginning and
    /// its size: two that begin alike but differ in size are two messages.
    #[test]
    fn a_cut_message_is_keyed_by_its_size_too() {
        let head = b"From: a@example.org\r\n\r\nxxxx";
        assert_ne!(message_digest(head, 1000), message_digest(head, 1001));
        assert_ne!(message_digest(head, 1000), message_digest(head, head.len()));
    }
}
