//! Which outbox mail this process's sender takes next, and its lease on
//! it. [IO: through the store's outbox table]
//!
//! A lease marks a row as being sent by one process until a time, so that
//! two processes on one database never hand the same mail over twice; a
//! lease whose time has passed belongs to a process that died, and the row
//! may be leased again. The order the rows are leased in is the sender's
//! fairness policy ([`lease_due`]). The bodies this process committed a
//! moment ago are kept in memory ([`FreshBodies`]) and sent from there.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use sqlx::AnyConnection;
use tracing::{info, warn};

use super::fresh::FreshBodies;
use crate::mail::render::Rendered;
use crate::store::{OutboxRow, Store, StoreError, now_secs, outbox};

/// Who leases outbox rows: this process, told apart from a restarted one.
pub fn lease_owner() -> String {
    format!("pid:{}:{:08x}", std::process::id(), rand::random::<u32>())
}

/// Gives back the leases of processes of this machine that are gone (a
/// `kill -9` mid-send), so their rows need not wait for the lease to end.
/// On PostgreSQL the lease holders may run on other machines, whose
/// processes this one cannot see: only the holders whose heartbeat row
/// names this machine are looked at here, and the heartbeats tell when
/// the others are gone (`leader::beat`).
pub async fn release_dead_leases(store: &Store) -> Result<(), StoreError> {
    let here: Option<std::collections::HashSet<String>> = match store.backend() {
        crate::store::Backend::Sqlite => None,
        crate::store::Backend::Postgres => Some(
            sqlx::query_scalar::<_, String>("SELECT id FROM daemons WHERE host = $1")
                .bind(super::leader::hostname())
                .fetch_all(store.pool())
                .await?
                .into_iter()
                .collect(),
        ),
    };
    for owner in store.outbox_leaseholders(now_secs()).await? {
        if here.as_ref().is_some_and(|ids| !ids.contains(&owner)) {
            continue;
        }
        let alive = owner
            .strip_prefix("pid:")
            .and_then(|rest| rest.split(':').next())
            .and_then(|pid| pid.parse::<u32>().ok())
            .is_none_or(|pid| std::path::Path::new(&format!("/proc/{pid}")).exists());
        if !alive {
            info!(%owner, "outbox: releasing the leases of a process that is gone");
            store.release_dead_leases(&owner, now_secs()).await?;
        }
    }
    Ok(())
}

/// Gives back the outbox rows `owner` holds leased; whether it could (if
/// not, said in the log: they are leased again once given back or once
/// their lease runs out). Mail this process handed to the relay but could
/// not mark sent is marked first: given back unmarked, it would be sent
/// again; while it cannot be marked, no lease is given back.
pub(super) async fn give_back_leases(leases: &Leases, owner: &str) -> bool {
    if let Err(e) = leases.mark_unmarked().await {
        warn!(error = %e, "outbox: mail sent before a database error not yet marked sent; leases kept");
        return false;
    }
    match leases.store().release_leases(owner).await {
        Ok(()) => true,
        Err(e) => {
            warn!(error = %e, "outbox: own leases not given back; sent once given back or their lease runs out");
            false
        }
    }
}

/// The sending side of this process's outbox: the store, the bodies this
/// process committed and has not sent yet, and where its last lease
/// reached. Cloned, it is shared: the loop keeps the bodies of the mail it
/// commits, the sender leases them.
#[derive(Clone)]
pub struct Leases {
    store: Store,
    fresh: Arc<FreshBodies>,
    cursor: Arc<LeaseCursor>,
    /// Outbox rows this process handed to the relay whose sent mark did
    /// not commit (the database went away meanwhile): marked before this
    /// process gives its leases back, so that they are not sent again.
    unmarked: Arc<std::sync::Mutex<Vec<i64>>>,
}

impl Leases {
    pub fn new(store: Store) -> Leases {
        Leases {
            store,
            fresh: Arc::default(),
            cursor: Arc::default(),
            unmarked: Arc::default(),
        }
    }

