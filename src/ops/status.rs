//! `wildt status`: the health of a deployment, read from its database and the
//! daemon's lock, changing nothing: whether a daemon runs, when it last
//! handled a message, mail waiting, failed mail, the next mail due, the next
//! clock deadline, and the problems that need the operator. [IO: reads the
//! database read-only]
//!
//! The JSON form is [`Status`] serialized. New kinds of health (quarantined
//! messages, clock deadlines) are new fields and new [`ProblemKind`]s: a
//! consumer reads `ok` and `problems`, and may ignore fields it does not know.

use std::path::{Path, PathBuf};

use crate::ops::lock::{self, Holder};

#[derive(Debug, thiserror::Error)]
pub enum StatusError {
    #[error("the database URL {0} names no file")]
    NoFile(String),
    #[error("no database at {0}: has the daemon ever started with this configuration?")]
    Missing(PathBuf),
    #[error("database {path}: {source}")]
    Database { path: PathBuf, source: sqlx::Error },
    #[error("database {path}: {source}")]
    Store {
        path: PathBuf,
        source: crate::store::StoreError,
    },
    #[error(transparent)]
    Lock(#[from] lock::LockError),
    #[error("database {url}: {source}")]
    Postgres { url: String, source: sqlx::Error },
    #[error("database {url}: {source}")]
    PostgresStore {
        url: String,
        source: crate::store::StoreError,
    },
    #[error("database {url}: the password: {source}")]
    Password {
        url: String,
        source: crate::config::ConfigError,
    },
}

/// How long a clock deadline may be overdue before the referee counts as not
/// keeping time: the daemon acts within seconds of a deadline (and looks at
/// least every minute); `serve --once` from a timer every few minutes stays
/// within it too.
pub const DEADLINE_GRACE_SECS: i64 = 600;

/// The earliest clock deadline not yet acted on (a reminder, the low-time
/// warning or a time forfeit), overdue or ahead.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct NextDeadline {
    pub game: i64,
    /// `reminder-14`, `low-time`, `forfeit`.
    pub kind: String,
    /// The player reminded, warned or forfeited: `white` or `black`.
    pub side: &'static str,
    /// When it falls (Unix seconds).
    pub at: i64,
}

impl From<crate::deadlines::GameDeadline> for NextDeadline {
    fn from(g: crate::deadlines::GameDeadline) -> NextDeadline {
        NextDeadline {
            game: g.game,
            kind: g.deadline.key.kind.to_string(),
            side: match g.deadline.side {
                shakmaty::Color::White => "white",
                shakmaty::Color::Black => "black",
            },
            at: g.deadline.at,
        }
    }
}

/// The outbox: mail waiting to be sent, mail that failed for good.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Outbox {
    /// Not yet sent and not failed.
    pub waiting: i64,
    /// Failed for good (a permanent refusal, or retries exhausted), ever.
    pub failed: i64,
    /// Of those, failed within the last `failed_window_secs`.
    pub failed_recently: i64,
    pub failed_window_secs: i64,
    /// When the next waiting mail is due (Unix seconds).
    pub next_due_at: Option<i64>,
    /// The error of the most recent failure.
    pub last_error: Option<String>,
}

/// Something the operator should look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// Mail failed within the window.
    FailedMail,
    /// No daemon holds the lock while mail waits to be sent.
    DaemonNotRunning,
    /// A clock deadline is overdue by more than [`DEADLINE_GRACE_SECS`]: the
    /// referee is not keeping time (no daemon, or one that does not act).
    DeadlineOverdue,
    /// Inbox messages that could not be handled were put in the quarantine.
    Quarantined,
    /// `[tablebase] path` cannot be read: the daemon does not start.
    TablebaseUnreadable,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Problem {
    pub kind: ProblemKind,
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Status {
    /// No problem: `wildt status` exits 0.
    pub ok: bool,
    pub database: PathBuf,
    pub daemon: Holder,
    /// When the last inbound message was handled (Unix seconds).
    pub last_message_at: Option<i64>,
    pub outbox: Outbox,
    /// The earliest clock deadline not yet acted on, if any game has one.
    pub next_deadline: Option<NextDeadline>,
    /// Inbox messages put in the quarantine (`[inbox] quarantine`) because
    /// handling them failed again and again.
    pub quarantined: i64,
    pub problems: Vec<Problem>,
    /// When this was read (Unix seconds).
    pub now: i64,
    /// Whether the referee decides tablebase claims (`[tablebase]`), and
    /// with what tables; set by [`tablebase`] from the configuration.
    pub tablebase: TablebaseStatus,
    /// On PostgreSQL: every daemon seen on the database lately, the leader
    /// marked (SQLite has one daemon, told by its lock).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub daemons: Vec<crate::daemon::leader::DaemonRow>,
}

/// `[tablebase]` as `status` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct TablebaseStatus {
    pub on: bool,
    /// `claim` or `auto`.
    pub adjudicate: Option<&'static str>,
    pub paths: Vec<PathBuf>,
    /// WDL tables found (one per material).
    pub tables: usize,
    pub max_pieces: usize,
    /// Why the directories could not be read.
    pub error: Option<String>,
}

