//! The inbox's faults: what the daemon does with Maildir names used
//! again, entries that are not messages, a message that always fails, and
//! player text, run as `wildt serve --once` on the Maildir club. [IO:
//! processes, temp files, SQLite]

use std::path::Path;
use std::process::Output;

use crate::support::cli::wildt;
use crate::support::club::{Club, mail};

/// `wildt serve --once` with `RUST_LOG` unset (the daemon's own `info`).
fn serve_once(club: &Club) -> Output {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(["serve", "--once", "--config"])
        .arg(&club.cfg)
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Rows of `query` on the club's database, each column as text.
fn rows(dir: &Path, query: &str) -> Vec<Vec<Option<String>>> {
    use sqlx::Row as _;
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let store = crate::support::cli::store_of(&dir.join("wildt.toml")).await;
        let rows = sqlx::query(query).fetch_all(store.pool()).await.unwrap();
        let out = rows
            .iter()
            .map(|r| {
                (0..r.len())
                    .map(|i| {
                        r.try_get::<Option<String>, _>(i)
                            .or_else(|_| {
                                r.try_get::<Option<i64>, _>(i)
                                    .map(|v| v.map(|v| v.to_string()))
                            })
                            // A comparison is a boolean on PostgreSQL.
                            .or_else(|_| {
                                r.try_get::<Option<bool>, _>(i)
                                    .map(|v| v.map(|v| i64::from(v).to_string()))
                            })
                            .unwrap()
                    })
                    .collect()
            })
            .collect();
        store.close().await;
        out
    })
}

