//! Grouped commits: `wildt serve` decides up to a group of waiting messages
//! in one transaction. These tests kill the real binary inside a group (a
//! debug build's crash point, `WILDT_FAILPOINT`, aborts it as `kill -9`
//! would) and check that nothing is lost or doubled, and that a group is
//! decided exactly as one transaction per message would have decided it.

use std::process::Command;

use crate::support::club::{Club, Game, mail};

const ANNA: &str = "anna@example.org";
const BEN: &str = "ben@example.net";

/// `wildt serve --once` with the crash point `point` set: it must end by
/// the abort, not by itself.
fn serve_once_crashing_at(club: &Club, point: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(["serve", "--once", "--config"])
        .arg(&club.cfg)
        .env("WILDT_FAILPOINT", point)
        // On PostgreSQL a fresh process's first message alone can take the
        // whole of a group's 50 ms: a longer group there lets the first
        // group hold several messages, which is what these tests are about.
        .env(
            "WILDT_GROUP_MS",
            if crate::support::cli::on_postgres() {
                "1000"
            } else {
                "50"
            },
        )
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains(&format!("failpoint {point} reached")),
        "wildt did not stop at {point}: {:?}\n{stderr}",
        out.status
    );
}

/// How many outbox rows still hold their mail's body (kept until sent).
fn bodies(club: &Club) -> i64 {
    sql(club, |pool| async move {
        sqlx::query_scalar("SELECT COUNT(*) FROM outbox_bodies")
            .fetch_one(&pool)
            .await
            .unwrap()
    })
}

/// What the database holds: (messages recorded, moves recorded, outbox rows).
fn counts(club: &Club) -> (i64, i64, i64) {
    sql(club, |pool| async move {
        sqlx::query_as(
            "SELECT (SELECT COUNT(*) FROM messages), (SELECT COUNT(*) FROM moves), (SELECT COUNT(*) FROM outbox)",
        )
        .fetch_one(&pool)
        .await
        .unwrap()
    })
}

/// Runs `f` on a pool over the club's database, and waits for it.
fn sql<T, F>(club: &Club, f: impl FnOnce(sqlx::AnyPool) -> F) -> T
where
    F: std::future::Future<Output = T>,
{
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            let store = crate::support::cli::store_of(&club.cfg).await;
            let out = f(store.pool().clone()).await;
            store.close().await;
            out
        })
}

/// Every Message-ID in the file outbox, and how many files there are.
fn outbox_ids(club: &Club) -> (usize, Vec<String>) {
    let mails = club.outbox();
    let mut ids: Vec<String> = mails
        .iter()
        .map(|raw| {
            mail_parser::MessageParser::default()
                .parse(raw.as_bytes())
                .unwrap()
                .message_id()
                .unwrap()
                .to_owned()
        })
        .collect();
    ids.sort();
    ids.dedup();
    (mails.len(), ids)
}

fn first_moves(club: &Club, games: &[Game]) {
    for (i, g) in games.iter().enumerate() {
        club.deliver(
            &format!("m{i:03}.eml"),
            &mail(ANNA, &g.white, &format!("w{i}@example.org"), "1. 5254"),
        );
    }
}

/// Delivers `mails` as `m001.eml`, `m002.eml`… to be taken in that order:
/// delivered in the same second, their delivery times are set apart.
fn deliver_in_order(club: &Club, mails: &[String]) {
    let new = club.dir.path().join("mail/new");
    for (i, raw) in mails.iter().enumerate() {
        let name = format!("m{:03}.eml", i + 1);
        club.deliver(&name, raw);
        let t = std::time::SystemTime::UNIX_EPOCH
            + std::time::Duration::from_secs(1_800_000_000 + i as u64);
        let f = std::fs::File::options()
            .write(true)
            .open(new.join(&name))
            .unwrap();
        f.set_modified(t).unwrap();
    }
}

fn moves_of(club: &Club, g: &Game) -> Vec<String> {
    club.show(g.id)["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccf"].as_str().unwrap().to_owned())
        .collect()
}