impl Status {
    /// Adds what `[tablebase]` of the configuration holds; directories
    /// that cannot be read are a problem (the daemon would not start).
    pub fn with_tablebase(mut self, config: Option<&crate::config::TablebaseConfig>) -> Status {
        self.tablebase = tablebase(config);
        if let Some(e) = &self.tablebase.error {
            self.problems.push(Problem {
                kind: ProblemKind::TablebaseUnreadable,
                detail: format!("{e}: fix [tablebase] path (see `wildt config check`)"),
            });
            self.ok = false;
        }
        self
    }
}

/// The tablebases of `config`, listed (no table is opened).
pub fn tablebase(config: Option<&crate::config::TablebaseConfig>) -> TablebaseStatus {
    let Some(c) = config else {
        return TablebaseStatus::default();
    };
    let mut s = TablebaseStatus {
        on: true,
        adjudicate: Some(c.adjudicate.as_str()),
        paths: c.paths.clone(),
        ..TablebaseStatus::default()
    };
    match crate::tablebase::syzygy::inventory(&c.paths) {
        Ok(inv) => {
            s.tables = inv.wdl;
            s.max_pieces = inv.max_pieces;
        }
        Err(e) => s.error = Some(e.to_string()),
    }
    s
}

/// Reads the health of the deployment whose database is `database_url`,
/// its clocks kept by `clock`; failures older than `failed_window_secs` no
/// longer count as a problem.
pub async fn read(
    database_url: &str,
    failed_window_secs: i64,
    clock: &crate::clock::ClockRules,
) -> Result<Status, StatusError> {
    let path = super::database_path(database_url)
        .ok_or_else(|| StatusError::NoFile(database_url.to_owned()))?;
    if !path.exists() {
        return Err(StatusError::Missing(path));
    }
    let daemon = lock::holder(&path)?;
    let now = crate::store::now_secs();
    let db = |source| StatusError::Database {
        path: path.clone(),
        source,
    };
    // Read only: status never creates or changes the database.
    sqlx::any::install_default_drivers();
    let sep = if database_url.contains('?') { '&' } else { '?' };
    let mut conn =
        <sqlx::AnyConnection as sqlx::Connection>::connect(&format!("{database_url}{sep}mode=ro"))
            .await
            .map_err(db)?;
    sqlx::query("PRAGMA busy_timeout = 10000")
        .execute(&mut conn)
        .await
        .map_err(db)?;
    let store_err = |source| StatusError::Store {
        path: path.clone(),
        source,
    };
    let status = read_from(
        &mut conn,
        path.clone(),
        daemon,
        failed_window_secs,
        clock,
        now,
    )
    .await
    .map_err(store_err)?;
    sqlx::Connection::close(conn).await.map_err(db)?;
    keep_owner(&path);
    Ok(status)
}

/// How long a daemon not seen is still listed by `status` on PostgreSQL.
const LISTED_FOR_SECS: i64 = 24 * 3600;

