//! `wildt migrate sqlite-to-postgres`: a club's SQLite database copied into
//! PostgreSQL, whole or not at all. [IO: a SQLite file, a PostgreSQL server]
//!
//! The SQLite file is read in one read transaction, so the copy is the
//! database as of one instant even while a daemon writes to it (WAL). The
//! PostgreSQL database is brought to migrations/postgres first, must hold no
//! row of wildt's, and is written in one transaction: every table in
//! foreign-key order, every identity sequence set past the highest id, then
//! every table counted on both sides. Any difference rolls everything back.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::str::FromStr as _;

use futures::TryStreamExt as _;
use sqlx::postgres::{PgConnectOptions, PgConnection, Postgres};
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection, SqliteRow};
use sqlx::{ConnectOptions as _, Connection as _, QueryBuilder, Row as _};

/// The migrations' own bookkeeping: the target's migrator writes its own.
const MIGRATIONS_TABLE: &str = "_sqlx_migrations";

/// Rows per INSERT, at most; fewer for wide tables (PostgreSQL takes at most
/// 65,535 parameters in one statement).
const BATCH_ROWS: usize = 500;
const MAX_PARAMETERS: usize = 65_535;

#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    #[error("no SQLite database at {0}")]
    Missing(PathBuf),
    #[error("{path} is not a wildt database: it has no {MIGRATIONS_TABLE} table")]
    NotWildt { path: PathBuf },
    #[error(
        "{path} is at migration {found}, and this wildt's last is {expected}: open it once with \
         this wildt (any command that opens the database, such as `wildt game list`, migrates it), \
         then copy it"
    )]
    Behind {
        path: PathBuf,
        found: i64,
        expected: i64,
    },
    #[error(
        "{path} is at migration {found}, newer than this wildt's last ({expected}): copy it with \
         the wildt that wrote it"
    )]
    Ahead {
        path: PathBuf,
        found: i64,
        expected: i64,
    },
    #[error("reading {path}: {source}")]
    Sqlite { path: PathBuf, source: sqlx::Error },
    #[error(
        "the PostgreSQL URL holds a password: give the password in a file (--password-file), \
         never on the command line"
    )]
    PasswordInUrl,
    #[error("{0} is not a PostgreSQL URL (postgres://USER@HOST[:PORT]/DATABASE)")]
    BadUrl(String),
    #[error("reading the password file {path}: {source}")]
    PasswordFile {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot connect to PostgreSQL at {url}: {source}")]
    Connect { url: String, source: sqlx::Error },
    #[error("migrating the PostgreSQL database {url}: {source}")]
    Migrate {
        url: String,
        source: sqlx::migrate::MigrateError,
    },
    #[error(
        "the PostgreSQL database {url} already holds wildt's data ({}): nothing was copied; \
         copy into an empty database", describe_rows(.tables)
    )]
    NotEmpty {
        url: String,
        tables: Vec<(String, i64)>,
    },
    #[error("the two schemas differ: {0}; nothing was copied")]
    Schema(String),
    #[error("copying table {table}: {detail}")]
    Value { table: String, detail: String },
    #[error("writing to PostgreSQL at {url}: {source}")]
    Postgres { url: String, source: sqlx::Error },
}

