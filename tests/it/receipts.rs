//! Mail in doubt after a `kill -9`, settled by receipts (`[receipts]`):
//! the real binary sends over the rig's SMTP relay, is killed at a crash
//! point between the relay's "250 OK" and marking the mail sent (or before
//! sending it), and is started again; the players' INBOXes on the rig are
//! counted by Message-ID. [IO: processes, the mail rig, SQLite or the test
//! PostgreSQL]
//!
//! Rig accounts: p52 receives the receipts; p55-p58 are the players.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use crate::support::cli::{json_of, store_of, temp_config, wildt};
use crate::support::rig::{Reader, Rig, toml_str};

const RECEIPTS: &str = "p52@example.org";

/// A club sending over the rig's relay, with `[receipts]` to p52 waiting
/// `wait_secs` for a copy, or without receipts.
fn club(rig: &Rig, receipts_wait: Option<u64>) -> (tempfile::TempDir, PathBuf) {
    club_with(rig, receipts_wait, RECEIPTS)
}

/// [`club`] with the copies addressed to `address` (read from p52).
fn club_with(rig: &Rig, receipts_wait: Option<u64>, address: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(dir.path().join("mail").join(sub)).unwrap();
    }
    let text = std::fs::read_to_string(&cfg).unwrap();
    let mut text = text[..text.find("kind = \"file\"").unwrap()].to_owned()
        + &format!(
            "kind = \"smtp\"\nhost = {}\nport = {}\ntls = \"none\"\n",
            toml_str(&rig.host),
            rig.smtp_port
        );
    if let Some(wait) = receipts_wait {
        text.push_str(&rig.receipts_toml(address, RECEIPTS, dir.path(), wait));
    }
    std::fs::write(&cfg, text).unwrap();
    (dir, cfg)
}

/// `wildt game new`: a welcome mail to each player queued. Returns the
/// queued mails as (Message-ID, recipient).
async fn new_game(cfg: &Path, white: &str, black: &str) -> Vec<(String, String)> {
    json_of(&wildt(
        cfg,
        &["game", "new", "--white", white, "--black", black, "--json"],
    ));
    let store = store_of(cfg).await;
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT message_id, recipient FROM outbox ORDER BY id")
            .fetch_all(store.pool())
            .await
            .unwrap();
    store.close().await;
    assert_eq!(rows.len(), 2, "{rows:?}");
    rows
}

/// `wildt serve --once`, with `WILDT_FAILPOINT` set to `failpoint` if any.
fn serve_once(cfg: &Path, failpoint: Option<&str>) -> Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_wildt"));
    cmd.args(["serve", "--once", "--config"])
        .arg(cfg)
        .env("RUST_LOG", "info");
    if let Some(point) = failpoint {
        cmd.env("WILDT_FAILPOINT", point);
    }
    cmd.output().unwrap()
}

/// `serve --once` killed at `failpoint`, as `kill -9` would end it.
fn serve_killed_at(cfg: &Path, failpoint: &str) {
    let out = serve_once(cfg, Some(failpoint));
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && log.contains(&format!("failpoint {failpoint} reached")),
        "not killed at {failpoint}: {}\n{log}",
        out.status
    );
}

/// `serve --once` that ends well; its log.
fn serve_whole(cfg: &Path) -> String {
    let out = serve_once(cfg, None);
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "serve --once: {}\n{log}", out.status);
    log
}

/// How many of the outbox's rows are sent, and how many are in doubt.
async fn sent_and_in_doubt(cfg: &Path) -> (i64, i64) {
    let store = store_of(cfg).await;
    let counts = sqlx::query_as(
        "SELECT COUNT(sent_at), COUNT(doubt_since) FROM outbox WHERE failed_at IS NULL",
    )
    .fetch_one(store.pool())
    .await
    .unwrap();
    store.close().await;
    counts
}

/// How many mails with Message-ID `<id>` are in `reader`'s INBOX.
async fn copies(reader: &mut Reader, id: &str) -> usize {
    let wanted = format!("<{id}>");
    reader
        .messages("INBOX")
        .await
        .iter()
        .filter(|m| m.header("Message-ID").as_deref() == Some(wanted.as_str()))
        .count()
}

/// Waits (bounded) until each mail of `mails` is in its recipient's INBOX
/// and, with receipts, its copy in the receipts INBOX; then long enough for
/// a copy sent twice to have arrived too. Returns each mail's count.
async fn delivered(rig: &Rig, mails: &[(String, String)]) -> Vec<usize> {
    let mut counts = Vec::new();
    for (id, to) in mails {
        let mut reader = rig.reader(to).await;
        reader.wait_for("INBOX", id, 1).await;
        tokio::time::sleep(Duration::from_secs(2)).await;
        counts.push(copies(&mut reader, id).await);
    }
    counts
}

