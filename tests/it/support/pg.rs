//! The test PostgreSQL (scripts/pg-rig/start.sh): where it is, its password,
//! and a fresh database for each test. [IO: environment, files, network]
//!
//! The rig is thrown away after a run, so databases are left behind; their
//! names are short and unique (the tag, the process id and a counter).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{ConnectOptions, Connection};

/// An environment variable the rig's env file sets, or a panic saying how to
/// get it.
fn rig_var(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| {
        panic!(
            "{name} is not set: start the test PostgreSQL with scripts/pg-rig/start.sh \
             (as root) and source the env file it prints before cargo test"
        )
    })
}

/// The rig's own database URL (postgres://wildt@127.0.0.1:PORT/wildt).
pub fn url() -> String {
    rig_var("WILDT_PG_URL")
}

/// The file holding the role's password (first line), as an operator's
/// `--password-file` would.
pub fn password_file() -> PathBuf {
    PathBuf::from(rig_var("WILDT_PG_PASSWORD_FILE"))
}

/// The role's password: the password file's first line, trimmed.
pub fn password() -> String {
    let path = password_file();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading the PostgreSQL password file {path:?}: {e}"));
    text.lines().next().unwrap_or("").trim().to_owned()
}

/// Options to connect to `url` (a URL without password) with the rig's
/// password.
pub fn connect_options(url: &str) -> PgConnectOptions {
    url.parse::<PgConnectOptions>()
        .unwrap_or_else(|e| panic!("not a PostgreSQL URL {url:?}: {e}"))
        .password(&password())
}

/// A small pool on `url`, logged in with the rig's password.
pub async fn pool(url: &str) -> PgPool {
    PgPoolOptions::new()
        .max_connections(4)
        .connect_with(connect_options(url))
        .await
        .unwrap_or_else(|e| panic!("connecting to {url}: {e}"))
}

/// A database name from `tag`: lower-case letters, digits and `_` only, then
/// the process id and a counter, at most 63 bytes (PostgreSQL's limit).
fn database_name(tag: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let clean: String = tag
        .chars()
        .map(|c| c.to_ascii_lowercase())
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(40)
        .collect();
    format!(
        "t_{clean}_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A new, empty database owned by `wildt`, named after `tag`; returns its URL
/// (postgres://wildt@127.0.0.1:PORT/NAME, without the password: connect with
/// [`connect_options`] or [`pool`], or give the binary [`password_file`]).
///
/// Blocking; callable from a test with or without a tokio runtime (the work
/// runs on a thread of its own).
pub fn fresh_database(tag: &str) -> String {
    let name = database_name(tag);
    let admin = url();
    let options = connect_options(&admin);
    let created = name.clone();
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(async move {
                let mut conn = options
                    .connect()
                    .await
                    .unwrap_or_else(|e| panic!("connecting to the test PostgreSQL: {e}"));
                // A process id is reused across runs: a database of that name
                // left by an earlier run goes first.
                // One statement each: neither runs inside a transaction block,
                // and several in one query string make one.
                for sql in [
                    format!("DROP DATABASE IF EXISTS {created} WITH (FORCE)"),
                    format!("CREATE DATABASE {created} OWNER wildt"),
                ] {
                    sqlx::raw_sql(&sql)
                        .execute(&mut conn)
                        .await
                        .unwrap_or_else(|e| panic!("{sql}: {e}"));
                }
                conn.close().await.unwrap();
            })
    })
    .join()
    .expect("creating a test database");
    let base = admin
        .rsplit_once('/')
        .map(|(base, _)| base)
        .unwrap_or_else(|| panic!("WILDT_PG_URL {admin:?} names no database"));
    format!("{base}/{name}")
}