fn describe_rows(tables: &[(String, i64)]) -> String {
    tables
        .iter()
        .map(|(t, n)| format!("{t}: {n} rows"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One table's rows on each side after the copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableCount {
    pub table: String,
    pub sqlite: i64,
    pub postgres: i64,
}

/// What a copy did: each table's counts, and whether it was committed (it
/// is when, and only when, every count agrees).
#[derive(Debug)]
pub struct Copied {
    pub counts: Vec<TableCount>,
    pub committed: bool,
}

impl Copied {
    /// The tables whose counts differ.
    pub fn mismatches(&self) -> impl Iterator<Item = &TableCount> {
        self.counts.iter().filter(|c| c.sqlite != c.postgres)
    }
}

/// The column types the copy carries, by PostgreSQL's type name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    BigInt,
    Text,
    Bytes,
    Double,
}

impl Kind {
    fn of(pg_type: &str) -> Option<Kind> {
        match pg_type {
            "bigint" => Some(Kind::BigInt),
            "text" => Some(Kind::Text),
            "bytea" => Some(Kind::Bytes),
            "double precision" => Some(Kind::Double),
            _ => None,
        }
    }
}

/// One value read from SQLite, typed by its PostgreSQL column.
enum Value {
    BigInt(Option<i64>),
    Text(Option<String>),
    Bytes(Option<Vec<u8>>),
    Double(Option<f64>),
}

fn read_value(row: &SqliteRow, i: usize, kind: Kind) -> Result<Value, sqlx::Error> {
    Ok(match kind {
        Kind::BigInt => Value::BigInt(row.try_get(i)?),
        Kind::Text => Value::Text(row.try_get(i)?),
        Kind::Bytes => Value::Bytes(row.try_get(i)?),
        Kind::Double => Value::Double(row.try_get(i)?),
    })
}

/// Whether a PostgreSQL URL carries a password (`user:secret@` or
/// `password=`), which would show in the process list and the shell's
/// history.
fn url_has_password(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let (authority, query) = match rest.split_once('?') {
        Some((a, q)) => (a, q),
        None => (rest, ""),
    };
    let authority = authority.split('/').next().unwrap_or("");
    let userinfo = authority.rsplit_once('@').map(|(u, _)| u);
    userinfo.is_some_and(|u| u.contains(':'))
        || query
            .split('&')
            .any(|kv| kv.split('=').next() == Some("password"))
}

/// The password file's first line, trimmed (as for IMAP and SMTP).
fn read_password(path: &Path) -> Result<String, MigrateError> {
    let text = std::fs::read_to_string(path).map_err(|source| MigrateError::PasswordFile {
        path: path.to_owned(),
        source,
    })?;
    Ok(text.lines().next().unwrap_or("").trim().to_owned())
}

/// The version migrations/sqlite ends with: a file must be at it to be
/// copied (migrations/postgres is kept in step with it).
pub fn latest_sqlite_version() -> i64 {
    sqlx::migrate!("./migrations/sqlite")
        .iter()
        .map(|m| m.version)
        .max()
        .unwrap_or(0)
}

/// Copies the SQLite database `from` into the empty PostgreSQL database
/// `to` (a URL without password), logging in with the first line of
/// `password_file` when given.
pub async fn sqlite_to_postgres(
    from: &Path,
    to: &str,
    password_file: Option<&Path>,
) -> Result<Copied, MigrateError> {
    if url_has_password(to) {
        return Err(MigrateError::PasswordInUrl);
    }
    let mut pg_options =
        PgConnectOptions::from_str(to).map_err(|_| MigrateError::BadUrl(to.to_owned()))?;
    if let Some(file) = password_file {
        pg_options = pg_options.password(&read_password(file)?);
    }
    if !from.is_file() {
        return Err(MigrateError::Missing(from.to_owned()));
    }
    let lite = |source| MigrateError::Sqlite {
        path: from.to_owned(),
        source,
    };
    let mut sqlite = SqliteConnectOptions::new()
        .filename(from)
        .read_only(true)
        .busy_timeout(std::time::Duration::from_secs(30))
        .connect()
        .await
        .map_err(lite)?;
    let result = copy(from, &mut sqlite, to, &pg_options).await;
    let closed = sqlite.close().await.map_err(lite);
    super::status::keep_owner(from);
    let copied = result?;
    closed?;
    Ok(copied)
}

async fn copy(
    from: &Path,
    sqlite: &mut SqliteConnection,
    to: &str,
    pg_options: &PgConnectOptions,
) -> Result<Copied, MigrateError> {
    let lite = |source| MigrateError::Sqlite {
        path: from.to_owned(),
        source,
    };
    // The snapshot: every read below is of the database as it was at the
    // first one (a deferred transaction takes it at its first read).
    let mut snapshot = sqlite.begin().await.map_err(lite)?;
    let has_migrations: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = $1)")
            .bind(MIGRATIONS_TABLE)
            .fetch_one(&mut *snapshot)
            .await
            .map_err(lite)?;
    if !has_migrations {
        return Err(MigrateError::NotWildt {
            path: from.to_owned(),
        });
    }
    let found: Option<i64> =
        sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations WHERE success")
            .fetch_one(&mut *snapshot)
            .await
            .map_err(lite)?;
    let found = found.unwrap_or(0);
    let expected = latest_sqlite_version();
    if found < expected {
        return Err(MigrateError::Behind {
            path: from.to_owned(),
            found,
            expected,
        });
    }
    if found > expected {
        return Err(MigrateError::Ahead {
            path: from.to_owned(),
            found,
            expected,
        });
    }
    let tables = tables_in_order(&mut snapshot).await.map_err(lite)?;

    let pg_err = |source| MigrateError::Postgres {
        url: to.to_owned(),
        source,
    };
    let mut pg = pg_options
        .connect()
        .await
        .map_err(|source| MigrateError::Connect {
            url: to.to_owned(),
            source,
        })?;
    // Refused before anything is written, the migrations included.
    let held = rows_held(&mut pg, &tables).await.map_err(pg_err)?;
    if !held.is_empty() {
        return Err(MigrateError::NotEmpty {
            url: to.to_owned(),
            tables: held,
        });
    }
    sqlx::migrate!("./migrations/postgres")
        .run(&mut pg)
        .await
        .map_err(|source| MigrateError::Migrate {
            url: to.to_owned(),
            source,
        })?;
    let columns = pg_columns(&mut pg).await.map_err(pg_err)?;
    check_same_tables(&tables, &columns)?;
    for table in &tables {
        let names: Vec<String> = sqlx::query_scalar("SELECT name FROM pragma_table_info($1)")
            .bind(table)
            .fetch_all(&mut *snapshot)
            .await
            .map_err(lite)?;
        check_same_columns(table, &names, &columns[table])?;
    }

    let mut tx = pg.begin().await.map_err(pg_err)?;
    // Checked again inside the transaction: another copy may have run since.
    let held = rows_held(&mut tx, &tables).await.map_err(pg_err)?;
    if !held.is_empty() {
        return Err(MigrateError::NotEmpty {
            url: to.to_owned(),
            tables: held,
        });
    }
    for table in &tables {
        copy_table(table, &columns[table], &mut snapshot, &mut tx, from, to).await?;
    }
    reset_identities(&mut tx).await.map_err(pg_err)?;

    let mut counts = Vec::new();
    for table in &tables {
        let count = format!("SELECT COUNT(*) FROM {}", quoted(table));
        let sqlite: i64 = sqlx::query_scalar(&count)
            .fetch_one(&mut *snapshot)
            .await
            .map_err(lite)?;
        let postgres: i64 = sqlx::query_scalar(&count)
            .fetch_one(&mut *tx)
            .await
            .map_err(pg_err)?;
        counts.push(TableCount {
            table: table.clone(),
            sqlite,
            postgres,
        });
    }
    let copied = Copied {
        committed: counts.iter().all(|c| c.sqlite == c.postgres),
        counts,
    };
    if copied.committed {
        tx.commit().await.map_err(pg_err)?;
    } else {
        tx.rollback().await.map_err(pg_err)?;
    }
    snapshot.rollback().await.map_err(lite)?;
    pg.close().await.map_err(pg_err)?;
    Ok(copied)
}

