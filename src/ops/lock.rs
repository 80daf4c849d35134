//! The daemon's lock on its database: `wildt serve` holds an exclusive lock
//! on `<database>.lock` (with its pid and start time inside) for as long as it
//! runs, so `wildt status` can tell whether a daemon is running on this
//! database, and a second daemon on the same database refuses to start. The
//! kernel drops the lock when the process ends, however it ends. [IO]
//!
//! The lock is an open file description lock (`F_OFD_SETLK`), so that a
//! probe can ask the kernel whether anyone holds it (`F_OFD_GETLK`) without
//! taking it: a probe that took the lock, even shared and for a moment,
//! would make a daemon starting at that moment refuse to run.

use std::fs::{File, OpenOptions};
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::os::fd::AsRawFd as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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

/// How long a starting daemon waits for a lock held by something that is
/// not a running wildt (a backup tool, an editor, a probe of an older
/// version) before giving up.
const WAIT_FOR_NON_DAEMON: Duration = Duration::from_secs(5);

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
    /// holds it. An in-memory database needs no lock. A lock held by a
    /// process that is not a running wildt daemon is waited for, a few
    /// seconds at most.
    ///
    /// A PostgreSQL store takes no lock: several daemons share it (the
    /// leader's lease and the registry order them, see `daemon::leader`).
    pub fn acquire(database_url: &str) -> Result<Option<DaemonLock>, LockError> {
        if crate::store::Backend::of(database_url) == Some(crate::store::Backend::Postgres) {
            return Ok(None);
        }
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
        crate::failpoint::pause("lock-open");
        let started = Instant::now();
        while !try_lock(&file).map_err(io)? {
            let mut text = String::new();
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            file.read_to_string(&mut text).map_err(io)?;
            let written = Written::parse(&text);
            if written.is_live_daemon() || started.elapsed() >= WAIT_FOR_NON_DAEMON {
                return Err(LockError::Held {
                    path: path.clone(),
                    holder: written.describe(),
                });
            }
            std::thread::sleep(Duration::from_millis(50));
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

/// A whole-file lock request of `kind` (`F_WRLCK`) for `fcntl`.
fn whole_file(kind: libc::c_int) -> libc::flock {
    // SAFETY: `flock` is plain data, for which all zeroes is a valid value;
    // l_start = l_len = 0 with SEEK_SET is the whole file, l_pid must be 0.
    let mut request: libc::flock = unsafe { std::mem::zeroed() };
    request.l_type = kind as libc::c_short;
    request.l_whence = libc::SEEK_SET as libc::c_short;
    request
}

/// Takes the exclusive lock; false when another open file holds it.
fn try_lock(file: &File) -> std::io::Result<bool> {
    let request = whole_file(libc::F_WRLCK);
    // SAFETY: a valid descriptor and a pointer to a live `flock`.
    let done = unsafe {
        libc::fcntl(
            file.as_raw_fd(),
            libc::F_OFD_SETLK,
            std::ptr::from_ref(&request),
        )
    };
    if done == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    match e.raw_os_error() {
        Some(libc::EAGAIN | libc::EACCES) => Ok(false),
        _ => Err(e),
    }
}

/// Whether any open file holds a lock on `file`, asked of the kernel
/// without taking one.
fn is_locked(file: &File) -> std::io::Result<bool> {
    let mut request = whole_file(libc::F_WRLCK);
    // SAFETY: a valid descriptor and a pointer to a live, writable `flock`.
    let done = unsafe {
        libc::fcntl(
            file.as_raw_fd(),
            libc::F_OFD_GETLK,
            std::ptr::from_mut(&mut request),
        )
    };
    if done != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(request.l_type != libc::F_UNLCK as libc::c_short)
}

/// What a daemon wrote into the lock file when it took the lock.
#[derive(Debug, Default)]
struct Written {
    pid: Option<u32>,
    started_at: Option<i64>,
}

impl Written {
    fn parse(text: &str) -> Written {
        let field = |name: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(name)?.strip_prefix('='))
                .map(str::trim)
        };
        Written {
            pid: field("pid").and_then(|p| p.parse().ok()),
            started_at: field("started_at").and_then(|p| p.parse().ok()),
        }
    }

    /// Whether the pid written is a running `wildt` other than this process.
    fn is_live_daemon(&self) -> bool {
        let Some(pid) = self.pid.filter(|&p| p != std::process::id()) else {
            return false;
        };
        std::fs::read_to_string(format!("/proc/{pid}/comm"))
            .is_ok_and(|comm| comm.trim() == "wildt")
    }

    fn describe(&self) -> String {
        match self.pid {
            Some(pid) => format!("pid {pid}"),
            None => "pid ?".to_owned(),
        }
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

/// Whether a daemon holds the lock of `database`: asked of the kernel, never
/// taking the lock, never creating the file.
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
    let running = is_locked(&file).map_err(|source| LockError::Io {
        path: path.clone(),
        source,
    })?;
    crate::failpoint::pause("lock-probe");
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
    let written = Written::parse(&text);
    Ok(Holder {
        running,
        pid: written.pid,
        started_at: written.started_at,
    })
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

    #[test]
    fn a_lock_held_by_something_that_is_not_a_daemon_is_waited_for() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}/w.db", dir.path().display());
        // Held by this process, which is no running `wildt` daemon.
        let first = DaemonLock::acquire(&url).unwrap().expect("a file database");
        let release = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            drop(first);
        });
        let second = DaemonLock::acquire(&url).unwrap();
        assert!(second.is_some());
        release.join().unwrap();
    }

    #[test]
    fn status_probe_leaves_the_lock_free_for_a_daemon() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}/w.db", dir.path().display());
        let db = dir.path().join("w.db");
        std::fs::write(lock_path(&db), "").unwrap();
        let probe = File::open(lock_path(&db)).unwrap();
        assert!(!is_locked(&probe).unwrap());
        // The probe's file stays open, as during `status`: the lock is free.
        let taken = DaemonLock::acquire(&url).unwrap().expect("a file database");
        assert!(is_locked(&probe).unwrap());
        drop(taken);
        assert!(!is_locked(&probe).unwrap());
    }
}
