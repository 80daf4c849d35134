//! `wildt migrate sqlite-to-postgres` through the real binary: a club's
//! database built by the binary itself (games, an event, moves mailed
//! through the Maildir, rulings, a leave, players' settings) copied into a
//! fresh database of the test PostgreSQL, and compared row by row; a target
//! that already holds data, a missing, older or foreign SQLite file and a
//! wrong password refused. [IO: processes, temp files, the test PostgreSQL]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

use sqlx::postgres::PgConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection, Row};
use wildt::clock::Date;

use crate::support::cli::json_of;
use crate::support::club::{Club, mail};
use crate::support::pg;

/// The instant the club is made at: every command runs at a set time, so
/// the clocks, the leave and the rulings are the same on any day.
fn t0() -> i64 {
    Date::from_ymd(2026, 12, 1).unwrap().start()
}

fn rfc3339(t: i64) -> String {
    let secs = t.rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        Date::of_instant(t),
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

/// `wildt ARGS --config CFG` at `now`, which must succeed.
fn run_at(club: &Club, now: i64, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(args)
        .arg("--config")
        .arg(&club.cfg)
        .env("WILDT_NOW", rfc3339(now))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "wildt {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A mail delivered into the club's Maildir as if it arrived at `at`.
fn deliver_at(club: &Club, name: &str, raw: &str, at: i64) {
    club.deliver(name, raw);
    let when = SystemTime::UNIX_EPOCH + Duration::from_secs(u64::try_from(at).unwrap());
    std::fs::File::options()
        .write(true)
        .open(club.dir.path().join("mail/new").join(name))
        .unwrap()
        .set_modified(when)
        .unwrap();
}

/// `wildt migrate sqlite-to-postgres ARGS`.
fn migrate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(["migrate", "sqlite-to-postgres"])
        .args(args)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A club with some of everything, made by the binary: two games (one on a
/// clock, with a ruling and a leave), an event of three, players' language
/// and Xfcc password, moves, an illegal move and a stranger's mail handled
/// from the Maildir by `serve --once`, and a last game's opening mails
/// waiting to be sent.
fn busy_club() -> Club {
    let club = Club::new();
    let t = t0();
    let game = |extra: &[&str]| {
        let mut args = vec![
            "game",
            "new",
            "--no-mail",
            "--white",
            "anna@example.org",
            "--black",
            "ben@example.net",
            "--json",
        ];
        args.extend_from_slice(extra);
        let v = json_of(&run_at(&club, t, &args));
        (
            v["id"].as_i64().unwrap().to_string(),
            v["white"]["address"].as_str().unwrap().to_owned(),
            v["black"]["address"].as_str().unwrap().to_owned(),
        )
    };
    let (timed, timed_white, timed_black) = game(&["--time", "30+3"]);
    let (_, plain_white, plain_black) = game(&[]);
    run_at(
        &club,
        t,
        &[
            "event",
            "new",
            "Spring",
            "--players",
            "p1@club.example,p2@club.example,p3@club.example",
            "--json",
        ],
    );
    run_at(
        &club,
        t,
        &["player", "set", "anna@example.org", "--lang", "de"],
    );
    let xfcc = club.dir.path().join("xfcc-password");
    std::fs::write(&xfcc, "a long enough secret\n").unwrap();
    run_at(
        &club,
        t,
        &[
            "player",
            "set",
            "ben@example.net",
            "--xfcc-password-file",
            path_str(&xfcc),
        ],
    );
    run_at(
        &club,
        t,
        &["game", "clock", &timed, "--as", "white", "--add-days", "2"],
    );
    run_at(
        &club,
        t,
        &[
            "game",
            "leave",
            &timed,
            "--as",
            "black",
            "--from",
            "2026-12-03",
            "--to",
            "2026-12-05",
        ],
    );
    let rounds: [&[(&str, &str, &str)]; 3] = [
        &[
            ("anna@example.org", &timed_white, "1. 5254"),
            ("anna@example.org", &plain_white, "1. 5254"),
            ("eve@elsewhere.example", &timed_white, "1. 5254"),
        ],
        &[
            ("ben@example.net", &timed_black, "1... 5755"),
            ("ben@example.net", &plain_black, "1... 1111"),
        ],
        &[("anna@example.org", &timed_white, "2. 7163")],
    ];
    let mut n = 0;
    for (round, mails) in rounds.iter().enumerate() {
        let at = t + 3600 * (round as i64 + 1);
        for (from, to, body) in mails.iter() {
            n += 1;
            let raw = mail(from, to, &format!("m{n}@example.org"), body);
            deliver_at(&club, &format!("{n}.eml"), &raw, at);
        }
        run_at(&club, at + 60, &["serve", "--once"]);
    }
    // A game whose opening mails wait in the outbox: bodies (BYTEA) to copy.
    run_at(
        &club,
        t + 4 * 3600,
        &[
            "game",
            "new",
            "--white",
            "carl@example.org",
            "--black",
            "dora@example.net",
        ],
    );
    club
}

/// wildt's tables in a SQLite file, and their PostgreSQL column types
/// (bigint, text, bytea) from the target.
async fn columns(pg: &mut PgConnection) -> BTreeMap<String, Vec<(String, String)>> {
    let rows: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text, data_type::text
         FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name <> '_sqlx_migrations'
         ORDER BY table_name, ordinal_position",
    )
    .fetch_all(pg)
    .await
    .unwrap();
    let mut out: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for (t, c, ty) in rows {
        out.entry(t).or_default().push((c, ty));
    }
    out
}

/// A table's rows, each value written out with its type, sorted: what two
/// databases holding the same rows give alike.
fn rows_of<DB: sqlx::Database>(rows: &[DB::Row], columns: &[(String, String)]) -> Vec<Vec<String>>
where
    for<'r> Option<i64>: sqlx::Decode<'r, DB> + sqlx::Type<DB>,
    for<'r> Option<String>: sqlx::Decode<'r, DB> + sqlx::Type<DB>,
    for<'r> Option<Vec<u8>>: sqlx::Decode<'r, DB> + sqlx::Type<DB>,
    usize: sqlx::ColumnIndex<DB::Row>,
{
    let mut out: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            columns
                .iter()
                .enumerate()
                .map(|(i, (_, ty))| match ty.as_str() {
                    "bigint" => format!("{:?}", row.get::<Option<i64>, _>(i)),
                    "text" => format!("{:?}", row.get::<Option<String>, _>(i)),
                    "bytea" => format!("{:?}", row.get::<Option<Vec<u8>>, _>(i)),
                    other => panic!("a column of type {other}"),
                })
                .collect()
        })
        .collect();
    out.sort();
    out
}