/// An identifier quoted for both engines.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// wildt's tables in the SQLite file, each after every table it references
/// (the order rows can be inserted in with the foreign keys checked).
async fn tables_in_order(conn: &mut SqliteConnection) -> Result<Vec<String>, sqlx::Error> {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master
         WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> $1
         ORDER BY name",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(&mut *conn)
    .await?;
    let mut parents: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for name in &names {
        let refs: Vec<String> =
            sqlx::query_scalar("SELECT DISTINCT \"table\" FROM pragma_foreign_key_list($1)")
                .bind(name)
                .fetch_all(&mut *conn)
                .await?;
        parents.insert(
            name.clone(),
            refs.into_iter().filter(|r| r != name).collect(),
        );
    }
    let mut ordered: Vec<String> = Vec::new();
    while ordered.len() < names.len() {
        let ready: Vec<String> = names
            .iter()
            .filter(|n| !ordered.contains(n))
            .filter(|n| parents[*n].iter().all(|p| ordered.contains(p)))
            .cloned()
            .collect();
        if ready.is_empty() {
            // A cycle (none in wildt's schema): the rest in name order, for
            // PostgreSQL's foreign keys to refuse with the table's name.
            let rest: Vec<String> = names
                .iter()
                .filter(|n| !ordered.contains(n))
                .cloned()
                .collect();
            ordered.extend(rest);
            break;
        }
        ordered.extend(ready);
    }
    Ok(ordered)
}

