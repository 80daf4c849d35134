//! The operator's tools: check a configuration (and the servers it names),
//! write a starting configuration, tell the health of a deployment, back up
//! its database, copy it into PostgreSQL. [IO, except `init`, `locate` and
//! `explain`, which are pure]
//!
//! The CLI front end is `src/cli_ops.rs`; these functions return values and
//! typed errors, and print nothing.

pub mod backup;
pub mod check;
pub mod explain;
pub mod init;
pub mod locate;
pub mod lock;
pub mod migrate;
pub mod probe;
pub mod status;

use std::path::PathBuf;

/// The file an SQLite URL names (`sqlite://var/wildt.db` -> `var/wildt.db`),
/// as sqlx reads it; `None` for an in-memory database, a URL sqlx refuses,
/// or one that is not SQLite's (a PostgreSQL store is no file).
pub fn database_path(url: &str) -> Option<PathBuf> {
    use std::str::FromStr as _;
    if crate::store::Backend::of(url) != Some(crate::store::Backend::Sqlite) {
        return None;
    }
    if url.contains(":memory:") || url.contains("mode=memory") {
        return None;
    }
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(url).ok()?;
    let path = options.get_filename();
    (!path.as_os_str().is_empty()).then(|| path.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_path_reads_relative_and_absolute_urls() {
        assert_eq!(
            database_path("sqlite://var/wildt.db"),
            Some(PathBuf::from("var/wildt.db"))
        );
        assert_eq!(
            database_path("sqlite:///var/lib/wildt/wildt.db"),
            Some(PathBuf::from("/var/lib/wildt/wildt.db"))
        );
        assert_eq!(database_path("sqlite::memory:"), None);
        assert_eq!(
            database_path("postgres://wildt@127.0.0.1:15432/wildt"),
            None
        );
    }
}