fn select(table: &str, columns: &[(String, String)]) -> String {
    let names: Vec<String> = columns.iter().map(|(c, _)| format!("\"{c}\"")).collect();
    format!("SELECT {} FROM \"{table}\"", names.join(", "))
}

async fn open_sqlite(path: &Path) -> SqliteConnection {
    SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .connect()
        .await
        .unwrap()
}

/// The printed table of counts: table → (sqlite, postgres).
fn counts_printed(stdout: &str) -> BTreeMap<String, (i64, i64)> {
    let mut lines = stdout.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
    assert_eq!(header, ["table", "sqlite", "postgres"], "{stdout}");
    lines
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == 3)
        .map(|w| {
            (
                w[0].to_owned(),
                (w[1].parse().unwrap(), w[2].parse().unwrap()),
            )
        })
        .collect()
}

/// A club's database, built by the binary, is copied whole: every table
/// printed with the same count on both sides (the counts the SQLite file
/// holds), every row of every table equal, and the identity sequences past
/// the copied ids so the next row PostgreSQL numbers does not collide.
#[tokio::test]
async fn a_club_database_is_copied_whole_with_every_table_counted_on_both_sides() {
    let club = busy_club();
    let db = club.dir.path().join("wildt.db");
    let url = pg::fresh_database("migrate_copy");
    let out = migrate(&[
        "--from",
        path_str(&db),
        "--to",
        &url,
        "--password-file",
        path_str(&pg::password_file()),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let printed = counts_printed(&stdout);

    let mut lite = open_sqlite(&db).await;
    let mut target = pg::connect_options(&url).connect().await.unwrap();
    let columns = columns(&mut target).await;
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table'
         AND name NOT LIKE 'sqlite%' AND name <> '_sqlx_migrations' ORDER BY name",
    )
    .fetch_all(&mut lite)
    .await
    .unwrap();
    assert_eq!(
        printed.keys().collect::<Vec<_>>(),
        tables.iter().collect::<Vec<_>>(),
        "{stdout}"
    );
    let mut total = 0;
    for table in &tables {
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM \"{table}\""))
            .fetch_one(&mut lite)
            .await
            .unwrap();
        assert_eq!(printed[table], (n, n), "{table}: {stdout}");
        total += n;
        let cols = &columns[table];
        let sql = select(table, cols);
        let from: Vec<_> = sqlx::query(&sql).fetch_all(&mut lite).await.unwrap();
        let to: Vec<_> = sqlx::query(&sql).fetch_all(&mut target).await.unwrap();
        assert_eq!(
            rows_of::<sqlx::Sqlite>(&from, cols),
            rows_of::<sqlx::Postgres>(&to, cols),
            "table {table}"
        );
    }
    assert!(
        stdout.contains(&format!(
            "copied {total} rows from {} into {url}",
            db.display()
        )),
        "{stdout}"
    );
    // The club holds what it was made with (a copy of empty tables would
    // prove nothing).
    let expected: [(&str, i64); 9] = [
        ("games", 6),
        ("outbox_bodies", 2),
        ("events", 1),
        ("event_players", 3),
        ("event_games", 3),
        ("moves", 4),
        ("clock_rulings", 1),
        ("leaves", 1),
        ("xfcc_accounts", 1),
    ];
    for (table, n) in expected {
        assert_eq!(printed[table].0, n, "{table}: {stdout}");
    }
    assert!(printed["messages"].0 >= 6, "{stdout}");
    assert!(printed["outbox"].0 >= 4, "{stdout}");

    // The next id PostgreSQL gives follows the copied ones.
    for table in ["games", "messages", "outbox", "events", "clock_rulings"] {
        let max: i64 = sqlx::query_scalar(&format!("SELECT MAX(id) FROM {table}"))
            .fetch_one(&mut target)
            .await
            .unwrap();
        let next: i64 = sqlx::query_scalar("SELECT nextval(pg_get_serial_sequence($1, 'id'))")
            .bind(table)
            .fetch_one(&mut target)
            .await
            .unwrap();
        assert_eq!(next, max + 1, "{table}");
    }
    // The target's own migrator recorded the schema's version.
    let version: i64 = sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(&mut target)
        .await
        .unwrap();
    assert_eq!(version, wildt::ops::migrate::latest_sqlite_version());
    target.close().await.unwrap();
    lite.close().await.unwrap();
}

