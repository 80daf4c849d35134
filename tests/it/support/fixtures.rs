//! Test data written once: the referee every test configuration names, the
//! game-17 fixture the intake tests write to (its key comes from
//! `wildt::fixtures`, which the benches and fuzz targets share), and small
//! mails built or read in memory. [no IO but the clock, in `unique`]
//!
//! The engine bench includes this file too (with `pathological.rs`), so it
//! uses nothing of the test binary.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use wildt::fixtures::{WHITE_KEY, referee};
use wildt::intake::IntakeConfig;

/// The referee's address, in every test configuration and on the rig (a
/// `const`, for the many places that take a `&str`).
pub const REFEREE: &str = "chess@club.example";

/// The game the intake fixtures write to.
pub const GAME_17: i64 = 17;

/// White's game address in game 17: `chess+17-k3x9qp2m@club.example`.
pub fn game_17_address() -> String {
    let referee = referee();
    format!("{}+{GAME_17}-{WHITE_KEY}@{}", referee.local, referee.domain)
}

/// The intake settings of the fixture tests: the fixtures' referee, 256 KiB
/// at most, the default command limit.
pub fn intake_config() -> IntakeConfig {
    let referee = referee();
    IntakeConfig {
        referee_local: referee.local,
        referee_domain: referee.domain,
        max_message_bytes: 256 * 1024,
        max_commands: wildt::intake::DEFAULT_MAX_COMMANDS,
    }
}

/// A name no other test (nor an earlier run) uses: for folders, subjects,
/// sub-addresses. Letters, digits and `-` only (no IMAP hierarchy separator).
pub fn unique(prefix: &str) -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!(
        "{prefix}-{}-{}-{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// A small RFC 5322 message with CRLF line ends.
pub fn message(from: &str, to: &str, subject: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: <{}@test.wildt>\r\n\
         Date: Sun, 22 Nov 2026 04:00:00 +0000\r\n\r\n{body}\r\n",
        unique("m")
    )
    .into_bytes()
}

/// The decoded text of a mail's first text part (quoted-printable and all).
pub fn body_text(raw: &[u8]) -> String {
    mail_parser::MessageParser::default()
        .parse(raw)
        .expect("a mail")
        .body_text(0)
        .expect("a text part")
        .into_owned()
}

#[test]
fn the_tests_referee_is_the_fixtures_referee() {
    assert_eq!(REFEREE, referee().address);
}