/// The tables of `tables` that exist in the PostgreSQL database and hold
/// rows, with their counts.
async fn rows_held(
    pg: &mut PgConnection,
    tables: &[String],
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    let mut held = Vec::new();
    for table in tables {
        let exists: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM information_schema.tables
                            WHERE table_schema = current_schema() AND table_name = $1)",
        )
        .bind(table)
        .fetch_one(&mut *pg)
        .await?;
        if !exists {
            continue;
        }
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {}", quoted(table)))
            .fetch_one(&mut *pg)
            .await?;
        if n > 0 {
            held.push((table.clone(), n));
        }
    }
    Ok(held)
}

/// Every table's columns in the PostgreSQL database, in column order, with
/// their type names.
async fn pg_columns(
    pg: &mut PgConnection,
) -> Result<BTreeMap<String, Vec<(String, String)>>, sqlx::Error> {
    let rows: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text, data_type::text
         FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name <> $1
         ORDER BY table_name, ordinal_position",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(&mut *pg)
    .await?;
    let mut out: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for (table, column, ty) in rows {
        out.entry(table).or_default().push((column, ty));
    }
    Ok(out)
}

/// The SQLite file's tables are PostgreSQL's (tests/it/schema.rs keeps the
/// migrations so; this catches a target migrated by another wildt).
fn check_same_tables(
    tables: &[String],
    columns: &BTreeMap<String, Vec<(String, String)>>,
) -> Result<(), MigrateError> {
    let missing: Vec<&str> = tables
        .iter()
        .filter(|t| !columns.contains_key(*t))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Err(MigrateError::Schema(format!(
            "PostgreSQL has no table {}",
            missing.join(", ")
        )));
    }
    let extra: Vec<&str> = columns
        .keys()
        .filter(|t| !tables.contains(t))
        .map(String::as_str)
        .collect();
    if !extra.is_empty() {
        return Err(MigrateError::Schema(format!(
            "PostgreSQL's schema has tables the SQLite file has not ({}): copy into a database \
             of wildt's own",
            extra.join(", ")
        )));
    }
    Ok(())
}

/// A table has the same columns on both sides (in any order: each is read
/// and written by name).
fn check_same_columns(
    table: &str,
    sqlite: &[String],
    postgres: &[(String, String)],
) -> Result<(), MigrateError> {
    let sqlite: BTreeSet<&str> = sqlite.iter().map(String::as_str).collect();
    let postgres: BTreeSet<&str> = postgres.iter().map(|(n, _)| n.as_str()).collect();
    let only = |a: &BTreeSet<&str>, b: &BTreeSet<&str>| {
        a.difference(b).copied().collect::<Vec<_>>().join(", ")
    };
    if sqlite != postgres {
        return Err(MigrateError::Schema(format!(
            "table {table} has columns only SQLite has ({}) and only PostgreSQL has ({})",
            only(&sqlite, &postgres),
            only(&postgres, &sqlite)
        )));
    }
    Ok(())
}

