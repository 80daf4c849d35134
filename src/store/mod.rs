//! SQLite through sqlx: opening the database, its migrations, and one module
//! per table of small functions that take a connection or transaction. [IO]
//!
//! The store keeps tables, not use cases: what happens when a message
//! arrives is `handle`, what the organiser does is `organise`; both drive
//! these functions inside one `BEGIN IMMEDIATE` transaction ([`Store::begin`]).
//! Which outbox mail is sent next, and the bodies kept for the sender, are
//! the sender's (`daemon::lease`). The store does hold this process's one
//! writer and the turns at it ([`Store::write_turn`]): that is how a
//! database is written, whatever the use case.

pub mod batch;
pub mod clocks;
pub mod conditionals;
pub mod events;
pub mod failures;
pub mod games;
pub mod messages;
pub mod outbox;
pub mod players;
pub mod renders;
pub mod xfcc;

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::sqlite::{SqliteAutoVacuum, SqliteConnectOptions, SqliteJournalMode};
use sqlx::{
    Any, AnyPool, ConnectOptions as _, Connection as _, Executor as _, Row as _, Transaction,
};

use crate::game::RecordError;

pub use games::StoredGame;
pub use outbox::OutboxRow;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sql(#[from] sqlx::Error),
    #[error("database migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("cannot create the database folder {path}: {source}")]
    Folder {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("game {game} is damaged: {source}")]
    Corrupt { game: i64, source: RecordError },
    #[error("event table: {0}")]
    Crosstable(#[from] crate::event::CrosstableError),
    #[error("game {game}: stored value `{value}` is not valid")]
    BadValue { game: i64, value: String },
    #[error("player {email}: stored value `{value}` is not valid")]
    BadPlayer { email: String, value: String },
    #[error("{0}")]
    Password(String),
    /// A write did not touch the rows it must have: the transaction is not
    /// kept.
    #[error("database: {0}")]
    Invariant(String),
}

pub use crate::now::now_secs;

/// A first connection to PostgreSQL at `shown` (its URL without password) that
/// failed, said as the operator acts on it: the server not reached (still
/// an IO error, so a daemon waits for it), the login refused (the password
/// file), or the database missing.
fn connect_error(shown: &str, e: sqlx::Error) -> StoreError {
    match e {
        sqlx::Error::Io(io) => sqlx::Error::Io(std::io::Error::new(
            io.kind(),
            format!("cannot reach PostgreSQL at {shown}: {io}"),
        ))
        .into(),
        sqlx::Error::Database(db) if matches!(db.code().as_deref(), Some("28P01" | "28000")) => {
            StoreError::Password(format!(
                "PostgreSQL at {shown} refused the login ({}): check the user in the URL \
                 and the password in [database] password_file",
                db.message()
            ))
        }
        other => other.into(),
    }
}

/// What every SQLite connection sets when it opens.
const SQLITE_PRAGMAS: &[&str] = &[
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 10000",
    // FULL: a commit survives an OS crash or power loss. NORMAL in WAL may
    // roll one back after the inbox was told the message was handled and
    // the replies were sent (see BENCHMARKS.md).
    "PRAGMA synchronous = FULL",
    // 8 MiB of pages per connection (SQLite's default is 2 MiB): a database
    // with a long history keeps the index pages a message touches in memory
    // instead of reading them again. Taken only as used: idle memory does
    // not grow.
    "PRAGMA cache_size = -8192",
    // Pages read through a memory map of up to 256 MiB: a page not in a
    // connection's cache costs a fault on the kernel's cached copy, not a
    // pread and a copy into SQLite's cache (a move in a 300-ply game read
    // 5.8 pages more than one in a new game: 2,214 against 1,018 preads
    // answering 200 moves; 1,185 and 661 mapped). Read only: a stray write
    // cannot reach the file. The price SQLite documents: an I/O error while
    // reading is a signal, not an error returned (a disk failing under the
    // database, which stops the referee either way). A file shrunk by
    // another process's reclaim is mapped anew (tested).
    "PRAGMA mmap_size = 268435456",
];

/// A seat as the tables write it: `white` or `black`.
pub(crate) fn seat_str(seat: shakmaty::Color) -> &'static str {
    match seat {
        shakmaty::Color::White => "white",
        shakmaty::Color::Black => "black",
    }
}

