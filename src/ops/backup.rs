//! `wildt backup FILE`: a consistent copy of the database, also while the
//! daemon writes to it, with SQLite's `VACUUM INTO` (one read transaction:
//! the copy is the database as of one instant, compacted). [IO]

use std::path::{Path, PathBuf};
use std::str::FromStr as _;

use sqlx::sqlite::SqliteConnectOptions;

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error(
        "the store is PostgreSQL ({0}): wildt backup copies an SQLite file only; nothing was \
         done. Back it up with PostgreSQL's own tools: pg_dump -Fc (one database, a \
         consistent copy while the daemons run) or pg_basebackup with WAL archiving (the \
         whole server, with point-in-time recovery)"
    )]
    Postgres(String),
    #[error("the database URL {0} names no file")]
    NoFile(String),
    #[error("no database at {0}")]
    Missing(PathBuf),
    #[error("{0} exists: give a new file name (a backup never overwrites)")]
    Exists(PathBuf),
    #[error("backup of {from} into {to}: {source}")]
    Database {
        from: PathBuf,
        to: PathBuf,
        source: sqlx::Error,
    },
}

/// Copies the database named by `database_url` into the new file `to`;
/// returns the copy's size in bytes.
/// A PostgreSQL store is refused, before anything is read or written:
/// its own tools copy it.
pub async fn backup(database_url: &str, to: &Path) -> Result<u64, BackupError> {
    if crate::store::Backend::of(database_url) == Some(crate::store::Backend::Postgres) {
        return Err(BackupError::Postgres(database_url.to_owned()));
    }
    let from = super::database_path(database_url)
        .ok_or_else(|| BackupError::NoFile(database_url.to_owned()))?;
    if !from.exists() {
        return Err(BackupError::Missing(from));
    }
    if to.exists() {
        return Err(BackupError::Exists(to.to_owned()));
    }
    let err = |source| BackupError::Database {
        from: from.clone(),
        to: to.to_owned(),
        source,
    };
    let options = SqliteConnectOptions::from_str(database_url)
        .map_err(err)?
        .read_only(true)
        .busy_timeout(std::time::Duration::from_secs(30));
    let mut conn = sqlx::ConnectOptions::connect(&options).await.map_err(err)?;
    let target = to.to_str().ok_or_else(|| {
        err(sqlx::Error::Protocol(format!(
            "{} is not valid UTF-8",
            to.display()
        )))
    })?;
    sqlx::query("VACUUM INTO ?1")
        .bind(target)
        .execute(&mut conn)
        .await
        .map_err(err)?;
    sqlx::Connection::close(conn).await.map_err(err)?;
    super::status::keep_owner(&from);
    let size = std::fs::metadata(to)
        .map_err(|e| err(sqlx::Error::Io(e)))?
        .len();
    Ok(size)
}
