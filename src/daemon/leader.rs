//! Several daemons on one PostgreSQL database: each one's heartbeat, and
//! the one leader that runs the clocks' deadlines and publishes the site.
//! [IO: the store's `daemons` and `leaders` tables]
//!
//! Every daemon reads the inbox and sends the outbox (the intake's advisory
//! lock and the outbox's leases keep each message and each mail to one of
//! them), but a reminder or a forfeit must be decided once, and the site
//! written by one. The leader holds the row `referee` of `leaders` until a
//! time, [`LEASE_SECS`] ahead, and renews it every [`RENEW_EVERY`]: a
//! leader killed (`kill -9`, its machine lost) is replaced by another
//! daemon once its lease runs out, within [`LEASE_SECS`] and one renewal.
//! A leader that cannot renew (the database unreachable) stops leading at
//! once, before its lease runs out, so two daemons never lead together.
//!
//! On SQLite one daemon runs on the database (its file lock), and it leads
//! without a lease row.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tracing::{info, warn};

use crate::store::{Backend, Store, StoreError};

/// The system clock, in Unix seconds. Leases and heartbeats tell whether
/// processes are alive, which takes the time that passes: never
/// `WILDT_NOW`, the instant a test or a replay of a postal game's dates
/// sets for the games, which stands still.
pub fn wall_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// How long a leader's lease runs.
pub const LEASE_SECS: i64 = 30;

/// How often a daemon writes its heartbeat and its leader renews the lease.
pub const RENEW_EVERY: Duration = Duration::from_secs(10);

/// A daemon whose heartbeat is older than this is taken for gone: its
/// outbox leases are given back (instead of after the outbox's own lease
/// of ten minutes). Six missed heartbeats: a daemon alive but slow to write
/// is not mistaken for a dead one.
pub const GONE_AFTER_SECS: i64 = 60;

/// Registry rows not seen for this long are forgotten.
const FORGET_AFTER_SECS: i64 = 7 * 24 * 3600;

/// The role the leader holds.
const ROLE: &str = "referee";

/// Whether this daemon leads now; shared by the heartbeat task (which
/// sets it) and the serve loop (which reads it).
#[derive(Debug, Clone)]
pub struct Leadership(Arc<AtomicBool>);

impl Leadership {
    /// A daemon alone on its database (SQLite): it leads.
    pub fn alone() -> Leadership {
        Leadership(Arc::new(AtomicBool::new(true)))
    }

    fn shared() -> Leadership {
        Leadership(Arc::new(AtomicBool::new(false)))
    }

    pub fn leads(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }

    fn set(&self, leads: bool) {
        self.0.store(leads, Ordering::Release);
    }
}

/// This daemon as the registry knows it.
#[derive(Debug, Clone)]
pub struct Me {
    /// The id it leases outbox rows with.
    pub id: String,
    pub host: String,
    pub pid: i64,
    pub started_at: i64,
}

impl Me {
    pub fn new(id: &str) -> Me {
        Me {
            id: id.to_owned(),
            host: hostname(),
            pid: i64::from(std::process::id()),
            started_at: wall_secs(),
        }
    }
}

/// This machine's name, as the kernel has it.
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// The heartbeat task of a daemon: the handle that stops it, and the
/// leadership it keeps.
pub struct Heartbeat {
    pub leadership: Leadership,
    stop: Option<(
        tokio::sync::watch::Sender<bool>,
        tokio::task::JoinHandle<()>,
    )>,
    store: Store,
    me: Me,
}

