//! The `wildt` binary as an organiser runs it: a configuration in a fresh
//! folder, a command run to completion, its JSON output. [IO: processes,
//! temp files]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// Whether the tests' stores are PostgreSQL databases (each a fresh one in
/// the test PostgreSQL, `support::pg`) rather than SQLite files:
/// `WILDT_TEST_BACKEND=postgres`, as the test command's second pass sets.
pub fn on_postgres() -> bool {
    std::env::var("WILDT_TEST_BACKEND").is_ok_and(|b| b == "postgres")
}

/// The `[database]` table of a test's configuration: an SQLite file in
/// `dir`, or on PostgreSQL ([`on_postgres`]) a fresh database with the
/// rig's password file.
pub fn database_table(dir: &Path) -> String {
    if on_postgres() {
        format!(
            "[database]\nurl = \"{}\"\npassword_file = \"{}\"\n",
            super::pg::fresh_database("club"),
            super::pg::password_file().display()
        )
    } else {
        format!(
            "[database]\nurl = \"sqlite://{}\"\n",
            dir.join("wildt.db").display()
        )
    }
}

/// A configuration in a fresh folder, with everything under it.
pub fn temp_config(dir: &Path) -> PathBuf {
    let text = wildt::config::LOCAL_TOML
        .replace(
            "[database]\nurl = \"sqlite://var/wildt.db\"\n",
            &database_table(dir),
        )
        .replace("var/mail", &dir.join("mail").display().to_string())
        .replace("var/outbox", &dir.join("outbox").display().to_string());
    let path = dir.join("wildt.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// `wildt ARGS --config CONFIG`, waited for.
pub fn wildt(config: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(args)
        .arg("--config")
        .arg(config)
        .output()
        .unwrap()
}

/// The JSON a successful command printed (panics with its stderr otherwise).
pub fn json_of(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The store the configuration at `config` names, opened as the binary opens
/// it (its `[database]` URL and password file): an SQLite file or a
/// PostgreSQL database, for tests that look at or change tables on either
/// backend. Its pool is `store.pool()` (sqlx's Any driver: bind `$1, $2…`).
pub async fn store_of(config: &Path) -> wildt::store::Store {
    let cfg = wildt::config::Config::load(config)
        .unwrap_or_else(|e| panic!("reading the test configuration {config:?}: {e}"));
    wildt::store::Store::for_config(&cfg)
        .await
        .unwrap_or_else(|e| panic!("opening the store of {config:?}: {e}"))
}
