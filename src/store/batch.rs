//! Statements sent to the database together: one round trip for several
//! statements on SQLite, each statement's rows kept apart and each write's
//! count of changed rows checked. [IO: database]
//!
//! Every round trip to sqlx's SQLite thread costs two thread wake-ups; a
//! message's writes are put in a batch and sent with the next message's
//! reads (`handle::handle_group`), so the statements run in the same order
//! as one at a time would, with fewer trips. PostgreSQL's protocol takes
//! one statement with arguments at a time: there the statements run one
//! after another on the same connection, in the same order.
//!
//! Parameters are plain `?`, bound in the order they appear — the one
//! place in the store where they are not `$1, $2…`: sqlx binds SQLite's
//! numbered parameters by absolute index across a batch, so one statement's
//! `$1` would be the batch's first argument. For PostgreSQL each statement's
//! `?`s are numbered from `$1` before it is sent ([`numbered`]).

use futures::TryStreamExt as _;
use sqlx::any::{AnyArguments, AnyRow};
use sqlx::{AnyConnection, Arguments as _, Either, Executor as _};

use super::StoreError;

/// One statement of a batch, with its arguments and what it must change.
struct Statement {
    sql: String,
    /// PostgreSQL's text where the dialects differ (`None`: `sql` serves).
    postgres: Option<String>,
    args: AnyArguments<'static>,
    /// The rows it must change (`None`: not checked).
    changes: Option<u64>,
    /// What it is, for the error.
    what: &'static str,
}

/// Statements with their arguments, and what each write must change.
#[derive(Default)]
pub struct Batch {
    statements: Vec<Statement>,
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what: Vec<_> = self.statements.iter().map(|s| s.what).collect();
        f.debug_struct("Batch")
            .field("statements", &what)
            .finish_non_exhaustive()
    }
}

impl Batch {
    pub fn is_empty(&self) -> bool {
        self.statements.is_empty()
    }

    /// How many statements the batch holds.
    pub fn len(&self) -> usize {
        self.statements.len()
    }

    /// The statements as SQLite is sent them, `;`-separated (for a query
    /// plan; the values bound are not in it).
    pub fn sql(&self) -> String {
        self.statements
            .iter()
            .map(|s| s.sql.as_str())
            .collect::<Vec<_>>()
            .join(";\n")
    }

    /// Adds one statement (without a `;`) whose `?`s the following
    /// [`Batch::bind`]s fill; a write that must change exactly `changes`
    /// rows says so.
    pub fn push(&mut self, sql: &str, changes: Option<u64>, what: &'static str) {
        self.statements.push(Statement {
            sql: sql.to_owned(),
            postgres: None,
            args: AnyArguments::default(),
            changes,
            what,
        });
    }

    /// As [`Batch::push`], for a statement whose text differs between the
    /// dialects: `sqlite`'s and `postgres`'s `?`s must be the same values in
    /// the same order.
    pub fn push_dialects(
        &mut self,
        sqlite: &str,
        postgres: &str,
        changes: Option<u64>,
        what: &'static str,
    ) {
        self.push(sqlite, changes, what);
        if let Some(last) = self.statements.last_mut() {
            last.postgres = Some(postgres.to_owned());
        }
    }

    /// Binds the next `?` of the last statement pushed.
    pub fn bind<T>(&mut self, value: T) -> Result<(), StoreError>
    where
        T: 'static + Send + sqlx::Encode<'static, sqlx::Any> + sqlx::Type<sqlx::Any>,
    {
        let last = self.statements.last_mut().ok_or_else(|| {
            StoreError::Invariant("a value bound before any statement".to_owned())
        })?;
        last.args.add(value).map_err(sqlx::Error::Encode)?;
        Ok(())
    }

    /// Runs the statements now and leaves the batch empty (for a read that
    /// needs them written).
    pub async fn run_now(&mut self, conn: &mut AnyConnection) -> Result<(), StoreError> {
        std::mem::take(self).run(conn).await?;
        Ok(())
    }

    /// Runs the statements in order (on SQLite in one round trip); the rows
    /// of each, by statement. A write that changed another number of rows
    /// than it must fails the batch (the caller's transaction is then not
    /// kept).
    pub async fn run(self, conn: &mut AnyConnection) -> Result<Vec<Vec<AnyRow>>, StoreError> {
        if self.statements.is_empty() {
            return Ok(Vec::new());
        }
        let expect: Vec<_> = self
            .statements
            .iter()
            .map(|s| (s.changes, s.what))
            .collect();
        let mut rows: Vec<Vec<AnyRow>> = vec![Vec::new()];
        let mut dones = Vec::new();
        if conn.backend_name() == "SQLite" {
            // Several statements in one query with arguments: the SQLite
            // driver runs them in order (sqlx means to drop this for
            // `raw_sql`, which binds nothing).
            let sql = self.sql();
            let mut args = AnyArguments::default();
            for s in self.statements {
                args.values.0.extend(s.args.values.0);
            }
            let mut stream = conn.fetch_many(sqlx::query_with(&sql, args));
            while let Some(item) = stream.try_next().await? {
                collect(item, &mut rows, &mut dones);
            }
        } else {
            for s in self.statements {
                let sql = numbered(s.postgres.as_deref().unwrap_or(&s.sql));
                let mut stream = conn.fetch_many(sqlx::query_with(&sql, s.args));
                while let Some(item) = stream.try_next().await? {
                    collect(item, &mut rows, &mut dones);
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
        for ((want, what), done) in expect.iter().zip(dones) {
            if let Some(want) = want
                && done != *want
            {
                return Err(StoreError::Invariant(format!(
                    "{what}: {done} rows changed, {want} expected"
                )));
            }
        }
        Ok(rows)
    }
}

/// One item of a statement's results: a row joins the statement's rows;
/// the end of a statement keeps its count of changed rows and opens the
/// next statement's rows.
fn collect(
    item: Either<sqlx::any::AnyQueryResult, AnyRow>,
    rows: &mut Vec<Vec<AnyRow>>,
    dones: &mut Vec<u64>,
) {
    match item {
        Either::Right(row) => {
            if let Some(last) = rows.last_mut() {
                last.push(row);
            }
        }
        Either::Left(done) => {
            dones.push(done.rows_affected());
            rows.push(Vec::new());
        }
    }
}

/// `sql` with its `?`s numbered `$1, $2…` in order, as PostgreSQL takes
/// them (a `?` inside a quoted SQL string is kept).
pub fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut quoted = false;
    let mut n = 0;
    for c in sql.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                out.push(c);
            }
            '?' if !quoted => {
                n += 1;
                out.push('$');
                out.push_str(&n.to_string());
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::numbered;

    #[test]
    fn numbered_counts_the_placeholders_outside_quoted_strings() {
        assert_eq!(
            numbered("UPDATE t SET a = ?, b = '?' WHERE c IN (?, ?)"),
            "UPDATE t SET a = $1, b = '?' WHERE c IN ($2, $3)"
        );
        assert_eq!(numbered("SELECT 1"), "SELECT 1");
    }
}