/// Copies every row of `table`, in batches, reading the SQLite columns that
/// PostgreSQL's table has, each decoded as its PostgreSQL type.
async fn copy_table(
    table: &str,
    columns: &[(String, String)],
    snapshot: &mut SqliteConnection,
    tx: &mut PgConnection,
    from: &Path,
    to: &str,
) -> Result<(), MigrateError> {
    let kinds: Vec<Kind> = columns
        .iter()
        .map(|(name, ty)| {
            Kind::of(ty).ok_or_else(|| MigrateError::Schema(format!(
                "PostgreSQL's column {table}.{name} is {ty}, not bigint, text, bytea or double precision"
            )))
        })
        .collect::<Result<_, _>>()?;
    let names: Vec<String> = columns.iter().map(|(n, _)| quoted(n)).collect();
    let list = names.join(", ");
    let select = format!("SELECT {list} FROM {}", quoted(table));
    let batch_rows = BATCH_ROWS.min(MAX_PARAMETERS / columns.len().max(1));
    let lite = |source| MigrateError::Sqlite {
        path: from.to_owned(),
        source,
    };
    let mut rows = sqlx::query(&select).fetch(&mut *snapshot);
    let mut batch: Vec<Vec<Value>> = Vec::with_capacity(batch_rows);
    let mut done = false;
    while !done {
        match rows.try_next().await {
            Err(e) => return Err(lite(e)),
            Ok(Some(row)) => {
                let values = kinds
                    .iter()
                    .enumerate()
                    .map(|(i, kind)| {
                        read_value(&row, i, *kind).map_err(|e| MigrateError::Value {
                            table: table.to_owned(),
                            detail: format!(
                                "column {} holds a value PostgreSQL's {} cannot take: {e}",
                                columns[i].0, columns[i].1
                            ),
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                batch.push(values);
            }
            Ok(None) => done = true,
        }
        if batch.len() == batch_rows || (done && !batch.is_empty()) {
            insert(table, &list, std::mem::take(&mut batch), tx)
                .await
                .map_err(|source| MigrateError::Postgres {
                    url: to.to_owned(),
                    source,
                })?;
        }
    }
    Ok(())
}

/// One INSERT of several rows.
async fn insert(
    table: &str,
    list: &str,
    batch: Vec<Vec<Value>>,
    tx: &mut PgConnection,
) -> Result<(), sqlx::Error> {
    let mut query: QueryBuilder<Postgres> =
        QueryBuilder::new(format!("INSERT INTO {} ({list}) ", quoted(table)));
    query.push_values(batch, |mut row, values| {
        for value in values {
            match value {
                Value::BigInt(v) => row.push_bind(v),
                Value::Text(v) => row.push_bind(v),
                Value::Bytes(v) => row.push_bind(v),
                Value::Double(v) => row.push_bind(v),
            };
        }
    });
    query.build().execute(&mut *tx).await?;
    Ok(())
}

/// Every identity column's sequence set so its next value is past the
/// highest id copied (the rows were inserted with their ids, which does not
/// move the sequence).
async fn reset_identities(tx: &mut PgConnection) -> Result<(), sqlx::Error> {
    let identities: Vec<(String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text FROM information_schema.columns
         WHERE table_schema = current_schema() AND is_identity = 'YES'",
    )
    .fetch_all(&mut *tx)
    .await?;
    for (table, column) in identities {
        sqlx::query(&format!(
            "SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(MAX({col}), 0) + 1, false) \
             FROM {tbl}",
            col = quoted(&column),
            tbl = quoted(&table),
        ))
        .bind(quoted(&table))
        .bind(&column)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_in_the_url_is_seen() {
        assert!(url_has_password("postgres://wildt:secret@db/wildt"));
        assert!(url_has_password(
            "postgres://wildt@db/wildt?password=secret"
        ));
        assert!(url_has_password(
            "postgres://wildt@db/wildt?sslmode=require&password=x"
        ));
        assert!(!url_has_password("postgres://wildt@db:5432/wildt"));
        assert!(!url_has_password("postgres://db/wildt?sslmode=require"));
        assert!(!url_has_password("postgres://wildt@[::1]:5432/wildt"));
    }

    /// The two folders are kept in step: a file could not be copied if
    /// PostgreSQL's migrations ended before SQLite's.
    #[test]
    fn the_postgres_migrations_end_where_the_sqlite_ones_do() {
        let postgres = sqlx::migrate!("./migrations/postgres")
            .iter()
            .map(|m| m.version)
            .max();
        assert_eq!(postgres, Some(latest_sqlite_version()));
    }
}
