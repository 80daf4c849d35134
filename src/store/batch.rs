//! Statements sent to the database thread together: one round trip for
//! several statements, each statement's rows kept apart and each write's
//! count of changed rows checked. [IO: SQLite]
//!
//! Every round trip to sqlx's SQLite thread costs two thread wake-ups; a
//! message's writes are put in a batch and sent with the next message's
//! reads (`handle::handle_group`), so the statements run in the same order
//! as one at a time would, with fewer trips.
//!
//! Parameters are plain `?`, bound in the order they appear: sqlx binds
//! `?NNN` by absolute index but counts the unnamed gaps below each
//! statement's highest index positionally across a batch, and stops
//! binding (leaving NULLs) once that count passes the arguments given.

use futures::TryStreamExt as _;
use sqlx::sqlite::{SqliteArguments, SqliteRow};
use sqlx::{Arguments as _, Either, Executor as _, SqliteConnection};

use super::StoreError;

/// Statements with their arguments, and what each write must change.
#[derive(Default)]
pub struct Batch {
    sql: String,
    args: SqliteArguments<'static>,
    /// Per statement: the rows it must change (`None`: not checked), and
    /// what it is, for the error.
    expect: Vec<(Option<u64>, &'static str)>,
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("statements", &self.expect)
            .finish_non_exhaustive()
    }
}

impl Batch {
    pub fn is_empty(&self) -> bool {
        self.expect.is_empty()
    }

    /// How many statements the batch holds.
    pub fn len(&self) -> usize {
        self.expect.len()
    }

    /// The statements as they will be sent, `;`-separated (for a query
    /// plan; the values bound are not in it).
    pub fn sql(&self) -> &str {
        &self.sql
    }

    /// Adds one statement (without a `;`) whose `?`s the following
    /// [`Batch::bind`]s fill; a write that must change exactly `changes`
    /// rows says so.
    pub fn push(&mut self, sql: &str, changes: Option<u64>, what: &'static str) {
        if !self.sql.is_empty() {
            self.sql.push_str(";\n");
        }
        self.sql.push_str(sql);
        self.expect.push((changes, what));
    }

    /// Binds the next `?`.
    pub fn bind<T>(&mut self, value: T) -> Result<(), StoreError>
    where
        T: 'static + Send + sqlx::Encode<'static, sqlx::Sqlite> + sqlx::Type<sqlx::Sqlite>,
    {
        self.args.add(value).map_err(sqlx::Error::Encode)?;
        Ok(())
    }

    /// Runs the statements now and leaves the batch empty (for a read that
    /// needs them written).
    pub async fn run_now(&mut self, conn: &mut SqliteConnection) -> Result<(), StoreError> {
        std::mem::take(self).run(conn).await?;
        Ok(())
    }

    /// Runs the statements in order, in one round trip; the rows of each,
    /// by statement. A write that changed another number of rows than it
    /// must fails the batch (the caller's transaction is then not kept).
    pub async fn run(self, conn: &mut SqliteConnection) -> Result<Vec<Vec<SqliteRow>>, StoreError> {
        let Batch { sql, args, expect } = self;
        if expect.is_empty() {
            return Ok(Vec::new());
        }
        let mut rows: Vec<Vec<SqliteRow>> = vec![Vec::new()];
        // Several statements in one query with arguments: the SQLite driver
        // runs them in order (sqlx means to drop this for `raw_sql`, which
        // binds nothing; the batches of `games` and `outbox` rely on it too).
        let mut stream = conn.fetch_many(sqlx::query_with(&sql, args));
        while let Some(item) = stream.try_next().await? {
            match item {
                Either::Right(row) => {
                    if let Some(last) = rows.last_mut() {
                        last.push(row);
                    }
                }
                Either::Left(done) => {
                    let i = rows.len() - 1;
                    if let Some((Some(want), what)) = expect.get(i)
                        && done.rows_affected() != *want
                    {
                        return Err(StoreError::Invariant(format!(
                            "{what}: {} rows changed, {want} expected",
                            done.rows_affected()
                        )));
                    }
                    rows.push(Vec::new());
                }
            }
        }
        rows.pop();
        if rows.len() != expect.len() {
            return Err(StoreError::Invariant(format!(
                "a batch of {} statements ran {}",
                expect.len(),
                rows.len()
            )));
        }
        Ok(rows)
    }
}