/// Killed after the second message of a group was decided and written in
/// the group's transaction, before its commit: nothing of the group is kept
/// and no mail was written; the next run decides every message once.
#[test]
fn a_daemon_killed_inside_a_group_keeps_none_of_it_and_then_decides_each_message_once() {
    let club = Club::new();
    let games: Vec<Game> = (0..20).map(|_| club.new_game()).collect();
    first_moves(&club, &games);

    serve_once_crashing_at(&club, "group-handled:2");
    assert_eq!(counts(&club), (0, 0, 0), "the unfinished group left rows");
    assert_eq!(club.maildir_count("new"), 20, "a message left the inbox");
    assert!(
        club.outbox().is_empty(),
        "a mail went out of an unkept group"
    );

    let line = club.serve_once();
    assert!(line.starts_with("20 messages, 0 duplicates"), "{line}");
    assert_eq!(counts(&club), (20, 20, 40));
    for g in &games {
        assert_eq!(moves_of(&club, g), ["5254"], "game {}", g.id);
    }
    let (files, ids) = outbox_ids(&club);
    assert_eq!((files, ids.len()), (40, 40));
    assert_eq!(club.maildir_count("new"), 0);
}

/// Killed right after the first group's commit, before the inbox was told:
/// every message is still waiting, and the next run finds those of the
/// group recorded, decides none of them again, decides the others, and
/// sends each answer once.
#[test]
fn a_daemon_killed_after_a_group_commit_answers_each_message_once() {
    // How many messages the first group holds is set by time (a group is
    // committed after `GROUP_TIME`): on a loaded machine the first message
    // of a fresh process can take all of it alone, and a group of one does
    // not show a group's commit. Then a new club is tried, each try
    // checked alike, up to five.
    let (club, grouped) = (0..5)
        .find_map(|_| {
            let club = Club::new();
            let games: Vec<Game> = (0..20).map(|_| club.new_game()).collect();
            first_moves(&club, &games);
            serve_once_crashing_at(&club, "group-committed:1");
            let (grouped, moves, mails) = counts(&club);
            assert!(grouped >= 1, "no group was committed");
            assert_eq!((moves, mails), (grouped, 2 * grouped));
            (grouped >= 2).then_some((club, grouped))
        })
        .expect("in five tries the first group never held two messages");
    assert_eq!(
        club.maildir_count("new"),
        20,
        "the inbox was told too early"
    );
    assert_eq!(
        bodies(&club),
        2 * grouped,
        "a body of an unsent mail is gone"
    );

    let line = club.serve_once();
    assert!(
        line.starts_with(&format!("{} messages, {grouped} duplicates", 20 - grouped)),
        "{line}"
    );
    assert_eq!(counts(&club), (20, 20, 40));
    let (files, ids) = outbox_ids(&club);
    assert_eq!((files, ids.len()), (40, 40));
    assert_eq!(club.maildir_count("new"), 0);
    assert_eq!(bodies(&club), 0, "the bodies of sent mail are kept");
}

/// In one group, a game's White and Black moves and a second copy of the
/// White move (same Message-ID, sender and text, delivered twice): decided
/// in order against each other, as separate transactions would, and the
/// copy answered once.
#[test]
fn messages_of_one_game_in_one_group_are_decided_in_order_and_a_copy_once() {
    let club = Club::new();
    let g = club.new_game();
    let white = mail(ANNA, &g.white, "w1@example.org", "1. 5254");
    deliver_in_order(
        &club,
        &[
            white.clone(),
            format!("Delivered-To: {}\r\n{white}", g.white),
            mail(BEN, &g.black, "b1@example.org", "1... 5755"),
        ],
    );

    let line = club.serve_once();
    assert!(line.starts_with("2 messages, 1 duplicates"), "{line}");
    assert_eq!(moves_of(&club, &g), ["5254", "5755"]);
}

