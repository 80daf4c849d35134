//! The outbox as the daemon and the organiser meet it, against the real
//! binary on the Maildir + file (or sendmail) setup: a busy database does
//! not end the sending, a stuck worker stops the watchdog, mail queued by
//! the CLI goes out while the daemon runs, two processes never send one row
//! twice, and `wildt outbox list|retry`. [IO: processes, temp files, SQLite]

use std::os::unix::net::UnixDatagram;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use sqlx::Connection as _;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};

use crate::support::cli::{json_of, on_postgres, temp_config, wildt};

/// A connection to the club's database in `dir`, whichever the backend
/// (the URL its configuration names; on PostgreSQL the rig's password).
async fn club_db(dir: &Path) -> sqlx::AnyConnection {
    use std::str::FromStr as _;
    sqlx::any::install_default_drivers();
    let text = std::fs::read_to_string(dir.join("wildt.toml")).unwrap();
    let url = text
        .lines()
        .find_map(|l| l.strip_prefix("url = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .expect("a [database] url")
        .to_owned();
    let mut options = sqlx::any::AnyConnectOptions::from_str(&url).unwrap();
    if on_postgres() {
        options
            .database_url
            .set_password(Some(&crate::support::pg::password()))
            .unwrap();
    }
    sqlx::AnyConnection::connect_with(&options).await.unwrap()
}

/// A club with its config, Maildir folders made, and `extra` appended to
/// the `[outbox]` table (the last table of the file).
fn club(extra: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(dir.path().join("mail").join(sub)).unwrap();
    }
    let mut text = std::fs::read_to_string(&cfg).unwrap();
    text.push_str(extra);
    std::fs::write(&cfg, text).unwrap();
    (dir, cfg)
}

/// `wildt game new` for two new players, with the welcome mails queued.
fn new_game(cfg: &Path, n: usize) -> i64 {
    let white = format!("w{n}@example.org");
    let black = format!("b{n}@example.net");
    let v = json_of(&wildt(
        cfg,
        &[
            "game", "new", "--white", &white, "--black", &black, "--json",
        ],
    ));
    v["id"].as_i64().unwrap()
}

/// The `.eml` files the file outbox holds.
fn sent_files(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("outbox")).map_or(0, |rd| {
        rd.filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "eml"))
        })
        .count()
    })
}

/// `wildt serve` in the background, its stderr in a file.
struct Daemon {
    child: Option<Child>,
    log: PathBuf,
}

impl Daemon {
    fn start(cfg: &Path, dir: &Path) -> Daemon {
        Daemon::start_with(cfg, dir, |_| {})
    }