/// A truth value of a row: SQLite gives a comparison or `EXISTS` as an
/// integer, PostgreSQL as a boolean; either is read here, so one SQL text
/// serves both.
pub(crate) fn flag(row: &sqlx::any::AnyRow, column: &str) -> Result<bool, sqlx::Error> {
    match row.try_get::<bool, _>(column) {
        Ok(b) => Ok(b),
        Err(sqlx::Error::ColumnDecode { .. }) => Ok(row.try_get::<i64, _>(column)? != 0),
        Err(e) => Err(e),
    }
}

/// Bytes of a row as stored, whether written as a blob or (by an older
/// version, or a hand) as text: SQLite's driver gives either as bytes,
/// the database-neutral row only the type it was written as.
pub(crate) fn bytes(row: &sqlx::any::AnyRow, column: &str) -> Result<Vec<u8>, sqlx::Error> {
    match row.try_get::<Vec<u8>, _>(column) {
        Ok(b) => Ok(b),
        Err(sqlx::Error::ColumnDecode { .. }) => Ok(row.try_get::<String, _>(column)?.into_bytes()),
        Err(e) => Err(e),
    }
}

impl StoreError {
    /// Whether trying again later may succeed without anyone's help: the
    /// database was busy or locked, or could not be reached. A damaged row
    /// or a refused write fails the same way every time.
    pub fn is_transient(&self) -> bool {
        match self {
            StoreError::Sql(e) => sql_transient(e),
            StoreError::Folder { .. } => true,
            // The database went away while the migrations were checked.
            StoreError::Migrate(
                sqlx::migrate::MigrateError::Execute(e)
                | sqlx::migrate::MigrateError::ExecuteMigration(e, _),
            ) => sql_transient(e),
            StoreError::Migrate(_)
            | StoreError::Password(_)
            | StoreError::Corrupt { .. }
            | StoreError::BadValue { .. }
            | StoreError::BadPlayer { .. }
            | StoreError::Crosstable(_)
            | StoreError::Invariant(_) => false,
        }
    }
}

/// Whether trying again later may succeed after the database error `e`
/// ([`StoreError::is_transient`]).
fn sql_transient(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Protocol(_) => true,
        sqlx::Error::Database(db)
            if db
                .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
                .is_some() =>
        {
            postgres_transient(db.code().as_deref().unwrap_or_default())
        }
        sqlx::Error::Database(db) => {
            // SQLITE_BUSY (5), SQLITE_LOCKED (6) and their extended codes.
            let code = db.code();
            let primary = code
                .as_deref()
                .and_then(|c| c.parse::<i64>().ok())
                .map(|c| c & 0xff);
            matches!(primary, Some(5 | 6))
        }
        _ => false,
    }
}

/// Whether PostgreSQL's SQLSTATE `code` says that trying again later may
/// succeed: the connection was lost or refused (class 08), the server is
/// shutting down, crashed or starting up (57P01, 57P02, 57P03: a restart
/// or a failover), a serialization failure or deadlock (40001, 40P01), or
/// too many connections (53300).
fn postgres_transient(code: &str) -> bool {
    code.starts_with("08")
        || matches!(
            code,
            "57P01" | "57P02" | "57P03" | "40001" | "40P01" | "53300"
        )
}

pub use crate::config::Backend;

/// The key of PostgreSQL's transaction-scoped advisory lock that every
/// write transaction of [`Store::begin`] takes first: the same one writer
/// at a time that SQLite's `BEGIN IMMEDIATE` gives, across every daemon
/// sharing the database (see [`Store::begin`]).
const WRITE_LOCK: i64 = 0x7769_6c64_7477_0001;

#[derive(Clone)]
pub struct Store {
    /// Reads, and what other modules run through [`Store::pool`].
    pool: AnyPool,
    /// The one connection this process writes through (see [`Store::open`]).
    writer: AnyPool,
    /// This process's turns at the write lock (see [`Store::write_turn`]).
    turn: std::sync::Arc<tokio::sync::Mutex<()>>,
    backend: Backend,
}

