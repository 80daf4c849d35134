//! Several `wildt serve` on one PostgreSQL database and one Maildir, as
//! the real binary runs them: every queued mail sent once, the senders
//! woken by NOTIFY when the CLI queues mail, `status` listing the daemons
//! and their leader, the leadership taken over after the leader is killed,
//! and the operator's commands on a PostgreSQL store (`config check
//! --connect`, `backup`). [IO: processes, the test PostgreSQL]
//!
//! PostgreSQL features: they run in the PostgreSQL pass of the test
//! command (`WILDT_TEST_BACKEND=postgres`); in the SQLite pass there is one
//! daemon per database (its file lock, tested in `ops_lock`).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::cli::{json_of, on_postgres, temp_config, wildt};

/// A club on a fresh PostgreSQL database, its Maildir made, sending
/// through a sendmail that appends each mail's Message-ID to `sent.log`
/// (two daemons sending one mail would write it twice) and its recipient
/// and subject to `subjects.log`.
fn club() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(dir.path().join("mail").join(sub)).unwrap();
    }
    let log = dir.path().join("sent.log");
    let subjects = dir.path().join("subjects.log");
    let sendmail = dir.path().join("sendmail");
    std::fs::write(
        &sendmail,
        format!(
            "#!/bin/sh\nawk 'tolower($0) ~ /^message-id:/ && !n {{ print $2; n = 1 }}
                 tolower($0) ~ /^(to|subject):/ {{ printf \"%s \", $0 >> \"{}\" }}
                 END {{ print \"\" >> \"{}\" }}' >> '{}'\n",
            subjects.display(),
            subjects.display(),
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        &sendmail,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let text = std::fs::read_to_string(&cfg).unwrap();
    let text = text[..text.find("kind = \"file\"").unwrap()].to_owned()
        + &format!(
            "kind = \"sendmail\"\ncommand = \"{}\"\n",
            sendmail.display()
        );
    std::fs::write(&cfg, text).unwrap();
    (dir, cfg)
}

/// The Message-IDs the sendmail was handed, in order.
fn sent(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("sent.log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// One `wildt serve`, its stderr in `serve-N.log`.
struct Daemon {
    child: Child,
    log: PathBuf,
}

impl Daemon {
    fn start(cfg: &Path, dir: &Path, n: usize) -> Daemon {
        let log = dir.join(format!("serve-{n}.log"));
        let child = Command::new(env!("CARGO_BIN_EXE_wildt"))
            .args(["serve", "--config"])
            .arg(cfg)
            .env("RUST_LOG", "info")
            .env("JOURNAL_STREAM", "0:0")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        Daemon { child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn pid(&self) -> i64 {
        i64::from(self.child.id())
    }

    /// SIGTERM; it must exit successfully.
    fn stop(mut self) {
        let killed = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = self.child.wait().unwrap();
        assert!(
            status.success(),
            "serve ended with {status}:\n{}",
            self.log()
        );
    }

    /// SIGKILL: no chance to give anything back.
    fn kill_9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if self.child.kill().is_ok() {
            self.child.wait().ok();
        }
    }
}

/// Waits (bounded, generously) until `ready` holds; `logs` are shown if not.
fn wait_for(what: &str, within: Duration, logs: &[&Daemon], mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !ready() {
        if Instant::now() >= deadline {
            let logs: Vec<String> = logs.iter().map(|d| d.log()).collect();
            panic!(
                "{what}: not seen within {within:?}:\n{}",
                logs.join("\n----\n")
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// `wildt status --json`'s daemons.
fn daemons(cfg: &Path) -> Vec<Value> {
    let out = wildt(cfg, &["status", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "status --json: {e}:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    v["daemons"].as_array().cloned().unwrap_or_default()
}

/// The pid of the daemon `status` says leads, if one does.
fn leader_pid(cfg: &Path) -> Option<i64> {
    daemons(cfg)
        .iter()
        .find(|d| d["leads"] == true)
        .and_then(|d| d["pid"].as_i64())
}

/// `wildt game new` for two new players: two welcome mails queued.
fn new_game(cfg: &Path, n: usize) {
    let white = format!("w{n}@example.org");
    let black = format!("b{n}@example.net");
    json_of(&wildt(
        cfg,
        &[
            "game", "new", "--white", &white, "--black", &black, "--json",
        ],
    ));
}

/// Two daemons on one database: mail queued by the CLI while they idle
/// (their timer 30 s on PostgreSQL) is sent within seconds, woken by
/// NOTIFY, every mail exactly once; `status` lists both daemons live with
/// their pids, exactly one of them leading.
#[test]
fn two_daemons_send_cli_mail_once_each_woken_by_notify_and_status_lists_both_and_the_leader() {
    if !on_postgres() {
        return;
    }
    let (dir, cfg) = club();
    let a = Daemon::start(&cfg, dir.path(), 1);
    let b = Daemon::start(&cfg, dir.path(), 2);
    wait_for(
        "both ready and listening",
        Duration::from_secs(30),
        &[&a, &b],
        || {
            [&a, &b].iter().all(|d| {
                let log = d.log();
                log.contains("ready") && log.contains("listening for mail queued")
            })
        },
    );
    // Idle now: what is sent next was queued after this.
    std::thread::sleep(Duration::from_secs(1));
    for n in 0..15 {
        new_game(&cfg, n);
    }
    // Well below the 30 s timer: only a notification explains it.
    wait_for(
        "the 30 welcome mails",
        Duration::from_secs(20),
        &[&a, &b],
        || sent(dir.path()).len() >= 30,
    );
    // A mail sent twice would show up a moment later.
    std::thread::sleep(Duration::from_secs(2));
    let mut ids = sent(dir.path());
    assert_eq!(ids.len(), 30, "{ids:?}");
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 30, "a mail was sent twice");

    let listed = daemons(&cfg);
    let mut pids: Vec<i64> = listed.iter().filter_map(|d| d["pid"].as_i64()).collect();
    pids.sort_unstable();
    let mut expected = vec![a.pid(), b.pid()];
    expected.sort_unstable();
    assert_eq!(pids, expected, "{listed:#?}");
    assert!(listed.iter().all(|d| d["live"] == true), "{listed:#?}");
    assert_eq!(
        listed.iter().filter(|d| d["leads"] == true).count(),
        1,
        "{listed:#?}"
    );
    let text = String::from_utf8(wildt(&cfg, &["status"]).stdout).unwrap();
    assert_eq!(text.matches(", leads").count(), 1, "{text}");
    a.stop();
    b.stop();
}

/// The leader killed with `kill -9` is replaced: the other daemon leads
/// within a minute (the 30 s lease, renewed every 10 s), and says so.
#[test]
fn a_leader_killed_with_kill_9_is_replaced_by_another_daemon_within_a_minute() {
    if !on_postgres() {
        return;
    }
    let (dir, cfg) = club();
    let first = Daemon::start(&cfg, dir.path(), 1);
    // Ready: the database migrated, the daemon in the registry.
    wait_for(
        "the first daemon ready",
        Duration::from_secs(30),
        &[&first],
        || first.log().contains("ready"),
    );
    wait_for(
        "the first daemon leads",
        Duration::from_secs(30),
        &[&first],
        || leader_pid(&cfg) == Some(first.pid()),
    );
    let second = Daemon::start(&cfg, dir.path(), 2);
    wait_for(
        "the second daemon ready",
        Duration::from_secs(30),
        &[&second],
        || second.log().contains("ready"),
    );
    assert!(
        !second.log().contains("this daemon leads"),
        "{}",
        second.log()
    );
    first.kill_9();
    wait_for(
        "the second daemon leads",
        Duration::from_secs(60),
        &[&second],
        || leader_pid(&cfg) == Some(second.pid()),
    );
    assert!(
        second.log().contains("this daemon leads"),
        "{}",
        second.log()
    );
    // The dead daemon is still listed, no longer leading.
    let listed = daemons(&cfg);
    assert_eq!(listed.len(), 2, "{listed:#?}");
    second.stop();
}

fn failed(out: &Output) -> String {
    assert!(
        !out.status.success(),
        "it succeeded:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `wildt backup` on a PostgreSQL store does nothing, fails, and names
/// PostgreSQL's own tools.
#[test]
fn backup_of_a_postgres_store_is_refused_with_pg_dump_and_pg_basebackup_named() {
    if !on_postgres() {
        return;
    }
    let (dir, cfg) = club();
    let copy = dir.path().join("copy.db");
    let said = failed(&wildt(&cfg, &["backup", copy.to_str().unwrap()]));
    assert!(said.contains("pg_dump"), "{said}");
    assert!(said.contains("pg_basebackup"), "{said}");
    assert!(!copy.exists());
}

/// `config check --connect` logs in to PostgreSQL: with the right password
/// it says so; with a wrong one it fails on a sentence naming the wrong
/// password and the file to fix; with a port nobody listens on, that the
/// server cannot be reached.
#[test]
fn config_check_connect_logs_in_to_postgres_and_names_a_wrong_password_and_an_unreachable_host() {
    if !on_postgres() {
        return;
    }
    let (dir, cfg) = club();
    let out = wildt(&cfg, &["config", "check", "--connect"]);
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(said.contains("logged in to PostgreSQL"), "{said}");

    let wrong = dir.path().join("wrong-password");
    std::fs::write(&wrong, "not-the-password\n").unwrap();
    let text = std::fs::read_to_string(&cfg).unwrap();
    let right = crate::support::pg::password_file().display().to_string();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, text.replace(&right, &wrong.display().to_string())).unwrap();
    let said = failed(&wildt(&bad, &["config", "check", "--connect"]));
    assert!(said.contains("wrong password"), "{said}");
    assert!(said.contains(&wrong.display().to_string()), "{said}");

    let port = crate::support::pg::url()
        .rsplit_once(':')
        .and_then(|(_, rest)| rest.split('/').next().map(str::to_owned))
        .unwrap();
    let unreachable = dir.path().join("unreachable.toml");
    std::fs::write(&unreachable, text.replace(&format!(":{port}/"), ":1/")).unwrap();
    let said = failed(&wildt(&unreachable, &["config", "check", "--connect"]));
    assert!(said.contains("cannot reach PostgreSQL"), "{said}");
}

/// Two daemons on one database and one Maildir, a burst of moves in 20
/// games delivered at once: each move is recorded once (every game has
/// exactly its one move), and its confirmation and relay are sent once
/// each, whichever daemon read the message first; the second finds it
/// recorded (its digest and Maildir identity, written in the move's
/// transaction) and moves on.
#[test]
fn two_daemons_on_one_maildir_record_each_move_of_a_burst_once_and_answer_it_once() {
    if !on_postgres() {
        return;
    }
    let (dir, cfg) = club();
    let games: Vec<(i64, String, String)> = (0..20)
        .map(|n| {
            let (white, black) = (format!("w{n}@example.org"), format!("b{n}@example.net"));
            let v = json_of(&wildt(
                &cfg,
                &[
                    "game",
                    "new",
                    "--no-mail",
                    "--white",
                    &white,
                    "--black",
                    &black,
                    "--json",
                ],
            ));
            let address = v["white"]["address"].as_str().unwrap().to_owned();
            (v["id"].as_i64().unwrap(), white, address)
        })
        .collect();
    let a = Daemon::start(&cfg, dir.path(), 1);
    let b = Daemon::start(&cfg, dir.path(), 2);
    wait_for("both ready", Duration::from_secs(30), &[&a, &b], || {
        a.log().contains("ready") && b.log().contains("ready")
    });
    let new = dir.path().join("mail/new");
    for (n, (_, white, address)) in games.iter().enumerate() {
        let raw =
            crate::support::club::mail(white, address, &format!("burst{n}@example.org"), "1. 5254");
        // Written aside, then moved in: a delivery is atomic.
        let tmp = dir.path().join("mail/tmp").join(format!("{n}.eml"));
        std::fs::write(&tmp, raw).unwrap();
        std::fs::rename(&tmp, new.join(format!("{n}.eml"))).unwrap();
    }
    wait_for(
        "40 answers sent",
        Duration::from_secs(60),
        &[&a, &b],
        || sent(dir.path()).len() >= 40,
    );
    wait_for(
        "the Maildir's new/ empty",
        Duration::from_secs(30),
        &[&a, &b],
        || std::fs::read_dir(&new).unwrap().count() == 0,
    );
    // A second answer would show up a moment later.
    std::thread::sleep(Duration::from_secs(2));
    let mut ids = sent(dir.path());
    assert_eq!(ids.len(), 40, "{ids:?}");
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 40, "an answer was sent twice");
    for (id, _, _) in &games {
        let shown = json_of(&wildt(&cfg, &["game", "show", &id.to_string(), "--json"]));
        assert_eq!(
            shown["moves"].as_array().map(Vec::len),
            Some(1),
            "game {id}: {shown:#}"
        );
    }
    for d in [&a, &b] {
        assert!(!d.log().contains("quarantine"), "{}", d.log());
    }
    a.stop();
    b.stop();
}

/// The leader's lease and the heartbeats, against PostgreSQL at chosen
/// times: the first daemon to beat leads and renews; another takes the
/// lease only once it has run out (30 s after the last renewal), and the
/// first then no longer leads. The outbox rows a daemon leased come back
/// once its heartbeat is older than a minute, not before.
#[tokio::test]
async fn the_leaders_lease_passes_only_when_it_runs_out_and_a_gone_daemons_mail_comes_back() {
    use wildt::daemon::leader::{GONE_AFTER_SECS, LEASE_SECS, Me, beat};
    if !on_postgres() {
        return;
    }
    let url = crate::support::pg::fresh_database("leader");
    let password = crate::support::pg::password();
    let store = wildt::store::Store::open_with_password(&url, Some(&password))
        .await
        .unwrap();
    let me = |id: &str, pid: i64| Me {
        id: id.to_owned(),
        host: "host".to_owned(),
        pid,
        started_at: 0,
    };
    let (a, b) = (me("pid:1:a", 1), me("pid:2:b", 2));
    let t = 1_000_000;
    assert!(beat(&store, &a, t).await.unwrap());
    assert!(!beat(&store, &b, t).await.unwrap());
    assert!(beat(&store, &a, t + 10).await.unwrap());
    assert!(!beat(&store, &b, t + 10 + LEASE_SECS - 1).await.unwrap());
    assert!(beat(&store, &b, t + 10 + LEASE_SECS).await.unwrap());
    assert!(!beat(&store, &a, t + 10 + LEASE_SECS).await.unwrap());

    // `a` last seen at t + 40; a row it leased for long.
    let seen = t + 10 + LEASE_SECS;
    sqlx::query(
        "INSERT INTO outbox (id, message_id, sender, recipient, event, created_at,
                             next_attempt_at, leased_by, leased_until)
         VALUES (1, 'm1@club.example', 'chess@club.example', 'anna@example.org',
                 'move-accepted', 0, 0, $1, $2)",
    )
    .bind(a.id.clone())
    .bind(seen + 10_000)
    .execute(store.pool())
    .await
    .unwrap();
    let holder = || async {
        sqlx::query_scalar::<_, Option<String>>("SELECT leased_by FROM outbox WHERE id = 1")
            .fetch_one(store.pool())
            .await
            .unwrap()
    };
    beat(&store, &b, seen + GONE_AFTER_SECS).await.unwrap();
    assert_eq!(holder().await.as_deref(), Some(a.id.as_str()));
    beat(&store, &b, seen + GONE_AFTER_SECS + 1).await.unwrap();
    assert_eq!(holder().await, None);
    store.close().await;
}

/// The mails to `to` whose subject says `what`, from `subjects.log`.
fn mails_to(dir: &Path, to: &str, what: &str) -> usize {
    std::fs::read_to_string(dir.join("subjects.log"))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains(to) && l.to_lowercase().contains(what))
        .count()
}

/// Only the leader runs the deadlines, and another daemon takes them over
/// when the leader is killed: a reminder falls due for a daemon that does
/// not lead (its `WILDT_NOW` 14 days after the game began, the leader's 13)
/// and is not sent; the leader killed with `kill -9`, that daemon leads
/// within a minute and sends the reminder, once.
#[test]
fn a_reminder_due_is_sent_once_by_the_daemon_that_takes_over_from_a_killed_leader() {
    if !on_postgres() {
        return;
    }
    const DAY: i64 = 86_400;
    // 2026-12-01T00:00:00Z.
    let t0 = 1_796_083_200;
    let at = |t: i64| {
        let (days, secs) = (t.div_euclid(DAY), t.rem_euclid(DAY));
        let date = wildt::clock::Date::of_instant(days * DAY);
        format!("{date}T{:02}:{:02}:00Z", secs / 3600, secs % 3600 / 60)
    };
    let (dir, cfg) = club();
    let created = Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args([
            "game",
            "new",
            "--no-mail",
            "--white",
            "anna@example.org",
            "--black",
            "ben@example.net",
            "--time",
            "10/50",
            "--json",
            "--config",
        ])
        .arg(&cfg)
        .env("WILDT_NOW", at(t0))
        .output()
        .unwrap();
    assert!(
        created.status.success(),
        "{}",
        String::from_utf8_lossy(&created.stderr)
    );
    let start_at = |n: usize, now: i64| {
        let log = dir.path().join(format!("serve-{n}.log"));
        let child = Command::new(env!("CARGO_BIN_EXE_wildt"))
            .args(["serve", "--config"])
            .arg(&cfg)
            .env("RUST_LOG", "info")
            .env("JOURNAL_STREAM", "0:0")
            .env("WILDT_NOW", at(now))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        Daemon { child, log }
    };
    let leader = start_at(1, t0 + 13 * DAY);
    wait_for(
        "the first daemon leads",
        Duration::from_secs(30),
        &[&leader],
        || leader.log().contains("this daemon leads"),
    );
    let follower = start_at(2, t0 + 14 * DAY + 3600);
    wait_for(
        "the second daemon ready",
        Duration::from_secs(30),
        &[&follower],
        || follower.log().contains("ready"),
    );
    // A round of the follower's loop and of its sender: nothing.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(mails_to(dir.path(), "anna@example.org", "reminder"), 0);
    leader.kill_9();
    wait_for(
        "the reminder",
        Duration::from_secs(60),
        &[&follower],
        || mails_to(dir.path(), "anna@example.org", "reminder") >= 1,
    );
    assert!(
        follower.log().contains("this daemon leads"),
        "{}",
        follower.log()
    );
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(mails_to(dir.path(), "anna@example.org", "reminder"), 1);
    follower.stop();
}

/// A daemon whose listening connection is cut (its backend terminated)
/// listens again: mail the CLI queues afterwards is still sent within
/// seconds, not after the 30 s timer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_listening_connection_listens_again_and_queued_mail_still_wakes_the_sender() {
    if !on_postgres() {
        return;
    }
    let (dir, cfg) = club();
    let text = std::fs::read_to_string(&cfg).unwrap();
    let url = text
        .lines()
        .find_map(|l| l.strip_prefix("url = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap()
        .to_owned();
    let daemon = Daemon::start(&cfg, dir.path(), 1);
    wait_for("listening", Duration::from_secs(30), &[&daemon], || {
        daemon.log().contains("listening for mail queued")
    });
    let pool = crate::support::pg::pool(&url).await;
    let cut: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND query ILIKE 'LISTEN%'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(cut, [true], "one listening connection");
    pool.close().await;
    wait_for(
        "listening again",
        Duration::from_secs(30),
        &[&daemon],
        || daemon.log().contains("listening again"),
    );
    // The wake-up that reconnecting gives is spent: idle again.
    std::thread::sleep(Duration::from_secs(2));
    new_game(&cfg, 0);
    wait_for(
        "the two welcome mails",
        Duration::from_secs(20),
        &[&daemon],
        || sent(dir.path()).len() >= 2,
    );
    daemon.stop();
}

/// `serve` on a PostgreSQL that cannot be reached waits for it, saying
/// so, instead of exiting (a daemon started before its database, or during
/// a restart), and still stops cleanly when asked; `serve --once` fails at
/// once.
#[test]
fn serve_waits_for_an_unreachable_postgres_and_stops_cleanly_while_it_waits() {
    if !on_postgres() {
        return;
    }
    let (dir, cfg) = club();
    let port = crate::support::pg::url()
        .rsplit_once(':')
        .and_then(|(_, rest)| rest.split('/').next().map(str::to_owned))
        .unwrap();
    let text = std::fs::read_to_string(&cfg)
        .unwrap()
        .replace(&format!(":{port}/"), ":1/");
    let down = dir.path().join("down.toml");
    std::fs::write(&down, text).unwrap();
    let once = wildt(&down, &["serve", "--once"]);
    assert!(!once.status.success());
    let daemon = Daemon::start(&down, dir.path(), 1);
    wait_for("a try said", Duration::from_secs(30), &[&daemon], || {
        daemon
            .log()
            .contains("database not reachable; trying again")
    });
    daemon.stop();
}