    /// Remembers rows handed to the relay whose sent mark failed.
    pub fn remember_unmarked(&self, ids: &[i64]) {
        self.unmarked
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .extend_from_slice(ids);
    }

    /// Marks sent the rows [`Leases::remember_unmarked`] kept; on an
    /// error they stay kept (and this process must keep their leases).
    pub async fn mark_unmarked(&self) -> Result<(), StoreError> {
        let ids = std::mem::take(
            &mut *self
                .unmarked
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        if ids.is_empty() {
            return Ok(());
        }
        match self.store.mark_sent_many(&ids).await {
            Ok(()) => {
                info!(
                    count = ids.len(),
                    "outbox: mail sent before a database error marked sent"
                );
                Ok(())
            }
            Err(e) => {
                self.remember_unmarked(&ids);
                Err(e)
            }
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Keeps the bodies of `mails`, whose outbox rows were just committed,
    /// for this process's sender. Call only after the commit: a body kept
    /// is one the sender may send. Moved, not copied: nothing reads them
    /// after the commit, and a copy of every reply (some 27 KB each in a
    /// long game) is a fresh allocation the kernel has to fault in.
    pub fn keep_fresh(&self, mails: &mut [Rendered]) {
        for m in mails {
            self.fresh.keep(&m.message_id, std::mem::take(&mut m.raw));
        }
    }

    /// Leases outbox rows due at `now` for `owner` until `until`
    /// ([`lease_due`]), oldest first.
    pub async fn lease_due(
        &self,
        now: i64,
        limit: i64,
        owner: &str,
        until: i64,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        let _turn = self.store.write_turn().await;
        let conn = &mut *self.store.write_conn().await?;
        lease_due(conn, now, limit, owner, until, &self.fresh, &self.cursor).await
    }

    /// Marks the rows `sent` sent and leases up to `limit` due rows, as
    /// [`Store::mark_sent_many`] and [`Leases::lease_due`] do, in one
    /// transaction: during a burst each write waits for the group being
    /// decided to commit, so the sender waits once a batch instead of
    /// twice (to mark the batch before, then to lease the next), and the
    /// log is synced once a batch instead of twice.
    pub async fn mark_sent_and_lease(
        &self,
        sent: &[i64],
        now: i64,
        limit: i64,
        owner: &str,
        until: i64,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        let _turn = self.store.write_turn().await;
        let mut conn = self.store.write_conn().await?;
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        outbox::mark_sent_many(&mut tx, sent).await?;
        let rows = lease_due(&mut tx, now, limit, owner, until, &self.fresh, &self.cursor).await?;
        tx.commit().await?;
        Ok(rows)
    }
}

/// How many of the newest due rows a lease weighs by their players' mail
/// waiting, besides those queued since the process's lease before: bounded,
/// so a lease during a backlog of 100,000 replies costs what one during
/// 512 does (about 1 ms against 0.16 for the newest alone, measured on
/// 2,000 waiting; 4,096 cost 5-6 ms, under the write lock).
const LEASE_WINDOW: i64 = 512;

/// At most this many rows queued since the lease before are weighed (a
/// decider thousands of replies ahead of a paced sender).
const LEASE_WINDOW_MAX: i64 = 8192;

/// The newest outbox row id when this process last leased (`-1`: no lease
/// yet). A fresh player's reply is weighed at the first lease after its
/// commit however many were queued after it: the window of that lease
/// reaches back to it. A window fixed at the newest 512 lets a paced
/// sender (a lease every quarter second) fall behind a burst decided at a
/// thousand replies a second, and leaves the fresh reply to the oldest
/// half, behind the burst (2.4 s in the benchmark).
#[derive(Debug)]
pub struct LeaseCursor(AtomicI64);

impl Default for LeaseCursor {
    fn default() -> LeaseCursor {
        LeaseCursor(AtomicI64::new(-1))
    }
}

impl LeaseCursor {
    /// How many rows a lease weighs when the newest row id is `newest`:
    /// those queued since the lease before and [`LEASE_WINDOW`] more,
    /// within [`LEASE_WINDOW_MAX`].
    fn window(&self, newest: i64) -> i64 {
        let before = self.0.load(Ordering::Relaxed);
        if before < 0 {
            return LEASE_WINDOW;
        }
        newest
            .saturating_sub(before)
            .saturating_add(LEASE_WINDOW)
            .clamp(LEASE_WINDOW, LEASE_WINDOW_MAX)
    }

    /// A lease weighed the rows up to `newest`.
    fn leased(&self, newest: i64) {
        self.0.store(newest, Ordering::Relaxed);
    }
}

/// Leases up to `limit` rows due at `now` for `owner` until `until`: half
/// of them first in their recipient's queue (no older mail to the same
/// address waits), those to the players with the fewest mails waiting
/// first (among those due queued since the process's lease before and the
/// newest [`LEASE_WINDOW`] more, see [`LeaseCursor`]; a player's
/// sub-addresses count as one), then the newest; the rest the oldest due.
/// Returns them oldest first, each with its body: taken from `fresh` if
/// this process committed it a moment ago, else read from the database.
///
/// The window is read in one statement ([`outbox::due_window`]) and
/// weighed here ([`by_fewest_waiting`]): weighed in SQL, its grouping,
/// join and sort were most of a lease's work. [`outbox::lease`] takes only
/// rows still due and not leased, so two processes never lease the same
/// row. A row whose lease has not run out is left alone, `owner`'s own too
/// (a batch it is sending while it leases the next); an expired lease (its
/// process died mid-send) may be taken. A process gives its own leases
/// back ([`outbox::release`]) when it cannot tell which of them went out.
pub async fn lease_due(
    conn: &mut AnyConnection,
    now: i64,
    limit: i64,
    owner: &str,
    until: i64,
    fresh: &FreshBodies,
    cursor: &LeaseCursor,
) -> Result<Vec<OutboxRow>, StoreError> {
    // Half the batch from each end of what is due: the oldest mail goes on
    // draining, and a reply to a fresh move does not wait behind a whole
    // backlog (a burst of a thousand moves), only behind one batch. The
    // other half takes only the heads of the recipients' queues (mail to
    // one recipient keeps its order), the players with the fewest mails
    // waiting first, as the intake orders senders (`intake::order`): a
    // burst decided faster than the relay takes its replies queues new
    // mail of its own after a fresh player's all the time, and its players
    // write from sub-addresses (`anna+g17@`), one queue each, so "newest
    // first" alone would leave the fresh player's reply to the oldest
    // half, behind every older reply of the burst (1.3-1.9 s in the
    // benchmark).
    let newest = usize::try_from(limit / 2).unwrap_or(0);
    let last = outbox::newest_id(conn).await?;
    let window = if newest > 0 { cursor.window(last) } else { 0 };
    let oldest = limit - i64::try_from(newest).unwrap_or(0);
    let (recent, oldest) = outbox::due_window(conn, now, window, oldest).await?;
    let mut picked = by_fewest_waiting(&recent);
    picked.truncate(newest);
    for id in oldest {
        if !picked.contains(&id) {
            picked.push(id);
        }
    }
    if picked.is_empty() {
        cursor.leased(last);
        return Ok(Vec::new());
    }
    let rows = outbox::lease(conn, &picked, now, owner, until).await?;
    cursor.leased(last);
    // A body this process committed a moment ago is taken from memory;
    // the others are read from the database.
    let mut ready = Vec::with_capacity(rows.len());
    let mut unread = Vec::new();
    for mut r in rows {
        match fresh.take(&r.message_id) {
            Some(raw) => {
                r.raw = raw;
                ready.push(r);
            }
            None => unread.push(r),
        }
    }
    ready.extend(outbox::with_bodies(conn, unread).await?);
    ready.sort_by_key(|r| r.id);
    Ok(ready)
}

/// The ids of the rows of `recent` (id, recipient, whether it heads its
/// recipient's queue; newest first) that head their queue, in the order a
/// lease takes them: the players with the fewest rows in `recent` first,
/// and among equals the newest first. A player is the recipient without
/// its sub-address, as the intake counts senders
/// ([`crate::intake::order::base_address`]).
fn by_fewest_waiting(recent: &[(i64, String, bool)]) -> Vec<i64> {
    let players: Vec<_> = recent
        .iter()
        .map(|(_, r, _)| crate::intake::order::base_address(r))
        .collect();
    let mut waiting: std::collections::HashMap<&str, usize> =
        std::collections::HashMap::with_capacity(players.len());
    for p in &players {
        *waiting.entry(p).or_default() += 1;
    }
    let mut ranked: Vec<(usize, std::cmp::Reverse<i64>)> = recent
        .iter()
        .zip(&players)
        .filter(|((_, _, head), _)| *head)
        .map(|((id, _, _), p)| (waiting[&**p], std::cmp::Reverse(*id)))
        .collect();
    ranked.sort_unstable();
    ranked.into_iter().map(|(_, id)| id.0).collect()
}
#[cfg(test)]
mod lease_tests {
    /// The lease's weighing ([`super::by_fewest_waiting`]), over windows of
    /// random recipients (repeated players, sub-addresses, a `+` after the
    /// `@` or first, no `@`, letters beyond ASCII), some of them not first
    /// in their queue, gives the order the weighing written in SQL below
    /// gives: only the heads of queues, the players with the fewest rows of
    /// the window waiting first, then the newest.
    #[tokio::test]
    async fn the_weighing_orders_a_window_as_the_same_weighing_in_sql_does() {
        use sqlx::Connection as _;
        sqlx::any::install_default_drivers();
        let mut conn = sqlx::AnyConnection::connect("sqlite::memory:")
            .await
            .unwrap();
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for case in 0..300 {
            sqlx::query(
                "DROP TABLE IF EXISTS w; CREATE TABLE w (id INTEGER PRIMARY KEY, recipient TEXT, head INTEGER)",
            )
            .execute(&mut conn)
            .await
            .unwrap();
            let mut recent = Vec::new();
            for id in 1..=1 + next(60) {
                let (p, g) = (next(7), next(5));
                let to = match next(7) {
                    0 => format!("p{p}@x.org"),
                    1 | 2 => format!("p{p}+g{g}@x.org"),
                    3 => format!("+p{p}@x.org"),
                    4 => format!("p{p}@x+{g}.org"),
                    5 => format!("pö{p}+ü{g}@x.org"),
                    _ => format!("p{p}+{g}"),
                };
                let id = i64::try_from(id).unwrap();
                let head = next(3) != 0;
                sqlx::query("INSERT INTO w VALUES ($1, $2, $3)")
                    .bind(id)
                    .bind(&to)
                    .bind(head)
                    .execute(&mut conn)
                    .await
                    .unwrap();
                recent.push((id, to, head));
            }
            recent.reverse();
            let sql: Vec<i64> = sqlx::query_scalar(
                "WITH recent AS (
                    SELECT id, recipient, head,
                           CASE WHEN instr(recipient, '+') BETWEEN 1 AND instr(recipient, '@')
                                THEN substr(recipient, 1, instr(recipient, '+') - 1)
                                     || substr(recipient, instr(recipient, '@'))
                                ELSE recipient END AS player
                    FROM w),
                 waiting AS (SELECT player, COUNT(*) AS n FROM recent GROUP BY player)
                 SELECT r.id FROM recent r JOIN waiting w ON w.player = r.player
                 WHERE r.head
                 ORDER BY w.n, r.id DESC",
            )
            .fetch_all(&mut conn)
            .await
            .unwrap();
            assert_eq!(
                super::by_fewest_waiting(&recent),
                sql,
                "case {case}: {recent:?}"
            );
        }
    }
}