/// A daemon killed after the relay took its mail and before it marked it
/// sent: the next process finds each mail's receipt, marks it sent and
/// sends nothing again. Each player has one copy, not two.
#[tokio::test]
async fn mail_the_relay_took_before_a_kill_is_marked_sent_by_its_receipt_and_not_sent_again() {
    let Some(rig) = Rig::from_env("receipts") else {
        return;
    };
    let (_dir, cfg) = club(&rig, Some(60));
    let mails = new_game(&cfg, "p55@example.org", "p56@example.org").await;
    serve_killed_at(&cfg, "batch-sent:1");
    assert_eq!(
        sent_and_in_doubt(&cfg).await,
        (0, 0),
        "marked before the kill"
    );
    // The relay took both mails and their receipts.
    let mut receipts = rig.reader(RECEIPTS).await;
    for (id, _) in &mails {
        receipts.wait_for("INBOX", id, 1).await;
    }
    let log = serve_whole(&cfg);
    assert!(
        log.contains("its receipt came"),
        "the receipts were not what settled the mail:\n{log}"
    );
    assert_eq!(sent_and_in_doubt(&cfg).await, (2, 0));
    assert_eq!(delivered(&rig, &mails).await, [1, 1], "{log}");
}

/// The same kill without `[receipts]`: nothing tells the next process
/// that the relay took the mail, and each player gets it twice. This is
/// what receipts are for, and the log says so.
#[tokio::test]
async fn without_receipts_mail_the_relay_took_before_a_kill_is_sent_again() {
    let Some(rig) = Rig::from_env("receipts") else {
        return;
    };
    let (_dir, cfg) = club(&rig, None);
    let mails = new_game(&cfg, "p57@example.org", "p58@example.org").await;
    serve_killed_at(&cfg, "batch-sent:1");
    let log = serve_whole(&cfg);
    assert!(
        log.contains("with [receipts] configured it would be looked for first"),
        "{log}"
    );
    assert_eq!(sent_and_in_doubt(&cfg).await, (2, 0));
    assert_eq!(delivered(&rig, &mails).await, [2, 2], "{log}");
}

/// A daemon killed after leasing mail and before handing it over: the
/// mail is in doubt, no receipt comes, and the next process neither sends
/// it at once (a receipt may be on its way) nor loses it: it is sent once
/// the wait is over, and each player has one copy.
#[tokio::test]
async fn mail_in_doubt_without_a_receipt_waits_for_one_then_is_sent_once() {
    let Some(rig) = Rig::from_env("receipts") else {
        return;
    };
    let wait = 10;
    let (_dir, cfg) = club(&rig, Some(wait));
    let mails = new_game(&cfg, "p55@example.org", "p56@example.org").await;
    serve_killed_at(&cfg, "batch-leased:1");
    let early = serve_whole(&cfg);
    assert_eq!(
        sent_and_in_doubt(&cfg).await,
        (0, 2),
        "sent before the wait for a receipt was over:\n{early}"
    );
    // The operator sees them as such, and when they are looked at next.
    let listed = json_of(&wildt(&cfg, &["outbox", "list", "--json"]));
    let rows = listed.as_array().unwrap();
    assert_eq!(rows.len(), 2, "{listed}");
    assert!(
        rows.iter()
            .all(|r| r["state"] == "in-doubt" && r["next_attempt_at"].is_i64()),
        "{listed}"
    );
    tokio::time::sleep(Duration::from_secs(wait + 1)).await;
    let late = serve_whole(&cfg);
    assert!(late.contains("no receipt came"), "{late}");
    assert_eq!(sent_and_in_doubt(&cfg).await, (2, 0));
    assert_eq!(delivered(&rig, &mails).await, [1, 1], "{late}");
}

/// An operator's typo in `[receipts] address`: the relay refuses it. The
/// players' mail still goes, once each, and is marked sent, not failed;
/// the log names the receipts address to fix.
#[tokio::test]
async fn a_receipts_address_the_relay_refuses_fails_no_mail_and_is_named_in_the_log() {
    let Some(rig) = Rig::from_env("receipts") else {
        return;
    };
    let (_dir, cfg) = club_with(&rig, Some(60), "no-such-receipts@club.example");
    let mails = new_game(&cfg, "p57@example.org", "p58@example.org").await;
    let log = serve_whole(&cfg);
    assert!(
        log.contains("the relay refuses the receipts address")
            && log.contains("no-such-receipts@club.example"),
        "{log}"
    );
    assert_eq!(sent_and_in_doubt(&cfg).await, (2, 0), "{log}");
    assert_eq!(delivered(&rig, &mails).await, [1, 1], "{log}");
}

/// An operator's wrong password for the receipts mailbox: mail in doubt
/// cannot be looked for. It is not held for good: the log says the
/// mailbox cannot be read, and once the wait is over each mail goes, once.
#[tokio::test]
async fn mail_in_doubt_goes_after_the_wait_when_the_receipts_mailbox_refuses_the_login() {
    let Some(rig) = Rig::from_env("receipts") else {
        return;
    };
    let wait = 10;
    let (dir, cfg) = club(&rig, Some(wait));
    let password = dir.path().join(format!("{RECEIPTS}-receipts-password"));
    assert!(password.exists(), "the receipts password file moved");
    std::fs::write(&password, "not-the-password\n").unwrap();
    let mails = new_game(&cfg, "p57@example.org", "p58@example.org").await;
    serve_killed_at(&cfg, "batch-leased:1");
    let early = serve_whole(&cfg);
    assert!(
        early.contains("the receipts mailbox cannot be read"),
        "{early}"
    );
    assert_eq!(sent_and_in_doubt(&cfg).await, (0, 2), "{early}");
    tokio::time::sleep(Duration::from_secs(wait + 1)).await;
    let late = serve_whole(&cfg);
    assert_eq!(sent_and_in_doubt(&cfg).await, (2, 0), "{late}");
    assert_eq!(delivered(&rig, &mails).await, [1, 1], "{late}");
}