impl Heartbeat {
    /// On PostgreSQL: writes the first heartbeat and tries to lead at once
    /// (so `status` lists the daemon as soon as it runs), then keeps both
    /// up every [`RENEW_EVERY`] in a task of its own. On SQLite: leads,
    /// with no task.
    pub async fn start(store: &Store, me: Me) -> Heartbeat {
        if store.backend() != Backend::Postgres {
            return Heartbeat {
                leadership: Leadership::alone(),
                stop: None,
                store: store.clone(),
                me,
            };
        }
        let leadership = Leadership::shared();
        beat_once(store, &me, &leadership).await;
        let (stop, mut stopped) = tokio::sync::watch::channel(false);
        let task = {
            let (store, me, leadership) = (store.clone(), me.clone(), leadership.clone());
            tokio::spawn(async move {
                loop {
                    tokio::select! {
                        _ = stopped.changed() => break,
                        () = tokio::time::sleep(RENEW_EVERY) => {}
                    }
                    beat_once(&store, &me, &leadership).await;
                }
            })
        };
        Heartbeat {
            leadership,
            stop: Some((stop, task)),
            store: store.clone(),
            me,
        }
    }

    /// Stops the heartbeat and gives the leadership up, so that another
    /// daemon takes it at its next renewal instead of after the lease.
    pub async fn stop(self) {
        let Some((stop, task)) = self.stop else {
            return;
        };
        stop.send_replace(true);
        if let Err(e) = task.await {
            warn!(error = %e, "daemons: the heartbeat task failed");
        }
        // Stopped cleanly: listed as gone at once (not live for another
        // minute), its row kept for `status`.
        if let Err(e) = sqlx::query("UPDATE daemons SET last_seen_at = $1 WHERE id = $2")
            .bind(wall_secs() - GONE_AFTER_SECS - 1)
            .bind(self.me.id.clone())
            .execute(self.store.pool())
            .await
        {
            warn!(error = %e, "daemons: not marked stopped; listed as live for a minute");
        }
        if self.leadership.leads() {
            self.leadership.set(false);
            match resign(&self.store, &self.me.id).await {
                Ok(()) => info!("daemons: leadership given up"),
                Err(e) => warn!(error = %e, "daemons: leadership not given up; it runs out"),
            }
        }
    }
}

/// One heartbeat: this daemon's row, the leader's lease taken or renewed,
/// and the outbox leases of daemons gone given back. A failure leaves this
/// daemon not leading until a heartbeat succeeds again.
async fn beat_once(store: &Store, me: &Me, leadership: &Leadership) {
    let now = wall_secs();
    match beat(store, me, now).await {
        Ok(leads) => {
            if leads != leadership.leads() {
                if leads {
                    info!(daemon = %me.id, "daemons: this daemon leads (deadlines, publishing)");
                } else {
                    info!(daemon = %me.id, "daemons: another daemon leads");
                }
            }
            leadership.set(leads);
        }
        Err(e) => {
            if leadership.leads() {
                warn!(error = %e, "daemons: heartbeat failed; not leading until it succeeds");
            } else {
                warn!(error = %e, "daemons: heartbeat failed");
            }
            leadership.set(false);
        }
    }
}

/// Writes `me`'s heartbeat at `now`, takes or renews the leader's lease if
/// it is free, ours, or run out, and gives back the outbox leases of
/// daemons gone; whether `me` leads.
pub async fn beat(store: &Store, me: &Me, now: i64) -> Result<bool, StoreError> {
    let mut conn = store.pool().acquire().await?;
    sqlx::query(
        "INSERT INTO daemons (id, host, pid, started_at, last_seen_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO UPDATE SET last_seen_at = excluded.last_seen_at",
    )
    .bind(me.id.clone())
    .bind(me.host.clone())
    .bind(me.pid)
    .bind(me.started_at)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    let leads = try_lead(&mut conn, &me.id, now).await?;
    release_gone(&mut conn, now).await?;
    sqlx::query("DELETE FROM daemons WHERE last_seen_at < $1")
        .bind(now - FORGET_AFTER_SECS)
        .execute(&mut *conn)
        .await?;
    Ok(leads)
}

