//! The operator's tools while the referee works: 200 moves (20 games x 10
//! plies) arrive in the referee's INBOX; while `wildt serve` decides them,
//! `backup` copies the database again and again, `status` polls it and
//! `config check --connect` logs in to the same INBOX and sends its probe
//! through it. The daemon goes on: it never stops, refuses or loses a move,
//! answers no probe, and every backup is a whole database.

use std::time::{Duration, Instant};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;

use super::{Options, Referee, fresh_inboxes, player, ply_mail, random_line, round_robin};
use crate::support::cli::wildt;

const GAMES: usize = 20;
const PLIES: usize = 10;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn backup_status_and_connect_check_while_serving_disturb_no_move() {
    let rig = rig_or_skip!();
    let referee = player(67);
    let (white, black) = (player(68), player(69));
    let mut readers = fresh_inboxes(&rig, &[&referee, &white, &black]).await;
    let mut inbox = readers.remove(0);

    let r = Referee::new(&rig, &referee, Options::default());
    // Handled mail is moved to another folder, where the connect check must
    // look for its probe when the daemon took it first.
    let text = std::fs::read_to_string(&r.config).unwrap();
    std::fs::write(
        &r.config,
        text.replace(
            "idle = true\n",
            "idle = true\nprocessed_mailbox = \"Handled\"\n",
        ),
    )
    .unwrap();
    let games: Vec<_> = (0..GAMES)
        .map(|i| {
            if i % 2 == 0 {
                r.new_game(&white, &black, false)
            } else {
                r.new_game(&black, &white, false)
            }
        })
        .collect();
    let lines: Vec<Vec<String>> = (0..GAMES)
        .map(|i| random_line(6700 + i as u64, PLIES))
        .collect();
    let total = i64::try_from(GAMES * PLIES).expect("count");

    let mut serve = r.spawn();
    // The daemon holds its lock before the operator's tools start.
    let started = Instant::now();
    loop {
        let out = r.run(&["status", "--json"]);
        let v: Value = serde_json::from_slice(&out.stdout).expect("status json");
        if v["daemon"]["running"] == true {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "serve never took its lock: {v}\n{}",
            r.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let dir = tempfile::tempdir().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    // Backups one after another, each into a new file, all through the burst.
    let backups = {
        let (stop, config, dir) = (stop.clone(), r.config.clone(), dir.path().to_owned());
        std::thread::spawn(move || {
            let mut made = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let copy = dir.join(format!("backup-{}.db", made.len()));
                let out = wildt(&config, &["backup", copy.to_str().unwrap()]);
                assert!(
                    out.status.success(),
                    "backup {} failed while serving: {}",
                    made.len(),
                    String::from_utf8_lossy(&out.stderr)
                );
                made.push(copy);
            }
            made
        })
    };
    // `status` back to back: it sees the daemon every time.
    let polls = {
        let (stop, config) = (stop.clone(), r.config.clone());
        std::thread::spawn(move || {
            let mut polls = 0;
            while !stop.load(Ordering::Relaxed) {
                let out = wildt(&config, &["status", "--json"]);
                let v: Value = serde_json::from_slice(&out.stdout).expect("status json");
                assert_eq!(v["daemon"]["running"], true, "status lost the daemon: {v}");
                polls += 1;
            }
            polls
        })
    };
    // Two connect checks, one after the other, while the moves arrive.
    let checks = {
        let config = r.config.clone();
        std::thread::spawn(move || {
            (0..2)
                .map(|_| wildt(&config, &["config", "check", "--connect", "--wait", "30"]))
                .collect::<Vec<_>>()
        })
    };
    for (g, ply) in round_robin(GAMES, PLIES) {
        inbox
            .append("INBOX", &ply_mail(&games[g], &lines[g], ply))
            .await;
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    while moves_recorded(&r).await < total || !checks.is_finished() {
        assert!(
            Instant::now() < deadline,
            "only {} of {total} moves decided:\n{}",
            moves_recorded(&r).await,
            r.log()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    stop.store(true, Ordering::Relaxed);
    let backups = backups.join().expect("a backup failed");
    let polls = polls.join().expect("a status poll failed");
    for checked in checks.join().expect("config check thread") {
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&checked.stdout),
            String::from_utf8_lossy(&checked.stderr)
        );
        assert_eq!(checked.status.code(), Some(0), "{said}");
        assert!(
            said.contains("ok   sub-addressing: the probe to "),
            "the probe did not come back while serving:\n{said}"
        );
    }

    // The daemon is still serving after all of it, and stops cleanly.
    let ended = serve.terminate(Duration::from_secs(30)).await;
    assert!(ended.success(), "serve ended with {ended}:\n{}", r.log());
    for (g, line) in games.iter().zip(&lines) {
        assert_eq!(r.moves(g.id), *line, "game {}", g.id);
    }
    // Nothing was set aside; the probes were recorded as automatic mail,
    // answered by nothing.
    let out = r.run(&["status", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).expect("status json");
    assert_eq!(v["quarantined"], 0, "{v}");
    let pool = r.db().await;
    let others: Vec<(String, String)> = sqlx::query_as(
        "SELECT COALESCE(message_id, ''), outcome FROM messages WHERE outcome <> 'moved'",
    )
    .fetch_all(&pool)
    .await
    .expect("messages");
    pool.close().await;
    for (id, outcome) in &others {
        assert!(
            id.starts_with("wildt-probe-") && outcome == "automatic",
            "{id}: {outcome}"
        );
    }

    // Every backup is a whole database, each at least as far as the last.
    let mut last = 0;
    for copy in &backups {
        let options = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(copy)
            .read_only(true);
        let pool = sqlx::SqlitePool::connect_with(options)
            .await
            .expect("open backup");
        let ok: String = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_one(&pool)
            .await
            .expect("integrity_check");
        assert_eq!(ok, "ok", "{}", copy.display());
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM messages")
            .fetch_one(&pool)
            .await
            .expect("count");
        assert!(n >= last, "{} went back from {last} to {n}", copy.display());
        last = n;
        pool.close().await;
    }
    println!(
        "operator: {total} moves decided while {} backups, {polls} status polls and 2 connect checks ran",
        backups.len()
    );
}

/// Moves recorded so far (the probes, recorded as automatic mail, are not).
async fn moves_recorded(r: &Referee) -> i64 {
    if !r.has_db() {
        return 0;
    }
    let pool = r.db().await;
    let n = sqlx::query_scalar("SELECT COUNT(*) FROM messages WHERE outcome = 'moved'")
        .fetch_one(&pool)
        .await
        .unwrap_or(0);
    pool.close().await;
    n
}