/// [`read`] for the store `config` names: on PostgreSQL, logged in with
/// the password file, the daemons taken from the registry (every daemon
/// seen in the last day, which of them leads); on SQLite as [`read`].
pub async fn read_config(
    config: &crate::config::Config,
    failed_window_secs: i64,
) -> Result<Status, StatusError> {
    use std::str::FromStr as _;
    let url = config.database_url.clone();
    if crate::store::Backend::of(&url) != Some(crate::store::Backend::Postgres) {
        return read(&url, failed_window_secs, &config.clock.rules).await;
    }
    sqlx::any::install_default_drivers();
    let pg = |source| StatusError::Postgres {
        url: url.clone(),
        source,
    };
    let mut options = sqlx::any::AnyConnectOptions::from_str(&url).map_err(pg)?;
    if let Some(secret) = &config.database_password {
        let password = secret.read().map_err(|source| StatusError::Password {
            url: url.clone(),
            source,
        })?;
        options
            .database_url
            .set_password(Some(&password))
            .map_err(|()| pg(sqlx::Error::Configuration("a URL without a host".into())))?;
    }
    let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect_with(&options)
        .await
        .map_err(pg)?;
    let now = crate::store::now_secs();
    let store_err = |source| StatusError::PostgresStore {
        url: url.clone(),
        source,
    };
    // Which daemon is alive goes by the system clock (see `wall_secs`).
    let daemons = crate::daemon::leader::list(
        &mut conn,
        crate::daemon::leader::wall_secs(),
        LISTED_FOR_SECS,
    )
    .await
    .map_err(store_err)?;
    let leader = daemons.iter().find(|d| d.leads);
    let daemon = Holder {
        running: daemons.iter().any(|d| d.live),
        pid: leader.and_then(|d| u32::try_from(d.pid).ok()),
        started_at: leader.map(|d| d.started_at),
    };
    let mut status = read_from(
        &mut conn,
        PathBuf::from(&url),
        daemon,
        failed_window_secs,
        &config.clock.rules,
        now,
    )
    .await
    .map_err(store_err)?;
    status.daemons = daemons;
    sqlx::Connection::close(conn).await.map_err(pg)?;
    Ok(status)
}

/// What `status` reads from the store through `conn`, `daemon` told.
async fn read_from(
    conn: &mut sqlx::AnyConnection,
    database: PathBuf,
    daemon: Holder,
    failed_window_secs: i64,
    clock: &crate::clock::ClockRules,
    now: i64,
) -> Result<Status, crate::store::StoreError> {
    let health = crate::store::outbox::health(&mut *conn, now - failed_window_secs).await?;
    let outbox = Outbox {
        waiting: health.waiting,
        failed: health.failed,
        failed_recently: health.failed_since,
        failed_window_secs,
        next_due_at: health.next_due_at,
        last_error: health.last_error,
    };
    let last_message_at = crate::store::messages::last_received_at(&mut *conn).await?;
    let next_deadline = crate::deadlines::next_pending(&mut *conn, clock)
        .await?
        .map(NextDeadline::from);
    let quarantined = crate::store::failures::quarantined_count(&mut *conn).await?;
    let problems = problems(&daemon, &outbox, quarantined, next_deadline.as_ref(), now);
    Ok(Status {
        ok: problems.is_empty(),
        database,
        daemon,
        last_message_at,
        outbox,
        next_deadline,
        quarantined,
        problems,
        now,
        tablebase: TablebaseStatus::default(),
        daemons: Vec::new(),
    })
}

/// What needs the operator, given what was read at `now`. [pure]
pub fn problems(
    daemon: &Holder,
    outbox: &Outbox,
    quarantined: i64,
    next_deadline: Option<&NextDeadline>,
    now: i64,
) -> Vec<Problem> {
    let mut out = Vec::new();
    if quarantined > 0 {
        out.push(Problem {
            kind: ProblemKind::Quarantined,
            detail: format!(
                "{quarantined} inbox message(s) could not be handled and were put in the \
                 quarantine folder ([inbox] quarantine); see the journal for why"
            ),
        });
    }
    if outbox.failed_recently > 0 {
        out.push(Problem {
            kind: ProblemKind::FailedMail,
            detail: format!(
                "{} mail(s) failed in the last {} h; the last error: {}",
                outbox.failed_recently,
                outbox.failed_window_secs / 3600,
                outbox.last_error.as_deref().unwrap_or("(none recorded)")
            ),
        });
    }
    if !daemon.running && outbox.waiting > 0 {
        out.push(Problem {
            kind: ProblemKind::DaemonNotRunning,
            detail: format!(
                "no daemon is running and {} mail(s) wait to be sent: \
                 start it (systemctl start wildt)",
                outbox.waiting
            ),
        });
    }
    if let Some(d) = next_deadline
        && now - d.at > DEADLINE_GRACE_SECS
    {
        let late = format!(
            "game {}: the {} deadline of {} fell {} min ago and nothing was done",
            d.game,
            d.kind,
            d.side,
            (now - d.at) / 60
        );
        let what = if daemon.running {
            "the running daemon is not keeping time: is its clock (or WILDT_NOW) right? \
             see its journal (journalctl -u wildt)"
        } else {
            "no daemon is running to keep time: start it (systemctl start wildt)"
        };
        out.push(Problem {
            kind: ProblemKind::DeadlineOverdue,
            detail: format!("{late}; {what}"),
        });
    }
    out
}