/// Takes the leader's lease for `holder` until `now` + [`LEASE_SECS`] if
/// nobody holds it, `holder` does, or its holder's lease ran out; whether
/// `holder` holds it now. One statement: of two daemons trying at once,
/// the row lock lets one in, and the other sees its lease.
async fn try_lead(
    conn: &mut sqlx::AnyConnection,
    holder: &str,
    now: i64,
) -> Result<bool, StoreError> {
    let row = sqlx::query(
        "INSERT INTO leaders (role, holder, lease_until) VALUES ($1, $2, $3)
         ON CONFLICT (role) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
         WHERE leaders.holder = excluded.holder OR leaders.lease_until <= $4
         RETURNING holder",
    )
    .bind(ROLE)
    .bind(holder.to_owned())
    .bind(now + LEASE_SECS)
    .bind(now)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row.is_some())
}

/// Gives the leadership of `holder` up at once.
async fn resign(store: &Store, holder: &str) -> Result<(), StoreError> {
    sqlx::query("UPDATE leaders SET lease_until = 0 WHERE role = $1 AND holder = $2")
        .bind(ROLE)
        .bind(holder.to_owned())
        .execute(store.pool())
        .await?;
    Ok(())
}

/// Gives back the outbox rows leased by daemons whose heartbeat is older
/// than [`GONE_AFTER_SECS`] at `now` (or who never wrote one): a daemon
/// killed mid-send leaves its rows to the others within a minute or so,
/// not after the outbox lease's ten minutes.
async fn release_gone(conn: &mut sqlx::AnyConnection, now: i64) -> Result<(), StoreError> {
    let released = sqlx::query(
        "UPDATE outbox SET leased_by = NULL, leased_until = NULL, doubt_since = $2
         WHERE leased_by IS NOT NULL AND sent_at IS NULL AND failed_at IS NULL
           AND NOT EXISTS (SELECT 1 FROM daemons d
                           WHERE d.id = outbox.leased_by AND d.last_seen_at >= $1)",
    )
    .bind(now - GONE_AFTER_SECS)
    .bind(now)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if released > 0 {
        info!(
            rows = released,
            "outbox: released the leases of daemons no longer seen"
        );
    }
    Ok(())
}

/// The newest message's id (0 when there is none): a leader publishes
/// again when it moved.
pub async fn newest_message(store: &Store) -> Result<i64, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT COALESCE(MAX(id), 0) FROM messages")
            .fetch_one(store.pool())
            .await?,
    )
}

/// A daemon as `wildt status` lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DaemonRow {
    pub id: String,
    pub host: String,
    pub pid: i64,
    pub started_at: i64,
    pub last_seen_at: i64,
    /// Seen within [`GONE_AFTER_SECS`].
    pub live: bool,
    /// Holds the leader's lease now.
    pub leads: bool,
}

/// Every daemon of the registry seen within `since` seconds of `now`,
/// the leader marked, newest first.
pub async fn list(
    conn: &mut sqlx::AnyConnection,
    now: i64,
    since: i64,
) -> Result<Vec<DaemonRow>, StoreError> {
    use sqlx::Row as _;
    let leader: Option<String> =
        sqlx::query_scalar("SELECT holder FROM leaders WHERE role = $1 AND lease_until > $2")
            .bind(ROLE)
            .bind(now)
            .fetch_optional(&mut *conn)
            .await?;
    let rows = sqlx::query(
        "SELECT id, host, pid, started_at, last_seen_at FROM daemons
         WHERE last_seen_at >= $1 ORDER BY started_at DESC, id",
    )
    .bind(now - since)
    .fetch_all(&mut *conn)
    .await?;
    rows.into_iter()
        .map(|r| {
            let id: String = r.try_get("id")?;
            let last_seen_at: i64 = r.try_get("last_seen_at")?;
            Ok(DaemonRow {
                leads: leader.as_deref() == Some(id.as_str()),
                live: last_seen_at >= now - GONE_AFTER_SECS,
                host: r.try_get("host")?,
                pid: r.try_get("pid")?,
                started_at: r.try_get("started_at")?,
                id,
                last_seen_at,
            })
        })
        .collect()
}