    fn start_with(cfg: &Path, dir: &Path, env: impl FnOnce(&mut Command)) -> Daemon {
        let log = dir.join("serve.log");
        let mut cmd = Command::new("sh");
        // WATCHDOG_PID must be the daemon's own pid: `exec` keeps the shell's.
        cmd.arg("-c")
            .arg("WATCHDOG_PID=$$ exec \"$0\" serve --config \"$1\"")
            .arg(env!("CARGO_BIN_EXE_wildt"))
            .arg(cfg)
            .env("RUST_LOG", "info")
            // As under systemd: plain lines, as the journal stores them.
            .env("JOURNAL_STREAM", "0:0")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap());
        env(&mut cmd);
        Daemon {
            child: Some(cmd.spawn().unwrap()),
            log,
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits (bounded, generously) until `ready` holds while the daemon runs.
    fn wait_for(&self, what: &str, within: Duration, mut ready: impl FnMut() -> bool) {
        let deadline = Instant::now() + within;
        while !ready() {
            assert!(
                Instant::now() < deadline,
                "{what}: not seen within {within:?} while the daemon ran:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// SIGTERM; it must exit successfully.
    fn stop(&mut self) {
        let mut child = self.child.take().expect("running");
        let killed = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        assert!(
            status.success(),
            "serve ended with {status}:\n{}",
            self.log()
        );
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take()
            && child.kill().is_ok()
        {
            child.wait().ok();
        }
    }
}

/// Another connection to the club's database holding the write lock
/// (`BEGIN IMMEDIATE`) until dropped (rolled back).
async fn hold_write_lock(dir: &Path) -> SqliteConnection {
    let options = SqliteConnectOptions::new().filename(dir.join("wildt.db"));
    let mut conn = SqliteConnection::connect_with(&options).await.unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut conn)
        .await
        .unwrap();
    conn
}

/// Makes every waiting row due `secs` from now, so that it falls due while
/// the test holds the write lock.
async fn due_in(dir: &Path, secs: i64) {
    let mut conn = club_db(dir).await;
    sqlx::query("UPDATE outbox SET next_attempt_at = $1 WHERE sent_at IS NULL")
        .bind(wildt::store::now_secs() + secs)
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
}

/// Regression: the worker returned on the first database
/// error (the write lock held past the busy timeout), and nothing more was
/// sent while the daemon went on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outbox_worker_survives_a_database_locked_past_the_busy_timeout_and_sends_everything_after()
{
    if on_postgres() {
        // SQLite's write lock held past its busy timeout: PostgreSQL's
        // writers wait on row locks with no such timeout to fail them.
        return;
    }
    let (dir, cfg) = club("");
    for n in 0..3 {
        new_game(&cfg, n);
    }
    due_in(dir.path(), 3600).await;
    let mut daemon = Daemon::start(&cfg, dir.path());
    daemon.wait_for("ready", Duration::from_secs(30), || {
        daemon.log().contains("ready")
    });
    // Due in 3 s; the lock is taken at once, so they fall due under it.
    due_in(dir.path(), 3).await;
    let lock = hold_write_lock(dir.path()).await;
    // Longer than the 10 s busy timeout: the worker meets "database is locked".
    daemon.wait_for("a database error", Duration::from_secs(60), || {
        daemon.log().contains("outbox: database error; retrying")
    });
    // The lock did hold the mail back.
    assert_eq!(sent_files(dir.path()), 0);
    lock.close().await.unwrap();

    daemon.wait_for("all six welcome mails", Duration::from_secs(60), || {
        sent_files(dir.path()) == 6
    });
    let log = daemon.log();
    assert!(log.contains("error=database: "), "{log}");
    daemon.stop();
    assert_eq!(sent_files(dir.path()), 6);
}

/// A batch handed to the relay but not marked sent (the write lock held
/// past the busy timeout while the batch was out): the worker remembers
/// which mails it handed over and marks them sent once the database takes
/// writes again, before it gives its leases back, so none is sent twice
/// and none waits for the lease's ten minutes. Over a sendmail that logs
/// each Message-ID and, for the first mail, waits until the test holds the
/// lock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_sent_but_not_marked_is_marked_once_the_database_is_back_and_not_sent_again() {
    if on_postgres() {
        // SQLite's write lock held past its busy timeout: PostgreSQL's
        // writers wait on row locks with no such timeout to fail them.
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("sent.log");
    let (hold, started) = (dir.path().join("hold"), dir.path().join("started"));
    let sendmail = dir.path().join("sendmail");
    std::fs::write(
        &sendmail,
        format!(
            "#!/bin/sh\ntouch '{started}'\nwhile [ -e '{hold}' ]; do sleep 0.05; done\n\
             awk 'tolower($0) ~ /^message-id:/ && !n {{ print $2; n = 1 }}' >> '{log}'\n",
            started = started.display(),
            hold = hold.display(),
            log = log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        &sendmail,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let cfg = temp_config(dir.path());
    let text = std::fs::read_to_string(&cfg).unwrap();
    let text = text[..text.find("kind = \"file\"").unwrap()].to_owned()
        + &format!(
            "kind = \"sendmail\"\ncommand = \"{}\"\n",
            sendmail.display()
        );
    std::fs::write(&cfg, text).unwrap();
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(dir.path().join("mail").join(sub)).unwrap();
    }
    for n in 0..2 {
        new_game(&cfg, n);
    }
    std::fs::write(&hold, "").unwrap();
    let mut daemon = Daemon::start(&cfg, dir.path());
    daemon.wait_for(
        "the first mail handed to sendmail",
        Duration::from_secs(30),
        || started.exists(),
    );
    // The batch (all four welcome mails) is out; its mark must wait.
    let lock = hold_write_lock(dir.path()).await;
    std::fs::remove_file(&hold).unwrap();
    daemon.wait_for("a database error", Duration::from_secs(60), || {
        daemon.log().contains("outbox: database error; retrying")
    });
    lock.close().await.unwrap();
    let options = SqliteConnectOptions::new().filename(dir.path().join("wildt.db"));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let mut conn = SqliteConnection::connect_with(&options).await.unwrap();
        let unsent: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL")
            .fetch_one(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();
        if unsent == 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{unsent} mails still unsent a minute after the lock was given back:\n{}",
            daemon.log()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    daemon.stop();
    let sent = std::fs::read_to_string(&log).unwrap();
    let mut count: std::collections::BTreeMap<&str, usize> = Default::default();
    for id in sent.lines() {
        *count.entry(id).or_default() += 1;
    }
    // Each of the four mails: handed over once, before the error.
    assert_eq!(count.len(), 4, "{sent}");
    assert!(count.values().all(|&n| n == 1), "{count:?}");
}

/// A worker that cannot make progress for longer than
/// `stall_after_secs` makes the daemon stop pinging the watchdog (so systemd
/// restarts it), says why, and pings again once the worker recovers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stuck_outbox_worker_stops_the_watchdog_pings_and_says_why() {
    if on_postgres() {
        // SQLite's write lock held past its busy timeout: PostgreSQL's
        // writers wait on row locks with no such timeout to fail them.
        return;
    }
    let (dir, cfg) = club("stall_after_secs = 2\n");
    new_game(&cfg, 0);
    due_in(dir.path(), 3600).await;
    let sock_path = dir.path().join("notify.sock");
    let sock = UnixDatagram::bind(&sock_path).unwrap();
    sock.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut daemon = Daemon::start_with(&cfg, dir.path(), |c| {
        c.env("NOTIFY_SOCKET", &sock_path)
            .env("WATCHDOG_USEC", "1000000");
    });
    let pings = |window: Duration| {
        let end = Instant::now() + window;
        let mut n = 0;
        let mut buf = [0u8; 512];
        while Instant::now() < end {
            if let Ok(len) = sock.recv(&mut buf)
                && String::from_utf8_lossy(&buf[..len])
                    .lines()
                    .any(|l| l == "WATCHDOG=1")
            {
                n += 1;
            }
        }
        n
    };
    daemon.wait_for("ready", Duration::from_secs(30), || {
        daemon.log().contains("ready")
    });
    assert!(pings(Duration::from_secs(2)) > 0, "no pings while healthy");
    // Due in 3 s; the lock is taken at once, so they fall due under it.
    due_in(dir.path(), 3).await;
    let lock = hold_write_lock(dir.path()).await;
    daemon.wait_for("the stall", Duration::from_secs(90), || {
        daemon.log().contains("no longer pinging the watchdog")
    });
    // The lock is still held: the worker is still stuck (each try waits the
    // busy timeout), and no ping may come while it is. Pings sent before
    // the stall was seen are read first.
    sock.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 512];
    while sock.recv(&mut buf).is_ok() {}
    sock.set_nonblocking(false).unwrap();
    sock.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    assert_eq!(pings(Duration::from_secs(3)), 0, "{}", daemon.log());
    lock.close().await.unwrap();
    daemon.wait_for("the welcome mails", Duration::from_secs(60), || {
        sent_files(dir.path()) == 2
    });
    assert!(
        pings(Duration::from_secs(3)) > 0,
        "no pings after recovery:\n{}",
        daemon.log()
    );
    let log = daemon.log();
    assert!(log.contains("stalled_secs="), "{log}");
    assert!(
        log.contains("outbox worker is making progress again"),
        "{log}"
    );
    daemon.stop();
}

/// Regression: mail queued by another process (`game new` from the CLI)
/// waited up to 60 s for the idle worker to wake.
#[test]
fn mail_queued_by_the_cli_is_sent_by_the_running_daemon() {
    let (dir, cfg) = club("");
    let mut daemon = Daemon::start(&cfg, dir.path());
    daemon.wait_for("ready", Duration::from_secs(30), || {
        daemon.log().contains("ready")
    });
    new_game(&cfg, 0);
    // Generous, and well below a minute.
    daemon.wait_for("the two welcome mails", Duration::from_secs(30), || {
        sent_files(dir.path()) == 2
    });
    daemon.stop();
}

/// Regression: two processes sending from one database each read
/// the same due rows and sent them both. Here two `serve --once` run at once
/// on one database reached under two names (the daemon lock goes by the
/// name), over a sendmail that logs every Message-ID it is handed.
#[test]
fn two_processes_sending_at_once_send_every_mail_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("sent.log");
    let sendmail = dir.path().join("sendmail");
    std::fs::write(
        &sendmail,
        format!(
            "#!/bin/sh\nawk 'tolower($0) ~ /^message-id:/ && !n {{ print $2; n = 1 }}' >> '{}'\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        &sendmail,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let outbox = format!(
        "kind = \"sendmail\"\ncommand = \"{}\"\n",
        sendmail.display()
    );
    let mk = |db: &str| {
        let cfg = temp_config(dir.path());
        let text = std::fs::read_to_string(&cfg)
            .unwrap()
            .replace("wildt.db", db);
        let text = text[..text.find("kind = \"file\"").unwrap()].to_owned() + &outbox;
        let path = dir.path().join(format!("{db}.toml"));
        std::fs::write(&path, text).unwrap();
        path
    };
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(dir.path().join("mail").join(sub)).unwrap();
    }
    let a = mk("wildt.db");
    for n in 0..20 {
        new_game(&a, n);
    }
    std::os::unix::fs::symlink(dir.path().join("wildt.db"), dir.path().join("alias.db")).unwrap();
    let b = mk("alias.db");
    let spawn = |cfg: &Path| {
        Command::new(env!("CARGO_BIN_EXE_wildt"))
            .args(["serve", "--once", "--config"])
            .arg(cfg)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (one, two) = (spawn(&a), spawn(&b));
    for child in [one, two] {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let sent = std::fs::read_to_string(&log).unwrap();
    let mut ids: Vec<&str> = sent.lines().collect();
    assert_eq!(ids.len(), 40, "{sent}");
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 40, "a mail was sent twice:\n{sent}");
}

/// Marks the outbox row `id` failed as a relay's permanent refusal would.
async fn fail_row(dir: &Path, id: i64) {
    let mut conn = club_db(dir).await;
    sqlx::query(
        "UPDATE outbox SET failed_at = $1, attempts = 1,
         last_error = 'SMTP relay: permanent error (550): 5.1.1 unknown user' WHERE id = $2",
    )
    .bind(wildt::store::now_secs())
    .bind(id)
    .execute(&mut conn)
    .await
    .unwrap();
    conn.close().await.unwrap();
}

/// Failed mail can be seen and requeued from the CLI.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outbox_list_shows_failed_mail_and_retry_sends_it_once() {
    let (dir, cfg) = club("");
    let game = new_game(&cfg, 0);
    let waiting = json_of(&wildt(&cfg, &["outbox", "list", "--json"]));
    let rows = waiting.as_array().unwrap();
    assert_eq!(rows.len(), 2, "{waiting}");
    assert!(rows.iter().all(|r| r["state"] == "waiting"), "{waiting}");
    let failed_id = rows[0]["id"].as_i64().unwrap();
    fail_row(dir.path(), failed_id).await;

    let failed = json_of(&wildt(&cfg, &["outbox", "list", "--failed", "--json"]));
    let failed = failed.as_array().unwrap();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["id"], failed_id);
    assert_eq!(failed[0]["game"], game);
    assert!(
        failed[0]["last_error"].as_str().unwrap().contains("550"),
        "{failed:?}"
    );
    let text = wildt(&cfg, &["outbox", "list", "--failed"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("failed") && text.contains("550"), "{text}");
    // `game show` tells the organiser too, in text and JSON.
    let shown = json_of(&wildt(&cfg, &["game", "show", &game.to_string(), "--json"]));
    assert_eq!(shown["failed_mail"][0]["id"], failed_id, "{shown}");
    let shown = wildt(&cfg, &["game", "show", &game.to_string()]);
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(shown.contains("Mail not delivered: #"), "{shown}");

    // The serve sends the waiting one only.
    let once = wildt(&cfg, &["serve", "--once"]);
    assert!(once.status.success());
    assert_eq!(sent_files(dir.path()), 1);

    let retried = wildt(&cfg, &["outbox", "retry", "--failed"]);
    assert!(retried.status.success());
    assert_eq!(
        String::from_utf8_lossy(&retried.stdout).trim(),
        format!("{failed_id}: queued again")
    );
    let once = wildt(&cfg, &["serve", "--once"]);
    assert!(once.status.success());
    assert_eq!(sent_files(dir.path()), 2);
    let left = json_of(&wildt(&cfg, &["outbox", "list", "--json"]));
    assert_eq!(left.as_array().unwrap().len(), 0, "{left}");

    // A sent mail is never queued again; an unknown id is an error.
    let again = wildt(&cfg, &["outbox", "retry", &failed_id.to_string()]);
    assert!(again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("already sent; not sent again"),
        "{again:?}"
    );
    let unknown = wildt(&cfg, &["outbox", "retry", "99999"]);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no outbox mail with id 99999"));
}

#[test]
fn outbox_commands_are_in_the_help() {
    let help = Command::new(env!("CARGO_BIN_EXE_wildt"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("outbox"));
    let help = Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(["outbox", "retry", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("--failed") && help.contains("[IDS]"),
        "{help}"
    );
}

/// A commit survives a power loss only with
/// `synchronous = FULL`; NORMAL (1) in WAL may roll the last one back.
#[tokio::test]
async fn the_store_commits_with_synchronous_full() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("wildt.db").display());
    let store = wildt::store::Store::open(&url).await.unwrap();
    let level: i64 = sqlx::query_scalar("PRAGMA synchronous")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(level, 2, "2 is FULL");
    store.close().await;
}

/// Pages are read through a memory map (a message's reads without a system
/// call each), and a file shrunk under the map by another process's
/// reclaim (the CLI's, with the daemon running) is read on safely: SQLite
/// maps no further than the file reaches at each read.
#[tokio::test]
async fn the_store_reads_through_a_memory_map_that_outlives_the_file_shrinking() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wildt.db");
    let url = format!("sqlite://{}", path.display());
    let store = wildt::store::Store::open(&url).await.unwrap();
    let mapped: i64 = sqlx::query_scalar("PRAGMA mmap_size")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(mapped, 256 << 20);
    sqlx::query("CREATE TABLE filler (x BLOB)")
        .execute(store.pool())
        .await
        .unwrap();
    sqlx::query(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
         INSERT INTO filler SELECT randomblob(4000) FROM n",
    )
    .execute(store.pool())
    .await
    .unwrap();
    let read = |store: &wildt::store::Store| {
        let pool = store.pool().clone();
        async move {
            sqlx::query_scalar::<_, i64>("SELECT COALESCE(SUM(length(x)), 0) FROM filler")
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    assert_eq!(read(&store).await, 2000 * 4000);
    // Another process empties the table and gives the pages back.
    let other = wildt::store::Store::open(&url).await.unwrap();
    sqlx::query("DELETE FROM filler")
        .execute(other.pool())
        .await
        .unwrap();
    other.reclaim(0, 100_000).await.unwrap();
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(other.pool())
        .await
        .unwrap();
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size < 2_000_000, "the file shrank: {size} bytes");
    other.close().await;
    // The first store reads on, past where its map reached.
    assert_eq!(read(&store).await, 0);
    sqlx::query("INSERT INTO filler SELECT randomblob(4000)")
        .execute(store.pool())
        .await
        .unwrap();
    assert_eq!(read(&store).await, 4000);
    store.close().await;
}

/// A backlog of 100 due mails (ids 1 to 100, each to another player)
/// claimed ten at a time: the first batch holds the newest mail as well as
/// the oldest, so a reply to a fresh move waits for one batch, not for the
/// backlog; and every mail is claimed exactly once as batches are sent.
#[tokio::test]
async fn claims_take_the_newest_mail_besides_the_oldest_and_each_mail_once() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("wildt.db").display());
    let store = wildt::store::Store::open(&url).await.unwrap();
    let leases = wildt::daemon::lease::Leases::new(store.clone());
    for i in 1..=100i64 {
        queue_due(&store, i, &format!("p{i}@example.org")).await;
    }
    let mut claimed = Vec::new();
    let mut first = Vec::new();
    for round in 0..11 {
        let rows = leases.lease_due(1, 10, "test", 1000).await.unwrap();
        if round == 0 {
            first = rows.iter().map(|r| r.id).collect();
        }
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        assert!(rows.iter().all(|r| r.raw == b"x"), "a body is missing");
        store.mark_sent_many(&ids).await.unwrap();
        claimed.extend(ids);
    }
    assert_eq!(first, [1, 2, 3, 4, 5, 96, 97, 98, 99, 100]);
    claimed.sort_unstable();
    assert_eq!(claimed, (1..=100).collect::<Vec<_>>());
    let bodies: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox_bodies")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(bodies, 0, "sent mail keeps its body");
}