fn exec(dir: &Path, sql: &str) {
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let store = crate::support::cli::store_of(&dir.join("wildt.toml")).await;
        sqlx::query(sql).execute(store.pool()).await.unwrap();
        store.close().await;
    });
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Point 4: a second, different `new/move.eml` after the first was handled
/// was taken for the first ("already processed") and dropped without a
/// reply, and its file overwrote the first one in `cur/`. Both moves count
/// now, and `cur/` keeps both files.
#[test]
fn a_different_message_under_a_used_maildir_name_is_handled_and_kept_beside_the_first() {
    let club = Club::new();
    let g = club.new_game();
    club.deliver(
        "move.eml",
        &mail("anna@example.org", &g.white, "m1@example.org", "1. 5254"),
    );
    serve_once(&club);
    club.deliver(
        "move.eml",
        &mail("ben@example.net", &g.black, "m2@example.org", "1... 5755"),
    );
    serve_once(&club);
    let shown = club.show(g.id);
    assert_eq!(shown["moves"].as_array().unwrap().len(), 2, "{shown}");
    let cur = names_in(&club.dir.path().join("mail/cur"));
    assert_eq!(cur.len(), 2, "{cur:?}");
    let bodies: Vec<String> = cur
        .iter()
        .map(|n| std::fs::read_to_string(club.dir.path().join("mail/cur").join(n)).unwrap())
        .collect();
    assert!(
        bodies.iter().any(|b| b.contains("m1@example.org")),
        "{cur:?}"
    );
    assert!(
        bodies.iter().any(|b| b.contains("m2@example.org")),
        "{cur:?}"
    );
    // The same bytes under the same name again: still a duplicate.
    club.deliver(
        "move.eml",
        &mail("ben@example.net", &g.black, "m2@example.org", "1... 5755"),
    );
    let out = serve_once(&club);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("0 messages, 1 duplicates"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(names_in(&club.dir.path().join("mail/cur")).len(), 3);
}

/// Point 5: a directory and an unreadable file in `new/` failed every run
/// and blocked the inbox. They are skipped with a warning; the move behind
/// them is handled.
#[test]
fn entries_that_are_not_messages_are_skipped_and_the_inbox_goes_on() {
    use std::os::unix::fs::PermissionsExt as _;
    let club = Club::new();
    let g = club.new_game();
    let new = club.dir.path().join("mail/new");
    std::fs::create_dir_all(new.join("0000.a-directory")).unwrap();
    club.deliver("0001.unreadable", "From: x@example.org\r\n\r\nx\r\n");
    std::fs::set_permissions(
        new.join("0001.unreadable"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    let unreadable = std::fs::File::open(new.join("0001.unreadable")).is_err();
    club.deliver(
        "0002.move",
        &mail("anna@example.org", &g.white, "m1@example.org", "1. 5254"),
    );
    let out = serve_once(&club);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains("0000.a-directory") && log.contains("skipped"),
        "{log}"
    );
    if unreadable {
        // (Root reads any file: then only the directory is not a message.)
        assert!(log.contains("0001.unreadable"), "{log}");
    }
    assert_eq!(club.show(g.id)["moves"].as_array().unwrap().len(), 1);
    assert!(new.join("0000.a-directory").is_dir());
}

/// Point 5: a message to a game whose row is damaged failed on every run and
/// blocked everything behind it. After three failures (counted in the
/// database, across runs) it goes to the Maildir subfolder `.wildt-failed`,
/// the organiser is told, `wildt status` shows it, and the next move is
/// handled.
#[test]
fn a_message_that_always_fails_goes_to_the_quarantine_and_the_organiser_is_told() {
    let club = Club::new();
    let text = std::fs::read_to_string(&club.cfg).unwrap().replace(
        "[referee]\n",
        "[referee]\norganiser = \"org@club.example\"\n",
    );
    std::fs::write(&club.cfg, text).unwrap();
    let broken = club.new_game();
    let fine = club.new_game();
    exec(
        club.dir.path(),
        &format!(
            "UPDATE games SET start_fen = 'not a position' WHERE id = {}",
            broken.id
        ),
    );
    club.deliver(
        "0001.to-broken",
        &mail(
            "anna@example.org",
            &broken.white,
            "bad@example.org",
            "1. 5254",
        ),
    );
    club.deliver(
        "0002.to-fine",
        &mail(
            "anna@example.org",
            &fine.white,
            "good@example.org",
            "1. 5254",
        ),
    );
    let out = serve_once(&club);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("put in the quarantine"), "{log}");
    let attempts = rows(
        club.dir.path(),
        "SELECT attempts, quarantined_at IS NOT NULL FROM inbox_failures",
    );
    assert_eq!(
        attempts,
        vec![vec![Some("3".to_owned()), Some("1".to_owned())]]
    );
    let quarantine = club.dir.path().join("mail/.wildt-failed/cur");
    let kept = names_in(&quarantine);
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert!(
        std::fs::read_to_string(quarantine.join(&kept[0]))
            .unwrap()
            .contains("bad@example.org")
    );
    assert_eq!(club.maildir_count("new"), 0);
    assert_eq!(club.show(fine.id)["moves"].as_array().unwrap().len(), 1);
    let notices: Vec<String> = club
        .outbox()
        .into_iter()
        .filter(|m| m.contains("To: org@club.example"))
        .collect();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].contains("bad@example.org"), "{}", notices[0]);
    let status = wildt(&club.cfg, &["status", "--json"]);
    let status: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["quarantined"], 1, "{status}");
    assert!(
        status["problems"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["kind"] == "quarantined"),
        "{status}"
    );
}

/// Point 11: up to 24 characters of a player's text reached the `info` log
/// and `messages.detail` ("My bank PIN is 4711…"). Outcome kinds only now.
#[test]
fn player_text_stays_out_of_the_info_log_and_the_messages_table() {
    let club = Club::new();
    let g = club.new_game();
    club.deliver(
        "0001.secret",
        &mail(
            "anna@example.org",
            &g.white,
            "secret@example.org",
            "Sorry for the delay. My bank PIN is 4711 so please keep it quiet.",
        ),
    );
    let out = serve_once(&club);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("decided") && log.contains("unclear"), "{log}");
    for secret in ["4711", "PIN", "bank"] {
        assert!(!log.contains(secret), "{secret} in the log: {log}");
    }
    let stored = rows(club.dir.path(), "SELECT outcome, detail FROM messages");
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0][0].as_deref(), Some("unclear"));
    let detail = stored[0][1].clone().unwrap();
    for secret in ["4711", "PIN", "bank"] {
        assert!(
            !detail.contains(secret),
            "{secret} in messages.detail: {detail}"
        );
    }
}
