//! `wildt serve --once` over the Maildir, the real binary as a process: which
//! game each delivered copy of a mail reaches, copies of one message answered
//! once, and the hourly reply limit for a player of many games. [IO: temp
//! files, child processes, SQLite]

use crate::support::cli::wildt;
use crate::support::club::{Club, Game, mail};

/// The value of header `name` in a mail written by the file outbox.
fn header<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    let head = raw.split("\r\n\r\n").next().unwrap_or(raw);
    head.lines().find_map(|l| {
        let (n, v) = l.split_once(':')?;
        n.eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// How many of `mails` of kind `kind` go to `to`.
fn count(mails: &[String], to: &str, kind: &str) -> usize {
    mails
        .iter()
        .filter(|m| header(m, "To") == Some(to) && header(m, "X-Wildt-Event") == Some(kind))
        .count()
}

fn plies(club: &Club, game: &Game) -> usize {
    club.show(game.id)["moves"].as_array().unwrap().len()
}

/// `raw` as delivered to `recipient`: the MTA's line on top.
fn delivered(recipient: &str, raw: &str) -> String {
    format!("Delivered-To: {recipient}\r\nReturn-Path: <anna@example.org>\r\n{raw}")
}

/// (outcome, answers held back) of every recorded message, in order.
async fn recorded(club: &Club) -> Vec<(String, i64)> {
    let store = crate::support::cli::store_of(&club.cfg).await;
    let rows = sqlx::query_as("SELECT outcome, replies_held_back FROM messages ORDER BY id")
        .fetch_all(store.pool())
        .await
        .unwrap();
    store.close().await;
    rows
}

/// Anna writes to her game 1 with a Cc to her game 2. The MTA delivers one
/// copy per recipient; each is played in the game it was delivered to.
/// Regression: both went to the game first named in To/Cc, and the second
/// was answered "not possible".
#[test]
fn each_delivered_copy_is_played_in_its_own_game() {
    let club = Club::new();
    let (one, two) = (club.new_game(), club.new_game());
    let raw = mail(
        "anna@example.org",
        &one.white,
        "both@example.org",
        "1. 5254",
    )
    .replacen("Subject:", &format!("Cc: {}\r\nSubject:", two.white), 1);
    club.deliver("1.eml", &delivered(&one.white, &raw));
    club.deliver("2.eml", &delivered(&two.white, &raw));
    let summary = club.serve_once();
    assert!(summary.starts_with("2 messages, 0 duplicates"), "{summary}");
    assert_eq!((plies(&club, &one), plies(&club, &two)), (1, 1));
    let mails = club.outbox();
    assert_eq!(count(&mails, "anna@example.org", "move-accepted"), 2);
    assert_eq!(count(&mails, "anna@example.org", "move-rejected"), 0);
    let games: Vec<_> = mails
        .iter()
        .filter_map(|m| header(m, "X-Wildt-Game"))
        .collect();
    assert_eq!(games.len(), 4, "{mails:#?}");
    for g in [&one, &two] {
        let id = g.id.to_string();
        assert_eq!(games.iter().filter(|x| **x == id).count(), 2, "{games:?}");
    }
}

/// Regression: a second copy of a message (to the game address and to the bare
/// referee; or found again in a mailbox moved to another server) was decided
/// again and answered "not possible". It is a duplicate, answered once.
#[test]
fn a_second_copy_of_a_message_is_answered_once() {
    let club = Club::new();
    let g = club.new_game();
    let raw = mail("anna@example.org", &g.white, "copy@example.org", "1. 5254").replacen(
        "Subject:",
        "Cc: chess@club.example\r\nSubject:",
        1,
    );
    club.deliver("1.eml", &delivered(&g.white, &raw));
    club.deliver("2.eml", &delivered("chess@club.example", &raw));
    let summary = club.serve_once();
    assert!(summary.starts_with("1 messages, 1 duplicates"), "{summary}");
    assert_eq!(club.outbox().len(), 2, "{:#?}", club.outbox());
    assert_eq!(plies(&club, &g), 1);

    // The mailbox moved to another server: the copy comes back with LF line
    // ends and the new server's header on top, in a later run.
    let moved = delivered("chess@new-host.example", &raw).replace("\r\n", "\n");
    club.deliver("3.eml", &moved);
    let again = club.serve_once();
    assert!(again.starts_with("0 messages, 1 duplicates"), "{again}");
    assert_eq!(club.outbox().len(), 2);
    assert_eq!(plies(&club, &g), 1);
}

/// A client that reuses one Message-ID for different mails is not taken for
/// sending copies: a different text under the same Message-ID is decided.
#[test]
fn a_reused_message_id_with_another_text_is_decided() {
    let club = Club::new();
    let g = club.new_game();
    club.deliver(
        "1.eml",
        &mail("anna@example.org", &g.white, "same@example.org", "1. 5254"),
    );
    club.serve_once();
    club.deliver(
        "2.eml",
        &mail("anna@example.org", &g.white, "same@example.org", "status"),
    );
    let summary = club.serve_once();
    assert!(summary.starts_with("1 messages, 0 duplicates"), "{summary}");
    assert_eq!(count(&club.outbox(), "anna@example.org", "notice"), 1);
}

/// A player of more games than the hourly limit answers them all
/// in an evening. Every accepted move is confirmed to her and relayed to the
/// opponent; her rejected moves are answered only up to the limit, and those
/// held back are on record.
#[tokio::test]
async fn a_busy_players_moves_are_all_confirmed_while_rejections_are_limited() {
    let club = Club::new();
    let mut cfg = std::fs::read_to_string(&club.cfg).unwrap();
    cfg.push_str("\n[limits]\nreplies_per_sender_per_hour = 2\n");
    std::fs::write(&club.cfg, cfg).unwrap();
    let games: Vec<Game> = (0..5).map(|_| club.new_game()).collect();
    for (n, g) in games.iter().enumerate() {
        club.deliver(
            &format!("{n}-move.eml"),
            &mail(
                "anna@example.org",
                &g.white,
                &format!("move-{n}@example.org"),
                "1. 5254",
            ),
        );
    }
    let summary = club.serve_once();
    assert!(summary.starts_with("5 messages"), "{summary}");
    for (n, g) in games.iter().enumerate() {
        // Not her turn any more: each is answered "not played".
        club.deliver(
            &format!("{n}-again.eml"),
            &mail(
                "anna@example.org",
                &g.white,
                &format!("again-{n}@example.org"),
                "2. 7163",
            ),
        );
    }
    let summary = club.serve_once();
    assert!(summary.starts_with("5 messages"), "{summary}");

    let mails = club.outbox();
    assert_eq!(count(&mails, "anna@example.org", "move-accepted"), 5);
    assert_eq!(count(&mails, "ben@example.net", "opponent-moved"), 5);
    assert_eq!(count(&mails, "anna@example.org", "move-rejected"), 2);
    assert!(games.iter().all(|g| plies(&club, g) == 1));

    let rows = recorded(&club).await;
    let moved: Vec<_> = rows.iter().filter(|(o, _)| o == "moved").collect();
    assert_eq!(moved.len(), 5, "{rows:?}");
    assert!(moved.iter().all(|(_, held)| *held == 0), "{rows:?}");
    let mut rejected: Vec<i64> = rows
        .iter()
        .filter(|(o, _)| o == "rejected")
        .map(|(_, held)| *held)
        .collect();
    rejected.sort_unstable();
    assert_eq!(rejected, [0, 0, 1, 1, 1], "{rows:?}");
}

/// `check` says a copy already decided is a duplicate, and decides nothing.
#[test]
fn check_reports_a_copy_of_a_decided_message_as_a_duplicate() {
    let club = Club::new();
    let g = club.new_game();
    let raw = mail(
        "anna@example.org",
        &g.white,
        "checked@example.org",
        "1. 5254",
    );
    club.deliver("1.eml", &delivered(&g.white, &raw));
    club.serve_once();
    let path = club.dir.path().join("copy.eml");
    std::fs::write(&path, delivered("chess@club.example", &raw)).unwrap();
    let out = wildt(&club.cfg, &["check", path.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["duplicate"], true, "{v}");
    assert_eq!(v["outcome"], "moved", "{v}");
}