/// A database made by a wildt before it gave free pages back (auto_vacuum
/// off, free pages in the file) is converted and compacted once when opened,
/// and keeps its data.
#[tokio::test]
async fn an_older_database_is_converted_to_give_free_pages_back_and_keeps_its_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let options = SqliteConnectOptions::new()
        .filename(&path)
        .create_if_missing(true);
    let mut conn = SqliteConnection::connect_with(&options).await.unwrap();
    for sql in [
        "CREATE TABLE filler (x BLOB)",
        "INSERT INTO filler SELECT zeroblob(4000) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) SELECT i FROM n)",
        "DELETE FROM filler",
    ] {
        sqlx::query(sql).execute(&mut conn).await.unwrap();
    }
    let pragma = |sql: &'static str| sqlx::query_scalar::<_, i64>(sql);
    assert_eq!(
        pragma("PRAGMA auto_vacuum")
            .fetch_one(&mut conn)
            .await
            .unwrap(),
        0
    );
    let free_before = pragma("PRAGMA freelist_count")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert!(free_before > 400, "{free_before}");
    conn.close().await.unwrap();

    let store = wildt::store::Store::open(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    let mut conn = store.pool().acquire().await.unwrap();
    let pragma = |sql: &'static str| sqlx::query_scalar::<sqlx::Any, i64>(sql);
    assert_eq!(
        pragma("PRAGMA auto_vacuum")
            .fetch_one(&mut *conn)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        pragma("PRAGMA freelist_count")
            .fetch_one(&mut *conn)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        pragma("SELECT COUNT(*) FROM filler")
            .fetch_one(&mut *conn)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        pragma("SELECT COUNT(*) FROM games")
            .fetch_one(&mut *conn)
            .await
            .unwrap(),
        0,
        "the migrations ran"
    );
}

