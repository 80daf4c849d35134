//! The daemon's lock on its database: `wildt serve` holds an exclusive lock
//! on `<database>.lock` (with its pid and start time inside) for as long as it
//! runs, so `wildt status` can tell whether a daemon is running on this
//! database, and a second daemon on the same database refuses to start. The
//! kernel drops the lock when the process ends, however it ends. [IO]

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("another wildt daemon ({holder}) is running on this database (lock {path})")]
    Held { path: PathBuf, holder: String },
    #[error("daemon lock {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The lock file of the database at `database`.
pub fn lock_path(database: &Path) -> PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Held while the daemon runs; released when dropped or when the process ends.
#[derive(Debug)]
pub struct DaemonLock {
    _file: File,
}

impl DaemonLock {
    /// Takes the lock of the database named by `database_url`, or says who
    /// holds it. An in-memory database needs no lock.
    pub fn acquire(database_url: &str) -> Result<Option<DaemonLock>, LockError> {
        let Some(database) = super::database_path(database_url) else {
            return Ok(None);
        };
        let path = lock_path(&database);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                file.read_to_string(&mut holder).map_err(io)?;
                return Err(LockError::Held {
                    path: path.clone(),
                    holder: holder_text(&holder),
                });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        writeln!(
            file,
            "pid={}\nstarted_at={}",
            std::process::id(),
            crate::store::now_secs()
        )
        .map_err(io)?;
        file.flush().map_err(io)?;
        Ok(Some(DaemonLock { _file: file }))
    }
}

/// What `wildt status` learns from the lock file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Holder {
    pub running: bool,
    /// The pid and start time the running daemon wrote.
    pub pid: Option<u32>,
    pub started_at: Option<i64>,
}

/// Whether a daemon holds the lock of `database` (never creates the file).
pub fn holder(database: &Path) -> Result<Holder, LockError> {
    let path = lock_path(database);
    let mut file = match File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Holder {
                running: false,
                pid: None,
                started_at: None,
            });
        }
        Err(source) => return Err(LockError::Io { path, source }),
    };
    let running = match file.try_lock_shared() {
        Ok(()) => false,
        Err(TryLockError::WouldBlock) => true,
        Err(TryLockError::Error(source)) => return Err(LockError::Io { path, source }),
    };
    if !running {
        return Ok(Holder {
            running,
            pid: None,
            started_at: None,
        });
    }
    let mut text = String::new();
    file.read_to_string(&mut text)
        .map_err(|source| LockError::Io { path, source })?;
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix('='))
            .map(str::trim)
    };
    Ok(Holder {
        running,
        pid: field("pid").and_then(|p| p.parse().ok()),
        started_at: field("started_at").and_then(|p| p.parse().ok()),
    })
}

fn holder_text(text: &str) -> String {
    let pid = text
        .lines()
        .find_map(|l| l.strip_prefix("pid="))
        .unwrap_or("?");
    format!("pid {}", pid.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_lock_on_the_same_database_is_refused_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}/sub/w.db", dir.path().display());
        let db = dir.path().join("sub/w.db");
        assert!(!holder(&db).unwrap().running);
        let first = DaemonLock::acquire(&url).unwrap().expect("a file database");
        let h = holder(&db).unwrap();
        assert!(h.running);
        assert_eq!(h.pid, Some(std::process::id()));
        assert!(matches!(
            DaemonLock::acquire(&url),
            Err(LockError::Held { .. })
        ));
        drop(first);
        assert!(!holder(&db).unwrap().running);
        assert!(DaemonLock::acquire(&url).unwrap().is_some());
    }
}