/// A second copy into a database that already holds a club is refused,
/// naming the tables that hold rows, and leaves the rows as they were.
#[tokio::test]
async fn a_copy_into_a_database_that_holds_wildt_rows_is_refused_and_changes_nothing() {
    let club = Club::new();
    club.new_game();
    let db = club.dir.path().join("wildt.db");
    let url = pg::fresh_database("migrate_twice");
    let password = pg::password_file();
    let args = [
        "--from",
        path_str(&db),
        "--to",
        &url,
        "--password-file",
        path_str(&password),
    ];
    let first = migrate(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    let second = migrate(&args);
    assert_eq!(second.status.code(), Some(1), "{}", stderr(&second));
    let said = stderr(&second);
    assert!(
        said.contains(&format!(
            "the PostgreSQL database {url} already holds wildt's data ("
        )),
        "{said}"
    );
    assert!(said.contains("games: 1 rows"), "{said}");
    assert!(said.contains("nothing was copied"), "{said}");
    assert!(second.stdout.is_empty());
    let mut target = pg::connect_options(&url).connect().await.unwrap();
    let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
        .fetch_one(&mut target)
        .await
        .unwrap();
    assert_eq!(games, 1);
    target.close().await.unwrap();
}

/// A SQLite file migrated up to the migration before the last, as an older
/// wildt left it.
async fn older_sqlite(path: &Path) {
    let mut conn = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .connect()
        .await
        .unwrap();
    let latest = wildt::ops::migrate::latest_sqlite_version();
    let mut older = sqlx::migrate!("./migrations/sqlite");
    older.migrations = older
        .migrations
        .iter()
        .filter(|m| m.version < latest)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    older.run(&mut conn).await.unwrap();
    conn.close().await.unwrap();
}

/// A missing file, a file an older wildt left and a SQLite file that is not
/// wildt's are each refused with what to do, before PostgreSQL is touched
/// (the target still has no table at all).
#[tokio::test]
async fn a_missing_older_or_foreign_sqlite_file_is_refused_before_postgres_is_touched() {
    let dir = tempfile::tempdir().unwrap();
    let url = pg::fresh_database("migrate_refused");
    let password = pg::password_file();
    let attempt = |from: &PathBuf| {
        migrate(&[
            "--from",
            path_str(from),
            "--to",
            &url,
            "--password-file",
            path_str(&password),
        ])
    };

    let missing = dir.path().join("nothing.db");
    let out = attempt(&missing);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!("no SQLite database at {}", missing.display())),
        "{}",
        stderr(&out)
    );
    assert!(!missing.exists());

    let old = dir.path().join("old.db");
    older_sqlite(&old).await;
    let latest = wildt::ops::migrate::latest_sqlite_version();
    let out = attempt(&old);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!(
            "{} is at migration {}, and this wildt's last is {latest}: open it once with this wildt",
            old.display(),
            latest - 1
        )),
        "{}",
        stderr(&out)
    );

    let foreign = dir.path().join("foreign.db");
    let mut conn = SqliteConnectOptions::new()
        .filename(&foreign)
        .create_if_missing(true)
        .connect()
        .await
        .unwrap();
    sqlx::query("CREATE TABLE notes (body TEXT)")
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    let out = attempt(&foreign);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!(
            "{} is not a wildt database: it has no _sqlx_migrations table",
            foreign.display()
        )),
        "{}",
        stderr(&out)
    );

    let mut target = pg::connect_options(&url).connect().await.unwrap();
    let tables: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()",
    )
    .fetch_one(&mut target)
    .await
    .unwrap();
    assert_eq!(tables, 0);
    target.close().await.unwrap();
}