/// A new store in a temporary folder (kept while the folder lives).
async fn fresh_store() -> (tempfile::TempDir, wildt::store::Store) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("w.db").display());
    let store = wildt::store::Store::open(&url).await.unwrap();
    (dir, store)
}

/// One number a statement returns, on a connection of the store's pool.
async fn number(store: &wildt::store::Store, sql: &str) -> i64 {
    let mut conn = store.pool().acquire().await.unwrap();
    sqlx::query_scalar(sql).fetch_one(&mut *conn).await.unwrap()
}

async fn run(store: &wildt::store::Store, sql: &str) {
    let mut conn = store.pool().acquire().await.unwrap();
    sqlx::query(sql).execute(&mut *conn).await.unwrap();
}

/// After a backlog (most of the file free), stopping compacts the database
/// in one step; while most of the file is in use, it is left to the steps
/// of the idle outbox worker.
#[tokio::test]
async fn a_mostly_free_database_is_compacted_in_one_step_and_a_mostly_used_one_is_not() {
    let (_dir, store) = fresh_store().await;
    let fill = |table: &str, rows: i64| {
        format!(
            "INSERT INTO {table} SELECT zeroblob(4000) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {rows}) SELECT i FROM n)"
        )
    };
    run(&store, "CREATE TABLE filler (x BLOB)").await;
    run(&store, "CREATE TABLE spill (x BLOB)").await;
    // Mostly in use: 600 pages kept, 300 freed.
    run(&store, &fill("filler", 600)).await;
    run(&store, &fill("spill", 300)).await;
    run(&store, "DELETE FROM spill").await;
    let free = number(&store, "PRAGMA freelist_count").await;
    assert!(free > 256, "{free}");
    assert_eq!(store.compact_if_mostly_free(256).await.unwrap(), None);
    assert_eq!(
        number(&store, "PRAGMA freelist_count").await,
        free,
        "left alone"
    );
    // Mostly free: the kept rows go too.
    run(&store, "DELETE FROM filler WHERE rowid > 50").await;
    let pages = number(&store, "PRAGMA page_count").await;
    assert_eq!(store.compact_if_mostly_free(256).await.unwrap(), Some(0));
    let after = number(&store, "PRAGMA page_count").await;
    assert!(after * 5 < pages, "{after} pages after, {pages} before");
    assert_eq!(number(&store, "SELECT COUNT(*) FROM filler").await, 50);
}