impl Store {
    /// Opens the store at `url` (SQLite's file is created if needed) and
    /// applies the embedded migrations. A PostgreSQL URL takes its password
    /// from `password` (the configuration's password file), or from the
    /// URL itself.
    pub async fn open_with_password(
        url: &str,
        password: Option<&str>,
    ) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        match Backend::of(url) {
            Some(Backend::Postgres) => Store::open_postgres(url, password).await,
            _ => Store::open_sqlite(url).await,
        }
    }

    /// The store `config`'s `[database]` names, with its password file read.
    pub async fn for_config(config: &crate::config::Config) -> Result<Store, StoreError> {
        let password = match &config.database_password {
            Some(secret) => Some(
                secret
                    .read()
                    .map_err(|e| StoreError::Password(e.to_string()))?,
            ),
            None => None,
        };
        Store::open_with_password(&config.database_url, password.as_deref()).await
    }

    /// [`Store::open_with_password`] with no password beside the URL.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::open_with_password(url, None).await
    }

    /// Opens (creating if needed) the SQLite database at `url`, with WAL,
    /// foreign keys and a busy timeout, and applies the embedded migrations.
    async fn open_sqlite(url: &str) -> Result<Store, StoreError> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10))
            // Pages freed (a sent mail's body) are given back to the file
            // system in the background (`Store::reclaim`): after a backlog of
            // mail a database does not stay its peak size with its free pages
            // scattered among the live ones. Takes effect on a new database;
            // an older one is converted once at open.
            .auto_vacuum(SqliteAutoVacuum::Incremental);
        if let Some(parent) = Path::new(options.get_filename()).parent()
            && !parent.as_os_str().is_empty()
        {
            std::fs::create_dir_all(parent).map_err(|source| StoreError::Folder {
                path: parent.to_owned(),
                source,
            })?;
        }
        // The file's own settings (WAL, incremental vacuum) and the
        // migrations, once, through SQLite's own driver; the pools below
        // set what each connection must.
        {
            let mut first = options.connect().await?;
            sqlx::migrate!("./migrations/sqlite")
                .run(&mut first)
                .await?;
            Store::convert_to_incremental_vacuum(&mut first).await;
            first.close().await?;
        }
        let any = AnyConnectOptions::from_str(url)?;
        let per_connection = || {
            AnyPoolOptions::new().after_connect(|conn, _| {
                Box::pin(async move {
                    for pragma in SQLITE_PRAGMAS {
                        conn.execute(*pragma).await?;
                    }
                    Ok(())
                })
            })
        };
        // Every write of this process goes through one connection, the
        // writer: in WAL mode a connection drops its whole page cache when
        // it sees that another one committed, so with writes spread over
        // the pool (a group on one connection, the sender's lease and its
        // marks on the next) each began by reading its pages again —
        // 11,390 preads for 2,000 messages against 3,259 with the writer
        // (`strace -c -f`, the pipeline's workload). SQLite lets one
        // writer in at a time anyway; reads keep a pool of their own.
        let writer = per_connection()
            .max_connections(1)
            .connect_with(any.clone())
            .await?;
        let pool = per_connection()
            .max_connections(3)
            .connect_with(any)
            .await?;
        let store = Store {
            pool,
            writer,
            turn: Default::default(),
            backend: Backend::Sqlite,
        };
        store.backfill_keys().await?;
        Ok(store)
    }

    /// Connects to the PostgreSQL database at `url` and applies its
    /// migrations (sqlx's migrator holds an advisory lock meanwhile, so
    /// daemons starting together migrate once).
    async fn open_postgres(url: &str, password: Option<&str>) -> Result<Store, StoreError> {
        let mut any = AnyConnectOptions::from_str(url)?;
        // The URL as errors show it: never with a password.
        let mut shown = any.database_url.clone();
        shown
            .set_password(None)
            .map_err(|()| StoreError::Invariant(format!("`{url}` cannot hold a password")))?;
        if let Some(password) = password {
            any.database_url
                .set_password(Some(password))
                .map_err(|()| StoreError::Invariant(format!("`{url}` cannot hold a password")))?;
        }
        // One connection first: a server that cannot be reached, a refused
        // password or a missing database is then one sentence naming the
        // server, rather than a pool's timeout.
        match sqlx::AnyConnection::connect_with(&any).await {
            Ok(conn) => conn.close().await?,
            Err(e) => return Err(connect_error(shown.as_str(), e)),
        }
        // One writer per process as on SQLite: the turns of
        // [`Store::write_turn`] order it, and the advisory lock of
        // [`Store::begin`] orders the daemons.
        let writer = AnyPoolOptions::new()
            .max_connections(1)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(any.clone())
            .await?;
        sqlx::migrate!("./migrations/postgres").run(&writer).await?;
        let pool = AnyPoolOptions::new()
            .max_connections(3)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(any)
            .await?;
        let store = Store {
            pool,
            writer,
            turn: Default::default(),
            backend: Backend::Postgres,
        };
        store.backfill_keys().await?;
        Ok(store)
    }

    /// Plies stored by a version before position keys: filled in once.
    async fn backfill_keys(&self) -> Result<(), StoreError> {
        let unkeyed: Option<i64> =
            sqlx::query_scalar("SELECT 1 FROM moves WHERE key IS NULL LIMIT 1")
                .fetch_optional(&self.pool)
                .await?;
        if unkeyed.is_some() {
            let mut tx = self.begin().await?;
            let filled = games::backfill_keys(&mut tx).await?;
            tx.commit().await?;
            tracing::info!(
                games = filled,
                "position keys filled in for games stored before them"
            );
        }
        Ok(())
    }

    /// Which engine this store runs on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// This process's turn at the write lock, first come first served: the
    /// intake holds it for a group's transaction, the outbox for a lease
    /// and for marking mail sent.
    ///
    /// It belongs to the store because the store is where this process
    /// has one writer: every write goes through the one connection of
    /// [`Store::open`], and this turn orders this process's writers in
    /// front of it. SQLite's own wait for a busy lock polls with growing
    /// sleeps, and a connection that commits and begins again at once (the
    /// intake in a burst) wins nearly every time: the outbox's marks would
    /// wait up to 1.8 s behind back-to-back groups. Waiting here instead,
    /// the outbox writes between two groups. Other processes (the CLI) still
    /// meet SQLite's busy wait.
    pub async fn write_turn(&self) -> tokio::sync::OwnedMutexGuard<()> {
        self.turn.clone().lock_owned().await
    }

    /// The connection this process writes through, for writes that are
    /// not one `BEGIN IMMEDIATE` transaction ([`Store::begin`]): each
    /// statement commits alone, or the caller begins a deferred
    /// transaction on it. Take [`Store::write_turn`] first.
    pub async fn write_conn(&self) -> Result<sqlx::pool::PoolConnection<Any>, StoreError> {
        Ok(self.writer.acquire().await?)
    }

    /// A write transaction, taken at once (`BEGIN IMMEDIATE`): two writers
    /// never both read a game and then both change it.
    ///
    /// On PostgreSQL the transaction first takes a transaction-scoped
    /// advisory lock, the same for every daemon on the database: writes
    /// are ordered one at a time as on SQLite, and each statement after it
    /// reads what every earlier writer committed (read committed). A
    /// message two daemons read at once is thus judged by the first, and
    /// the second finds it recorded.
    pub async fn begin(&self) -> Result<Transaction<'static, Any>, StoreError> {
        match self.backend {
            Backend::Sqlite => Ok(self.writer.begin_with("BEGIN IMMEDIATE").await?),
            Backend::Postgres => {
                let mut tx = self.writer.begin().await?;
                sqlx::query("SELECT pg_advisory_xact_lock($1)")
                    .bind(WRITE_LOCK)
                    .execute(&mut *tx)
                    .await?;
                Ok(tx)
            }
        }
    }

    /// Game `id` with all of its record, the keys a repetition claim counts
    /// included (a move's path leaves those unread, see [`games::load`]).
    pub async fn game(&self, id: i64) -> Result<Option<StoredGame>, StoreError> {
        let mut conn = self.pool.acquire().await?;
        let mut game = games::load(&mut conn, id).await?;
        if let Some(g) = &mut game {
            games::read_window(&mut conn, id, &mut g.view.record).await?;
        }
        Ok(game)
    }

    /// Both seats' stored sets of conditional moves of game `id`.
    pub async fn conditionals(
        &self,
        id: i64,
    ) -> Result<shakmaty::ByColor<Option<crate::conditional::ConditionalTree>>, StoreError> {
        conditionals::load(&mut *self.pool.acquire().await?, id).await
    }

    pub async fn game_ids(&self) -> Result<Vec<i64>, StoreError> {
        games::ids(&mut *self.pool.acquire().await?).await
    }

    /// Outbox rows due now, oldest first (leased or not).
    pub async fn due_mail(&self, now: i64, limit: i64) -> Result<Vec<OutboxRow>, StoreError> {
        outbox::due(&mut *self.pool.acquire().await?, now, limit).await
    }

    /// Seconds until the next pending row is due, if any is pending.
    pub async fn next_due_in(&self, now: i64) -> Result<Option<i64>, StoreError> {
        outbox::next_due_in(&mut *self.pool.acquire().await?, now).await
    }

    /// Gives back the rows `owner` leased and did not finish.
    pub async fn release_leases(&self, owner: &str) -> Result<(), StoreError> {
        outbox::release(&mut *self.writer.acquire().await?, owner).await
    }

    /// Gives back the outbox rows `owner`, a process that is gone, leased:
    /// their mails are in doubt from `now` ([`outbox::release_dead`]).
    pub async fn release_dead_leases(&self, owner: &str, now: i64) -> Result<(), StoreError> {
        outbox::release_dead(&mut *self.writer.acquire().await?, owner, now).await
    }

    /// Puts outbox row `id`, in doubt and without a receipt yet, back
    /// until `until` ([`outbox::await_receipt`]).
    pub async fn await_receipt(&self, id: i64, until: i64) -> Result<(), StoreError> {
        outbox::await_receipt(&mut *self.writer.acquire().await?, id, until).await
    }

    /// Who holds a live lease on an unfinished outbox row.
    pub async fn outbox_leaseholders(&self, now: i64) -> Result<Vec<String>, StoreError> {
        outbox::leaseholders(&mut *self.pool.acquire().await?, now).await
    }

    pub async fn mark_sent(&self, id: i64) -> Result<(), StoreError> {
        outbox::mark_sent(&mut *self.writer.acquire().await?, id).await
    }

    /// Marks the rows `ids` sent (and drops their bodies) in one commit.
    pub async fn mark_sent_many(&self, ids: &[i64]) -> Result<(), StoreError> {
        let _turn = self.write_turn().await;
        let mut tx = self.writer.begin().await?;
        outbox::mark_sent_many(&mut tx, ids).await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn mark_retry(&self, id: i64, next_at: i64, error: &str) -> Result<(), StoreError> {
        outbox::mark_retry(&mut *self.writer.acquire().await?, id, next_at, error).await
    }

    pub async fn mark_failed(&self, id: i64, error: &str) -> Result<(), StoreError> {
        outbox::mark_failed(&mut *self.writer.acquire().await?, id, error).await
    }

    /// Outbox rows as `wildt outbox list` shows them.
    pub async fn outbox_list(
        &self,
        filter: outbox::ListFilter,
    ) -> Result<Vec<outbox::OutboxEntry>, StoreError> {
        outbox::list(&mut *self.pool.acquire().await?, filter).await
    }

    /// Makes outbox row `id` due now again, unless it was sent.
    pub async fn requeue_mail(&self, id: i64) -> Result<outbox::Requeued, StoreError> {
        outbox::requeue(&mut *self.writer.acquire().await?, id, now_secs()).await
    }

    /// The ids of every failed outbox row.
    pub async fn failed_mail_ids(&self) -> Result<Vec<i64>, StoreError> {
        outbox::failed_ids(&mut *self.pool.acquire().await?).await
    }

    /// Counts of what the outbox holds: (pending, sent, failed).
    pub async fn outbox_counts(&self) -> Result<(i64, i64, i64), StoreError> {
        outbox::counts(&mut *self.pool.acquire().await?).await
    }

    /// A database made before wildt set `auto_vacuum = INCREMENTAL`: one
    /// `VACUUM` on `conn`, which asks for it, converts it (and compacts it), logged with its duration. If
    /// that fails (a full disk), the database works as before.
    async fn convert_to_incremental_vacuum(conn: &mut sqlx::SqliteConnection) {
        let mode: Result<i64, sqlx::Error> = sqlx::query_scalar("PRAGMA auto_vacuum")
            .fetch_one(&mut *conn)
            .await;
        if !matches!(mode, Ok(0)) {
            return;
        }
        let started = std::time::Instant::now();
        match sqlx::query("VACUUM").execute(&mut *conn).await {
            Ok(_) => tracing::info!(
                ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
                "database converted to incremental vacuum (once)"
            ),
            Err(e) => tracing::warn!(error = %e,
                "database not converted to incremental vacuum; free pages stay in the file"),
        }
    }

    /// Gives every free page back to the file system at once, when most of
    /// the file is free (a backlog of replies was sent): `VACUUM` copies only
    /// the live pages, while moving them one free page at a time
    /// (`incremental_vacuum`) costs in proportion to the free pages, many
    /// times more after a large backlog. Returns the free pages left, or
    /// `None` when most of the file is in use (the caller reclaims by steps).
    /// PostgreSQL's autovacuum does this on its own: there, nothing is done.
    pub async fn compact_if_mostly_free(&self, keep: i64) -> Result<Option<i64>, StoreError> {
        if self.backend != Backend::Sqlite {
            return Ok(None);
        }
        let mut conn = self.writer.acquire().await?;
        let row = sqlx::query(
            "SELECT (SELECT freelist_count FROM pragma_freelist_count) AS free,
                    (SELECT page_count FROM pragma_page_count) AS pages",
        )
        .fetch_one(&mut *conn)
        .await?;
        let (free, pages): (i64, i64) = (row.try_get("free")?, row.try_get("pages")?);
        if free <= keep || free * 2 <= pages {
            return Ok(None);
        }
        sqlx::query("VACUUM").execute(&mut *conn).await?;
        let left: i64 = sqlx::query_scalar("PRAGMA freelist_count")
            .fetch_one(&mut *conn)
            .await?;
        Ok(Some(left))
    }

    /// Gives up to `max_pages` free pages back to the file system
    /// (`PRAGMA incremental_vacuum`) when more than `keep` are free; returns
    /// how many were free before. Bounded, so it holds the write lock only
    /// briefly.
    /// Nothing on PostgreSQL (its autovacuum), where it returns 0.
    pub async fn reclaim(&self, keep: i64, max_pages: i64) -> Result<i64, StoreError> {
        if self.backend != Backend::Sqlite {
            return Ok(0);
        }
        let mut conn = self.writer.acquire().await?;
        let free: i64 = sqlx::query_scalar("PRAGMA freelist_count")
            .fetch_one(&mut *conn)
            .await?;
        if free > keep {
            sqlx::query(&format!("PRAGMA incremental_vacuum({max_pages})"))
                .execute(&mut *conn)
                .await?;
        }
        Ok(free)
    }

    pub async fn close(&self) {
        self.pool.close().await;
        self.writer.close().await;
    }
}

#[cfg(test)]
mod transient_tests {
    use super::postgres_transient;

    #[test]
    fn a_postgresql_restart_or_lost_connection_is_transient_and_a_refused_statement_is_not() {
        for code in [
            "08006", "08001", "57P01", "57P02", "57P03", "40001", "40P01", "53300",
        ] {
            assert!(postgres_transient(code), "{code}");
        }
        // A syntax error, a unique violation, an undefined table, no code.
        for code in ["42601", "23505", "42P01", ""] {
            assert!(!postgres_transient(code), "{code}");
        }
    }
}