/// A wrong password is refused with PostgreSQL's reason and the address
/// tried; a password written into the URL is refused before any connection
/// (it would show in the process list); a password file that cannot be read
/// is named.
#[tokio::test]
async fn a_wrong_password_or_one_in_the_url_is_refused_with_a_clear_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("wildt.db");
    let mut conn = SqliteConnectOptions::new()
        .filename(&db)
        .create_if_missing(true)
        .connect()
        .await
        .unwrap();
    sqlx::migrate!("./migrations/sqlite")
        .run(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    let url = pg::fresh_database("migrate_password");

    let wrong = dir.path().join("wrong-password");
    std::fs::write(&wrong, "not-the-password\n").unwrap();
    let out = migrate(&[
        "--from",
        path_str(&db),
        "--to",
        &url,
        "--password-file",
        path_str(&wrong),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let said = stderr(&out);
    assert!(
        said.contains(&format!("cannot connect to PostgreSQL at {url}: ")),
        "{said}"
    );
    assert!(said.contains("password authentication failed"), "{said}");
    assert!(!said.contains("not-the-password"), "{said}");

    let with_password = url.replacen("postgres://wildt@", "postgres://wildt:secret@", 1);
    assert_ne!(with_password, url);
    let out = migrate(&["--from", path_str(&db), "--to", &with_password]);
    assert_eq!(out.status.code(), Some(1));
    let said = stderr(&out);
    assert!(
        said.contains("the PostgreSQL URL holds a password: give the password in a file"),
        "{said}"
    );
    assert!(!said.contains("secret"), "{said}");

    let absent = dir.path().join("no-such-file");
    let out = migrate(&[
        "--from",
        path_str(&db),
        "--to",
        &url,
        "--password-file",
        path_str(&absent),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!("reading the password file {}", absent.display())),
        "{}",
        stderr(&out)
    );
}

/// `wildt serve` on a club, stopped (SIGTERM) when dropped.
struct Daemon(std::process::Child);

impl Daemon {
    fn start(cfg: &Path) -> Daemon {
        Daemon(
            Command::new(env!("CARGO_BIN_EXE_wildt"))
                .args(["serve", "--config"])
                .arg(cfg)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap(),
        )
    }

    fn stop(&mut self) {
        let killed = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = self.0.wait().unwrap();
        assert!(status.success(), "serve ended with {status}");
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            self.0.kill().ok();
            self.0.wait().ok();
        }
    }
}

/// A club copied while its daemon answers moves arriving in its Maildir:
/// the copy is one instant of the database, so what the daemon writes in
/// one transaction (a move, its message, its two mails, the game's record)
/// is in the copy whole or not at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_club_is_copied_while_its_daemon_answers_moves_as_one_instant() {
    const GAMES: usize = 12;
    let club = Club::new();
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(club.dir.path().join("mail").join(sub)).unwrap();
    }
    let whites: Vec<String> = (0..GAMES).map(|_| club.new_game().white).collect();
    let db = club.dir.path().join("wildt.db");
    let url = pg::fresh_database("migrate_live");
    let mut daemon = Daemon::start(&club.cfg);
    let maildir = club.dir.path().join("mail");
    let delivering = std::thread::spawn(move || {
        for (i, white) in whites.iter().enumerate() {
            let raw = mail(
                "anna@example.org",
                white,
                &format!("live{i}@example.org"),
                "5254",
            );
            // Written in tmp/ and renamed into new/, as a delivery agent does.
            let tmp = maildir.join("tmp").join(format!("{i}.eml"));
            std::fs::write(&tmp, raw).unwrap();
            std::fs::rename(&tmp, maildir.join("new").join(format!("{i}.eml"))).unwrap();
            std::thread::sleep(Duration::from_millis(40));
        }
    });
    // Copies once the first move is in, while the others arrive.
    let started = std::time::Instant::now();
    while club.maildir_count("cur") == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the daemon never took a mail"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = migrate(&[
        "--from",
        path_str(&db),
        "--to",
        &url,
        "--password-file",
        path_str(&pg::password_file()),
    ]);
    delivering.join().unwrap();
    while club.maildir_count("cur") < GAMES {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the daemon did not take every mail"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    daemon.stop();
    assert!(out.status.success(), "{}", stderr(&out));

    let mut target = pg::connect_options(&url).connect().await.unwrap();
    let count = |sql: &'static str| sqlx::query_scalar::<_, i64>(sql);
    let moves = count("SELECT COUNT(*) FROM moves")
        .fetch_one(&mut target)
        .await
        .unwrap();
    let moved = count("SELECT COUNT(*) FROM messages WHERE outcome = 'moved'")
        .fetch_one(&mut target)
        .await
        .unwrap();
    let answers =
        count("SELECT COUNT(*) FROM outbox WHERE event IN ('move-accepted', 'opponent-moved')")
            .fetch_one(&mut target)
            .await
            .unwrap();
    let recorded = count("SELECT COUNT(*) FROM records WHERE plies <> ''")
        .fetch_one(&mut target)
        .await
        .unwrap();
    assert!(moves >= 1 && moves <= GAMES as i64, "{moves} moves");
    assert_eq!((moved, answers, recorded), (moves, 2 * moves, moves));
    // The database itself went on to take every move.
    let mut lite = open_sqlite(&db).await;
    let all: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves")
        .fetch_one(&mut lite)
        .await
        .unwrap();
    assert_eq!(all, GAMES as i64);
    lite.close().await.unwrap();
    target.close().await.unwrap();
}