/// Bodies are stored packed against a dictionary; one stored before
/// packing and one packed before dictionaries (an older database's waiting
/// mail) are sent as they were, a packed one as it was written, and a
/// damaged packed one, or one naming a dictionary this build does not have,
/// is left out without stopping the rest.
#[tokio::test]
async fn packed_and_older_bodies_are_sent_as_written_and_a_damaged_one_is_left_out() {
    let (_dir, store) = fresh_store().await;
    let leases = wildt::daemon::lease::Leases::new(store.clone());
    let mail = |n: usize| -> Vec<u8> {
        format!(
            "From: chess@club.example\r\nTo: p{n}@example.org\r\nSubject: {n}\r\n\r\n{}\r\n",
            "<td bgcolor=\"#f0d9b5\"></td>".repeat(200)
        )
        .into_bytes()
    };
    let mut damaged = wildt::store::outbox::pack(&mail(3));
    let cut = damaged.len() / 2;
    damaged.truncate(cut);
    let packed = wildt::store::outbox::pack(&mail(2));
    assert!(packed.len() * 5 < mail(2).len(), "{} packed", packed.len());
    let dict = wildt::store::outbox::BODY_DICT;
    let rows: [(i64, Vec<u8>, i64, Option<i64>); 5] = [
        (1, mail(1), 0, None),
        (2, packed, 1, Some(dict)),
        (3, damaged, 1, Some(dict)),
        (4, lz4_flex::block::compress_prepend_size(&mail(4)), 1, None),
        (5, wildt::store::outbox::pack(&mail(5)), 1, Some(dict + 1)),
    ];
    let mut conn = store.pool().acquire().await.unwrap();
    for (id, body, is_packed, dict) in rows {
        sqlx::query(
            "INSERT INTO outbox (id, message_id, sender, recipient, event, created_at, next_attempt_at)
             VALUES (?1, 'm' || ?1 || '@club.example', 'chess@club.example', 'p' || ?1 || '@example.org', 'move-accepted', 0, 0)",
        )
        .bind(id)
        .execute(&mut *conn)
        .await
        .unwrap();
        sqlx::query("INSERT INTO outbox_bodies (id, raw, packed, dict) VALUES (?, ?, ?, ?)")
            .bind(id)
            .bind(body)
            .bind(is_packed)
            .bind(dict)
            .execute(&mut *conn)
            .await
            .unwrap();
    }
    drop(conn);
    let claimed = leases.lease_due(10, 10, "test", 100).await.unwrap();
    let got: Vec<(i64, Vec<u8>)> = claimed.into_iter().map(|r| (r.id, r.raw)).collect();
    assert_eq!(got, [(1, mail(1)), (2, mail(2)), (4, mail(4))]);
}