/// A read-only SQLite connection may create the `-wal` and `-shm` files of a
/// database in WAL mode; run as root on the daemon's database, they would be
/// root's, and the daemon could no longer write. Give them back to the
/// database file's owner.
pub fn keep_owner(database: &Path) {
    use std::os::unix::fs::MetadataExt as _;
    let Ok(db) = std::fs::metadata(database) else {
        return;
    };
    for suffix in ["-wal", "-shm"] {
        let mut name = database.as_os_str().to_owned();
        name.push(suffix);
        let path = PathBuf::from(name);
        if let Ok(m) = std::fs::metadata(&path)
            && (m.uid() != db.uid() || m.gid() != db.gid())
            && let Err(e) = std::os::unix::fs::chown(&path, Some(db.uid()), Some(db.gid()))
        {
            tracing::warn!(path = %path.display(), error = %e,
                "cannot give the file back to the database's owner");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outbox(waiting: i64, failed_recently: i64) -> Outbox {
        Outbox {
            waiting,
            failed: failed_recently + 2,
            failed_recently,
            failed_window_secs: 7 * 86400,
            next_due_at: None,
            last_error: Some("550 no such user".to_owned()),
        }
    }

    const NOW: i64 = 1_800_000_000;

    fn deadline(at: i64) -> NextDeadline {
        NextDeadline {
            game: 7,
            kind: "reminder-14".to_owned(),
            side: "black",
            at,
        }
    }

    fn daemon(running: bool) -> Holder {
        Holder {
            running,
            pid: None,
            started_at: None,
        }
    }

    #[test]
    fn old_failures_and_an_idle_stopped_daemon_need_nobody() {
        assert_eq!(
            problems(&daemon(false), &outbox(0, 0), 0, None, NOW),
            vec![]
        );
    }

    #[test]
    fn recent_failure_is_a_problem_with_its_error() {
        let p = problems(&daemon(true), &outbox(0, 1), 0, None, NOW);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].kind, ProblemKind::FailedMail);
        assert!(p[0].detail.contains("550 no such user"), "{}", p[0].detail);
    }

    #[test]
    fn waiting_mail_without_a_daemon_is_a_problem() {
        let p = problems(&daemon(false), &outbox(3, 0), 0, None, NOW);
        assert_eq!(p[0].kind, ProblemKind::DaemonNotRunning);
        assert_eq!(problems(&daemon(true), &outbox(3, 0), 0, None, NOW), vec![]);
    }

    #[test]
    fn a_deadline_overdue_beyond_the_grace_is_a_problem_with_or_without_a_daemon() {
        for running in [true, false] {
            let within = deadline(NOW - DEADLINE_GRACE_SECS);
            assert_eq!(
                problems(&daemon(running), &outbox(0, 0), 0, Some(&within), NOW),
                vec![]
            );
            let ahead = deadline(NOW + 3600);
            assert_eq!(
                problems(&daemon(running), &outbox(0, 0), 0, Some(&ahead), NOW),
                vec![]
            );
            let late = deadline(NOW - DEADLINE_GRACE_SECS - 1);
            let p = problems(&daemon(running), &outbox(0, 0), 0, Some(&late), NOW);
            assert_eq!(p.len(), 1, "{p:?}");
            assert_eq!(p[0].kind, ProblemKind::DeadlineOverdue);
            assert!(
                p[0].detail
                    .contains("game 7: the reminder-14 deadline of black"),
                "{}",
                p[0].detail
            );
            let says = if running {
                "running daemon"
            } else {
                "no daemon"
            };
            assert!(p[0].detail.contains(says), "{}", p[0].detail);
        }
    }
}