/// When a table's count on PostgreSQL is not SQLite's (here a trigger on
/// the target drops every player row it is given), the copy is rolled
/// back: the counts are printed with the table that differs marked, the
/// command fails saying so, and the target holds no row at all.
#[tokio::test]
async fn a_copy_whose_counts_differ_is_rolled_back_whole() {
    let club = Club::new();
    club.new_game_with(&["--white-lang", "de"]);
    let db = club.dir.path().join("wildt.db");
    let url = pg::fresh_database("migrate_differ");
    let mut target = pg::connect_options(&url).connect().await.unwrap();
    sqlx::migrate!("./migrations/postgres")
        .run(&mut target)
        .await
        .unwrap();
    sqlx::raw_sql(
        "CREATE FUNCTION drop_row() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NULL; END';
         CREATE TRIGGER players_vanish BEFORE INSERT ON players
             FOR EACH ROW EXECUTE FUNCTION drop_row();",
    )
    .execute(&mut target)
    .await
    .unwrap();
    let out = migrate(&[
        "--from",
        path_str(&db),
        "--to",
        &url,
        "--password-file",
        path_str(&pg::password_file()),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let players = stdout
        .lines()
        .find(|l| l.starts_with("players "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert_eq!(
        players.split_whitespace().collect::<Vec<_>>(),
        ["players", "1", "0", "DIFFERS"],
        "{stdout}"
    );
    let printed = counts_printed(&stdout);
    assert_eq!(printed["games"], (1, 1), "{stdout}");
    assert!(
        stderr(&out).contains(&format!(
            "the counts differ (players): the copy was rolled back, {url} is as it was"
        )),
        "{}",
        stderr(&out)
    );
    for table in ["games", "players", "outbox", "records"] {
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(&mut target)
            .await
            .unwrap();
        assert_eq!(n, 0, "{table}");
    }
    target.close().await.unwrap();
}
