//! The one connection this process writes through, held for good behind
//! the turn that orders its writers, and the `BEGIN IMMEDIATE`
//! transaction taken on it. [IO: SQLite]
//!
//! It was a pool of one connection. Every transaction then took the
//! connection out of the pool and gave it back, and sqlx gives a
//! connection back from a task it spawns, which first sends the
//! connection a ping and waits for the answer; taking it out pinged it
//! again. Between two groups of a burst the intake waited for the
//! outbox's connection to come back this way: about 2.5 ms a group, a
//! tenth of a pipeline run's time (BENCHMARKS, issue 17, twenty-second
//! round). Held here, the connection is handed from writer to writer
//! with the turn, and nothing else runs between them.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use sqlx::sqlite::SqliteTransactionManager;
use sqlx::{SqliteConnection, TransactionManager as _};
use tokio::sync::{Mutex, OwnedMappedMutexGuard, OwnedMutexGuard};

use super::StoreError;

/// The writer connection (`None` once [`Writer::close`]d).
#[derive(Clone)]
pub(super) struct Writer(Arc<Mutex<Option<SqliteConnection>>>);

impl Writer {
    pub(super) fn new(conn: SqliteConnection) -> Writer {
        Writer(Arc::new(Mutex::new(Some(conn))))
    }

    /// Waits for this process's turn at the write lock, first come first
    /// served, and gives the connection for it.
    pub(super) async fn turn(&self) -> Result<WriteTurn, StoreError> {
        let guard: OwnedMutexGuard<Option<SqliteConnection>> = self.0.clone().lock_owned().await;
        OwnedMutexGuard::try_map(guard, Option::as_mut)
            .map(WriteTurn)
            .map_err(|_| StoreError::Invariant("the database was closed".into()))
    }

    /// Closes the connection once the writer before is done; later turns
    /// fail.
    pub(super) async fn close(&self) {
        let conn = self.0.lock().await.take();
        if let Some(conn) = conn {
            use sqlx::Connection as _;
            if let Err(e) = conn.close().await {
                tracing::warn!(error = %e, "the database's writer connection did not close cleanly");
            }
        }
    }
}

/// This process's turn at the write lock: the writer connection, for as
/// long as it is held.
pub struct WriteTurn(OwnedMappedMutexGuard<Option<SqliteConnection>, SqliteConnection>);

impl Deref for WriteTurn {
    type Target = SqliteConnection;
    fn deref(&self) -> &SqliteConnection {
        &self.0
    }
}

impl DerefMut for WriteTurn {
    fn deref_mut(&mut self) -> &mut SqliteConnection {
        &mut self.0
    }
}

/// A `BEGIN IMMEDIATE` transaction on the writer connection, holding the
/// turn until it ends. Dropped without [`WriteTx::commit`], it is rolled
/// back (the rollback is sent at once and runs before the connection's
/// next statement, as sqlx's own transactions do).
pub struct WriteTx {
    conn: WriteTurn,
    open: bool,
}

impl WriteTx {
    pub(super) async fn begin(mut conn: WriteTurn) -> Result<WriteTx, sqlx::Error> {
        SqliteTransactionManager::begin(&mut conn, Some("BEGIN IMMEDIATE".into())).await?;
        Ok(WriteTx { conn, open: true })
    }

    pub async fn commit(mut self) -> Result<(), sqlx::Error> {
        SqliteTransactionManager::commit(&mut self.conn).await?;
        self.open = false;
        Ok(())
    }

    pub async fn rollback(mut self) -> Result<(), sqlx::Error> {
        SqliteTransactionManager::rollback(&mut self.conn).await?;
        self.open = false;
        Ok(())
    }
}

impl Drop for WriteTx {
    fn drop(&mut self) {
        if self.open {
            SqliteTransactionManager::start_rollback(&mut self.conn);
        }
    }
}

impl Deref for WriteTx {
    type Target = SqliteConnection;
    fn deref(&self) -> &SqliteConnection {
        &self.conn
    }
}

impl DerefMut for WriteTx {
    fn deref_mut(&mut self) -> &mut SqliteConnection {
        &mut self.conn
    }
}