/// While this process's intake holds its turn at the write lock (a group's
/// transaction), the outbox's claim and its marking of sent mail wait for
/// the turn, not in SQLite's busy wait: they run as soon as the turn is
/// given back, between two groups, instead of losing the lock to the next
/// group. (With the turn not taken they run at once, the lock being free.)
#[tokio::test]
async fn the_outbox_waits_for_the_intakes_turn_at_the_write_lock_and_then_writes() {
    let (_dir, store) = fresh_store().await;
    let leases = wildt::daemon::lease::Leases::new(store.clone());
    run(
        &store,
        "INSERT INTO outbox (id, message_id, sender, recipient, event, created_at, next_attempt_at)
         VALUES (1, 'm1@club.example', 'chess@club.example', 'anna@example.org', 'move-accepted', 0, 0)",
    )
    .await;
    run(
        &store,
        "INSERT INTO outbox (id, message_id, sender, recipient, event, created_at, next_attempt_at)
         VALUES (2, 'm2@club.example', 'chess@club.example', 'anna@example.org', 'move-accepted', 0, 0)",
    )
    .await;
    run(
        &store,
        "INSERT INTO outbox_bodies (id, raw) VALUES (1, 'x'), (2, 'y')",
    )
    .await;
    let turn = store.write_turn().await;
    let claim = tokio::spawn({
        let leases = leases.clone();
        async move { leases.lease_due(1, 10, "test", 1000).await }
    });
    let mark = tokio::spawn({
        let store = store.clone();
        async move { store.mark_sent_many(&[2]).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(!claim.is_finished(), "claimed during the intake's turn");
    assert!(!mark.is_finished(), "marked sent during the intake's turn");
    assert_eq!(
        number(
            &store,
            "SELECT COUNT(*) FROM outbox WHERE leased_by IS NOT NULL OR sent_at IS NOT NULL"
        )
        .await,
        0
    );
    drop(turn);
    let claimed = claim.await.unwrap().unwrap();
    assert!(claimed.iter().any(|r| r.id == 1), "{claimed:?}");
    mark.await.unwrap().unwrap();
    assert_eq!(
        number(
            &store,
            "SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL"
        )
        .await,
        1
    );
}

/// The sender marks the batch it sent and claims the next in one
/// transaction: while the intake holds its turn at the write lock neither
/// is done, and once the turn is given back both are, together: the
/// batch's rows sent and their bodies dropped, the next rows claimed, and
/// no row of the batch claimed again.
#[tokio::test]
async fn a_sent_batch_is_marked_and_the_next_claimed_together_after_one_turn_at_the_write_lock() {
    let (_dir, store) = fresh_store().await;
    let leases = wildt::daemon::lease::Leases::new(store.clone());
    for i in 1..=6i64 {
        queue_due(&store, i, &format!("p{i}@example.org")).await;
    }
    let batch: Vec<i64> = leases
        .lease_due(1, 2, "w", 1000)
        .await
        .unwrap()
        .iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(batch.len(), 2, "{batch:?}");
    let turn = store.write_turn().await;
    let next = tokio::spawn({
        let leases = leases.clone();
        let batch = batch.clone();
        async move { leases.mark_sent_and_lease(&batch, 2, 4, "w", 1000).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(
        !next.is_finished(),
        "marked or claimed during the intake's turn"
    );
    assert_eq!(
        number(
            &store,
            "SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL"
        )
        .await,
        0
    );
    drop(turn);
    let next: Vec<i64> = next.await.unwrap().unwrap().iter().map(|r| r.id).collect();
    assert_eq!(next.len(), 4, "{next:?}");
    assert!(
        next.iter().all(|id| !batch.contains(id)),
        "{batch:?} then {next:?}"
    );
    let sent = format!(
        "SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL AND leased_by IS NULL AND id IN ({}, {})",
        batch[0], batch[1]
    );
    assert_eq!(number(&store, &sent).await, 2);
    assert_eq!(
        number(
            &store,
            "SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL"
        )
        .await,
        2
    );
    assert_eq!(
        number(&store, "SELECT COUNT(*) FROM outbox_bodies").await,
        4,
        "the sent bodies dropped"
    );
    assert_eq!(
        number(
            &store,
            "SELECT COUNT(*) FROM outbox WHERE leased_by = 'w' AND sent_at IS NULL"
        )
        .await,
        4
    );
    // Nothing left to claim: the batch marked, an empty claim.
    let rest = leases
        .mark_sent_and_lease(&next, 3, 4, "w", 1000)
        .await
        .unwrap();
    assert!(rest.is_empty(), "{rest:?}");
    assert_eq!(
        number(
            &store,
            "SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL"
        )
        .await,
        6
    );
}

/// A burst of replies to four players (ids 1 to 41), among them, as id 30,
/// one to a player outside the burst: the first claim of ten takes it,
/// although eleven of the burst's were queued after it; and each player's
/// mail is claimed in the order it was queued.
#[tokio::test]
async fn a_claim_takes_a_fresh_players_mail_before_a_bursts_and_each_players_mail_in_order() {
    claims_take_the_fresh_players_mail_first(|i| format!("p{}@example.org", i % 4)).await;
}

/// The same burst, its four players writing from a sub-address per game
/// (every reply first in its address's queue): the first claim still takes
/// the fresh player's reply, which "newest first" alone left behind the
/// eleven queued after it; each address's mail goes in order. A player
/// writing from sub-addresses is one player.
#[tokio::test]
async fn a_claim_takes_a_fresh_players_mail_before_a_bursts_written_from_sub_addresses() {
    claims_take_the_fresh_players_mail_first(|i| format!("p{}+g{i}@example.org", i % 4)).await;
}

/// Queues mails 1 to 41 to `burst(i)`, but 30 to `probe@example.org`;
/// claims ten at a time until none is left, marking each claim sent.
/// Asserts that the first claim holds mail 30, that each address's mail
/// was claimed in the order it was queued, and that all 41 were.
async fn claims_take_the_fresh_players_mail_first(burst: impl Fn(i64) -> String) {
    let (_dir, store) = fresh_store().await;
    let leases = wildt::daemon::lease::Leases::new(store.clone());
    for i in 1..=41i64 {
        let to = if i == 30 {
            "probe@example.org".to_owned()
        } else {
            burst(i)
        };
        queue_due(&store, i, &to).await;
    }
    let mut order: std::collections::HashMap<String, Vec<i64>> = Default::default();
    let mut rounds = 0;
    loop {
        let rows = leases.lease_due(1, 10, "test", 1000).await.unwrap();
        if rows.is_empty() {
            break;
        }
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        if rounds == 0 {
            assert!(ids.contains(&30), "the fresh player's mail waits: {ids:?}");
        }
        for r in &rows {
            order.entry(r.recipient.clone()).or_default().push(r.id);
        }
        store.mark_sent_many(&ids).await.unwrap();
        rounds += 1;
    }
    for (to, ids) in &order {
        assert!(ids.is_sorted(), "{to}'s mail out of order: {ids:?}");
    }
    let sent: usize = order.values().map(Vec::len).sum();
    assert_eq!(sent, 41);
}

/// A paced sender claims a quarter of a second's worth of mail and waits;
/// meanwhile a burst is decided faster than that: after a backlog, a
/// fresh player's reply, then 600 of the burst's to busy players, are
/// queued between two claims. The next claim still takes the fresh reply:
/// it weighs every row queued since the claim before (a window of the
/// newest 512 left it to the oldest half, behind the whole burst).
#[tokio::test]
async fn a_fresh_players_reply_queued_between_two_claims_is_in_the_next_however_many_follow_it() {
    let (_dir, store) = fresh_store().await;
    let leases = wildt::daemon::lease::Leases::new(store.clone());
    // A backlog older than the fresh reply, more than the next claim's
    // oldest half takes.
    for i in 1..=100i64 {
        queue_due(&store, i, &format!("busy+g{i}@example.org")).await;
    }
    let first = leases.lease_due(1, 4, "w", 1000).await.unwrap();
    assert_eq!(first.len(), 4);
    queue_due(&store, 101, "fresh@example.org").await;
    for i in 102..=701i64 {
        queue_due(&store, i, &format!("p{}+g{i}@example.org", i % 38)).await;
    }
    let next: Vec<i64> = leases
        .lease_due(2, 36, "w", 1000)
        .await
        .unwrap()
        .iter()
        .map(|r| r.id)
        .collect();
    assert!(
        next.contains(&101),
        "the fresh player's reply waits: {next:?}"
    );
}

/// While a process sends one claimed batch it claims the next: that claim
/// takes other rows, never the ones of its own batch in flight (their lease
/// has not run out), so no mail is sent twice by the overlap. Given back,
/// or once their lease is over, the rows are claimed again.
#[tokio::test]
async fn a_claim_leaves_the_rows_its_own_process_is_sending_until_given_back() {
    let (_dir, store) = fresh_store().await;
    let leases = wildt::daemon::lease::Leases::new(store.clone());
    for i in 1..=12i64 {
        queue_due(&store, i, &format!("p{i}@example.org")).await;
    }
    let ids =
        |rows: Vec<wildt::store::OutboxRow>| rows.into_iter().map(|r| r.id).collect::<Vec<_>>();
    let sending = ids(leases.lease_due(1, 8, "w", 1000).await.unwrap());
    let next = ids(leases.lease_due(2, 8, "w", 1000).await.unwrap());
    assert_eq!(sending.len(), 8);
    assert_eq!(next.len(), 4, "{next:?}");
    assert!(
        next.iter().all(|id| !sending.contains(id)),
        "{sending:?} {next:?}"
    );
    assert!(leases.lease_due(3, 8, "w", 1000).await.unwrap().is_empty());
    // Given back (after a database error the worker cannot tell what went
    // out): all of them are claimed again.
    store.release_leases("w").await.unwrap();
    assert_eq!(
        ids(leases.lease_due(4, 20, "w", 1000).await.unwrap()).len(),
        12
    );
    // A lease run out (a process killed mid-send) frees them too.
    assert_eq!(
        ids(leases.lease_due(1000, 20, "x", 2000).await.unwrap()).len(),
        12
    );
}

/// Two mails queued to one address stay in order when the address's
/// player has few mails waiting and others many: the second is not
/// claimed before the first is sent, however the claim weighs players.
#[tokio::test]
async fn a_claim_weighing_players_keeps_one_addresss_mail_in_order() {
    let (_dir, store) = fresh_store().await;
    let leases = wildt::daemon::lease::Leases::new(store.clone());
    // ids 1..=20 to a busy player's sub-addresses; 21 and 22 to one address.
    for i in 1..=20i64 {
        queue_due(&store, i, &format!("busy+g{i}@example.org")).await;
    }
    queue_due(&store, 21, "lone@example.org").await;
    queue_due(&store, 22, "lone@example.org").await;
    let first = leases.lease_due(1, 4, "test", 1000).await.unwrap();
    let ids: Vec<i64> = first.iter().map(|r| r.id).collect();
    assert!(ids.contains(&21), "{ids:?}");
    assert!(!ids.contains(&22), "{ids:?}");
}

/// Queues mail `id` to `recipient`, due since time 0, with the body `x`.
async fn queue_due(store: &wildt::store::Store, id: i64, recipient: &str) {
    sqlx::query(
        "INSERT INTO outbox (id, message_id, sender, recipient, event, created_at, next_attempt_at)
         VALUES (?, ?, 'chess@club.example', ?, 'move-accepted', 0, 0)",
    )
    .bind(id)
    .bind(format!("m{id}@club.example"))
    .bind(recipient)
    .execute(store.pool())
    .await
    .unwrap();
    sqlx::query("INSERT INTO outbox_bodies (id, raw) VALUES (?, 'x')")
        .bind(id)
        .execute(store.pool())
        .await
        .unwrap();
}