/// One message of a group meets a damaged game: the group is not kept, its
/// messages are taken again one transaction each, so every other message is
/// decided, and only the damaged game's message fails (until it is put in
/// the quarantine).
#[test]
fn a_damaged_game_in_a_group_does_not_hold_back_the_other_messages() {
    let club = Club::new();
    let games: Vec<Game> = (0..6).map(|_| club.new_game()).collect();
    first_moves(&club, &games);
    let damaged = games[3].id;
    sql(&club, |pool| async move {
        sqlx::query("UPDATE games SET start_fen = 'not a position' WHERE id = $1")
            .bind(damaged)
            .execute(&pool)
            .await
            .unwrap();
    });

    club.serve_once();
    for (i, g) in games.iter().enumerate() {
        if i != 3 {
            assert_eq!(moves_of(&club, g), ["5254"], "game {}", g.id);
        }
    }
    let (messages, moves, outbox) = counts(&club);
    assert_eq!((messages, moves, outbox), (5, 5, 10));
    // The damaged game's message alone failed, again at each try, and was
    // put in the quarantine.
    assert_eq!(club.maildir_count("new"), 0);
    assert_eq!(club.maildir_count(".wildt-failed/cur"), 1);
}

/// Mail that keeps arriving while `wildt serve` works through a backlog is
/// taken in order of arrival: each game's moves, delivered one after the
/// other, are decided in that order, never a reply before the move it
/// answers (taking fresh mail ahead of a backlog was tried, and did that:
/// "it is White's move").
#[test]
fn mail_arriving_during_a_backlog_is_decided_in_order_of_arrival() {
    const GAMES: usize = 40;
    let club = Club::new();
    let games: Vec<Game> = (0..GAMES).map(|_| club.new_game()).collect();
    let mut daemon = Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(["serve", "--config"])
        .arg(&club.cfg)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Four plies of every game, round by round, each file delivered as the
    // daemon goes: every listing it makes finds a backlog (160 messages,
    // groups of at most 64) and fresh mail behind it.
    const LINE: [&str; 4] = ["1. 5254", "1... 5755", "2. 7163", "2... 2836"];
    for (ply, text) in LINE.iter().enumerate() {
        for (i, g) in games.iter().enumerate() {
            let (from, to) = if ply % 2 == 0 {
                (ANNA, &g.white)
            } else {
                (BEN, &g.black)
            };
            club.deliver(
                &format!("p{ply}-{i:03}.eml"),
                &mail(from, to, &format!("p{ply}-{i}@example.org"), text),
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while counts(&club).0 < 4 * GAMES as i64 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    daemon.kill().unwrap();
    daemon.wait().unwrap();
    for g in &games {
        assert_eq!(
            moves_of(&club, g),
            ["5254", "5755", "7163", "2836"],
            "game {}",
            g.id
        );
    }
}

/// A group's replies are rendered while the database runs the next
/// message's statements, their outbox rows written before. A reply lettre
/// cannot write (to the sender `anna..b@example.org`, two dots in a row)
/// in the middle of a group and at its end is left out, row and all; the
/// moves around it are answered, and no row is left without a body.
#[test]
fn a_reply_that_cannot_be_written_is_left_out_of_a_group_and_the_others_are_sent() {
    let club = Club::new();
    let g = club.new_game();
    // A move to the referee's own address, not a game's: answered with how
    // to play, to an address lettre refuses.
    let stranger = |id: &str| mail("anna..b@example.org", "chess@club.example", id, "1. 5254");
    deliver_in_order(
        &club,
        &[
            mail(ANNA, &g.white, "w1@example.org", "1. 5254"),
            stranger("s1@example.org"),
            mail(BEN, &g.black, "b1@example.org", "1... 5755"),
            stranger("s2@example.org"),
        ],
    );

    let line = club.serve_once();
    assert!(line.starts_with("4 messages"), "{line}");
    assert_eq!(moves_of(&club, &g), ["5254", "5755"]);
    let (messages, _, rows) = counts(&club);
    let recipients: Vec<(String, String)> = sql(&club, |pool| async move {
        sqlx::query_as("SELECT recipient, event FROM outbox ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap()
    });
    assert_eq!(
        (messages, rows),
        (4, 4),
        "two mails per move, none to the address lettre refuses: {recipients:?}"
    );
    let unsent: i64 = sql(&club, |pool| async move {
        sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL")
            .fetch_one(&pool)
            .await
            .unwrap()
    });
    assert_eq!(unsent, 0);
    let (files, ids) = outbox_ids(&club);
    assert_eq!((files, ids.len()), (4, 4));
    assert!(club.outbox().iter().all(|m| !m.contains("anna..b")));
}
