//! The two backends' schemas, each as its own migrations leave it, read back
//! from each engine's catalog and compared: tables; columns with their type
//! family, NOT NULL and default; primary keys; unique constraints; foreign
//! keys; CHECK constraints; indexes by name with their columns, uniqueness
//! and WHERE clause; views and triggers. The application runs one SQL text
//! on both, and names some indexes (`INDEXED BY`), so a difference is a bug.
//! [IO: a SQLite file, the test PostgreSQL]

use std::collections::BTreeMap;

use sqlx::postgres::PgConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Row};

use crate::support::pg;

/// A schema as facts: what (`column games.status`) → how (`text not null
/// default 'active'`). Two schemas are equal when their facts are.
type Facts = BTreeMap<String, String>;

/// The migrations' own bookkeeping, which is not the application's schema.
const MIGRATIONS_TABLE: &str = "_sqlx_migrations";

/// One fact, written once: a second with the same key is a mistake in the
/// reading, not in the schema.
fn put(facts: &mut Facts, key: String, value: String) {
    if let Some(old) = facts.insert(key.clone(), value.clone()) {
        panic!("{key} read twice: {old:?} and {value:?}");
    }
}

/// A CHECK constraint, counted: a table may hold the same check twice.
fn put_check(facts: &mut Facts, table: &str, text: &str) {
    let key = format!("check {table}: {}", normalise(text));
    let n = facts.get(&key).map_or(0, |n| n.parse::<u32>().unwrap());
    facts.insert(key, format!("{} time(s)", n + 1));
}

/// Expression text (a partial index's WHERE, a CHECK, an expression index's
/// key) as both engines can be compared on it: lower-case, PostgreSQL's
/// casts (`'a'::text`) and `= ANY (ARRAY[...])` (its spelling of `IN`)
/// undone, identifier quotes, parentheses and extra spaces dropped.
fn normalise(text: &str) -> String {
    let lower = text.to_lowercase();
    let mut out = String::new();
    let mut rest = lower.as_str();
    while let Some(at) = rest.find("::") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let mut tail = &after[end..];
        for two_words in [" varying", " precision"] {
            tail = tail.strip_prefix(two_words).unwrap_or(tail);
        }
        rest = tail;
    }
    out.push_str(rest);
    let out = out
        .replace("= any (array[", "in (")
        .replace("])", ")")
        .replace(['(', ')', '"'], " ");
    out.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" ,", ",")
}

/// SQLite's type affinity (its rules in order, datatype3.html §3.1) as the
/// family the two backends share.
fn sqlite_family(declared: &str) -> String {
    let t = declared.to_uppercase();
    if t.contains("INT") {
        "integer"
    } else if t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") {
        "text"
    } else if t.contains("BLOB") || t.is_empty() {
        "blob"
    } else if t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB") {
        "real"
    } else {
        "numeric"
    }
    .to_owned()
}

/// PostgreSQL's column type as the family; only the one type of each family
/// the application reads and writes on both counts (an `integer` column
/// would not decode as the i64 every id and time is).
fn pg_family(data_type: &str) -> String {
    match data_type {
        "bigint" => "integer".to_owned(),
        "text" => "text".to_owned(),
        "bytea" => "blob".to_owned(),
        "double precision" => "real".to_owned(),
        other => format!("{other} (not bigint, text, bytea or double precision)"),
    }
}

fn column_fact(family: &str, not_null: bool, default: Option<&str>) -> String {
    let mut fact = family.to_owned();
    if not_null {
        fact.push_str(" not null");
    }
    if let Some(default) = default {
        fact.push_str(&format!(" default {}", normalise(default)));
    }
    fact
}

fn list(items: &[String]) -> String {
    format!("({})", items.join(", "))
}

/// The top-level items of the first parenthesised list in `sql` at or after
/// `from` (an index's keys: `(recipient, lower(x))` gives both).
fn paren_items(sql: &str, from: usize) -> Vec<String> {
    let start = from + sql[from..].find('(').expect("a parenthesised list");
    let mut depth = 0;
    let mut items = vec![String::new()];
    for c in sql[start..].chars() {
        match c {
            '(' => {
                depth += 1;
                if depth == 1 {
                    continue;
                }
            }
            ')' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => {
                items.push(String::new());
                continue;
            }
            _ => {}
        }
        items.last_mut().unwrap().push(c);
    }
    items.into_iter().map(|i| i.trim().to_owned()).collect()
}

/// The CHECK constraints' expressions in a CREATE TABLE text (its `--`
/// comments dropped first).
fn sqlite_checks(sql: &str) -> Vec<String> {
    let sql: String = sql
        .lines()
        .map(|l| l.split_once("--").map_or(l, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n");
    let lower = sql.to_ascii_lowercase();
    let mut checks = Vec::new();
    let mut from = 0;
    while let Some(at) = lower[from..].find("check") {
        let at = from + at;
        from = at + 5;
        let word_start = at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphanumeric();
        let next = lower[from..].trim_start();
        if word_start && next.starts_with('(') {
            checks.push(paren_items(&sql, from).join(", "));
        }
    }
    checks
}

/// A fresh SQLite file migrated by migrations/sqlite, as wildt migrates it.
async fn sqlite_migrated(dir: &std::path::Path) -> SqliteConnection {
    let mut conn = SqliteConnectOptions::new()
        .filename(dir.join("schema.db"))
        .create_if_missing(true)
        .connect()
        .await
        .unwrap();
    sqlx::migrate!("./migrations/sqlite")
        .run(&mut conn)
        .await
        .unwrap();
    conn
}

/// A fresh PostgreSQL database migrated by migrations/postgres.
async fn pg_migrated(tag: &str) -> PgConnection {
    let url = pg::fresh_database(tag);
    let mut conn = pg::connect_options(&url).connect().await.unwrap();
    sqlx::migrate!("./migrations/postgres")
        .run(&mut conn)
        .await
        .unwrap();
    conn
}

/// SQLite's schema, from sqlite_master and the table and index pragmas.
async fn sqlite_facts(conn: &mut SqliteConnection) -> Facts {
    let mut facts = Facts::new();
    let objects = sqlx::query(
        "SELECT type, name, tbl_name, sql FROM sqlite_master
         WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> $1
         ORDER BY name",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    let mut tables = Vec::new();
    for object in &objects {
        let kind: String = object.get("type");
        let name: String = object.get("name");
        match kind.as_str() {
            "table" => tables.push((name, object.get::<String, _>("sql"))),
            "view" | "trigger" => put(&mut facts, format!("{kind} {name}"), String::new()),
            // Indexes are read per table below, with their pragmas.
            _ => {}
        }
    }
    for (table, sql) in &tables {
        put(&mut facts, format!("table {table}"), String::new());
        let columns = sqlx::query(
            "SELECT name, type, \"notnull\" AS nn, dflt_value, pk FROM pragma_table_info($1)",
        )
        .bind(table)
        .fetch_all(&mut *conn)
        .await
        .unwrap();
        let mut pk: Vec<(i64, String)> = Vec::new();
        for c in &columns {
            let name: String = c.get("name");
            let key: i64 = c.get("pk");
            if key > 0 {
                pk.push((key, name.clone()));
            }
            // A key column counts as NOT NULL: PostgreSQL makes every key
            // column so, and wildt never stores a NULL key (SQLite allows
            // one only in a rowid table's non-integer key).
            let not_null = c.get::<i64, _>("nn") == 1 || key > 0;
            let default: Option<String> = c.get("dflt_value");
            put(
                &mut facts,
                format!("column {table}.{name}"),
                column_fact(
                    &sqlite_family(&c.get::<String, _>("type")),
                    not_null,
                    default.as_deref(),
                ),
            );
        }
        pk.sort();
        if !pk.is_empty() {
            let names: Vec<String> = pk.into_iter().map(|(_, n)| n).collect();
            put(&mut facts, format!("primary key {table}"), list(&names));
        }
        for check in sqlite_checks(sql) {
            put_check(&mut facts, table, &check);
        }

        let fks = sqlx::query(
            "SELECT id, \"table\" AS parent, \"from\" AS col, \"to\" AS parent_col, on_delete
             FROM pragma_foreign_key_list($1) ORDER BY id, seq",
        )
        .bind(table)
        .fetch_all(&mut *conn)
        .await
        .unwrap();
        let mut by_id: BTreeMap<i64, (String, Vec<String>, Vec<String>, String)> = BTreeMap::new();
        for fk in &fks {
            let entry = by_id.entry(fk.get("id")).or_insert_with(|| {
                (
                    fk.get("parent"),
                    Vec::new(),
                    Vec::new(),
                    fk.get::<String, _>("on_delete").to_lowercase(),
                )
            });
            entry.1.push(fk.get("col"));
            // No column named: the parent's primary key (one column here).
            let parent_col: Option<String> = fk.get("parent_col");
            entry.2.push(parent_col.unwrap_or_else(|| "id".to_owned()));
        }
        for (parent, cols, parent_cols, on_delete) in by_id.into_values() {
            put(
                &mut facts,
                format!("foreign key {table} {}", list(&cols)),
                format!(
                    "references {parent} {} on delete {on_delete}",
                    list(&parent_cols)
                ),
            );
        }

        let indexes = sqlx::query(
            "SELECT name, \"unique\" AS uniq, origin, partial FROM pragma_index_list($1)",
        )
        .bind(table)
        .fetch_all(&mut *conn)
        .await
        .unwrap();
        for index in &indexes {
            let name: String = index.get("name");
            let origin: String = index.get("origin");
            let keys = sqlx::query(
                "SELECT cid, name, \"desc\" AS descending FROM pragma_index_xinfo($1)
                 WHERE key = 1 ORDER BY seqno",
            )
            .bind(&name)
            .fetch_all(&mut *conn)
            .await
            .unwrap();
            match origin.as_str() {
                // The primary key's own index (WITHOUT ROWID tables, or a
                // key not the rowid): read above from the columns.
                "pk" => {}
                "u" => {
                    let cols: Vec<String> = keys.iter().map(|k| k.get("name")).collect();
                    put(
                        &mut facts,
                        format!("unique {table} {}", list(&cols)),
                        String::new(),
                    );
                }
                _ => {
                    let sql: String = sqlx::query_scalar(
                        "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = $1",
                    )
                    .bind(&name)
                    .fetch_one(&mut *conn)
                    .await
                    .unwrap();
                    let on = sql
                        .to_ascii_lowercase()
                        .find(" on ")
                        .expect("CREATE INDEX … ON");
                    let written = paren_items(&sql, on);
                    let cols: Vec<String> = keys
                        .iter()
                        .enumerate()
                        .map(|(i, k)| {
                            // cid -2: an expression, as written in the SQL.
                            let col = match k.get::<i64, _>("cid") {
                                -2 => normalise(&written[i]),
                                _ => normalise(k.get("name")),
                            };
                            match k.get::<i64, _>("descending") {
                                1 => format!("{col} desc"),
                                _ => col,
                            }
                        })
                        .collect();
                    let mut fact = format!("on {table} {}", list(&cols));
                    if index.get::<i64, _>("uniq") == 1 {
                        fact.push_str(" unique");
                    }
                    if index.get::<i64, _>("partial") == 1 {
                        let lower = sql.to_ascii_lowercase();
                        let at = lower.rfind(" where ").expect("a partial index's WHERE");
                        fact.push_str(&format!(" where {}", normalise(&sql[at + 7..])));
                    }
                    put(&mut facts, format!("index {name}"), fact);
                }
            }
        }
    }
    facts
}

/// Triggers PostgreSQL has and SQLite has not, on purpose (see their use).
const PG_ONLY_TRIGGERS: [&str; 2] = ["outbox_queued", "outbox_requeued"];

/// PostgreSQL's schema, from information_schema and pg_catalog (the
/// current schema only).
async fn pg_facts(conn: &mut PgConnection) -> Facts {
    let mut facts = Facts::new();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> $1",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    for table in &tables {
        put(&mut facts, format!("table {table}"), String::new());
    }
    let views: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.views WHERE table_schema = current_schema()",
    )
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    for view in views {
        put(&mut facts, format!("view {view}"), String::new());
    }
    let triggers: Vec<String> = sqlx::query_scalar(
        "SELECT t.tgname::text FROM pg_trigger t
         JOIN pg_class c ON c.oid = t.tgrelid
         WHERE c.relnamespace = current_schema()::text::regnamespace AND NOT t.tgisinternal",
    )
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    for trigger in triggers {
        // PostgreSQL only: the triggers that wake every daemon's sender
        // when mail is queued or due again (NOTIFY); SQLite has one
        // daemon, woken within its process.
        if PG_ONLY_TRIGGERS.contains(&trigger.as_str()) {
            continue;
        }
        put(&mut facts, format!("trigger {trigger}"), String::new());
    }

    let columns = sqlx::query(
        "SELECT table_name::text AS tbl, column_name::text AS col, data_type::text AS ty,
                is_nullable::text AS nullable, column_default::text AS dflt
         FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name <> $1",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    for c in &columns {
        let table: String = c.get("tbl");
        let col: String = c.get("col");
        let default: Option<String> = c.get("dflt");
        put(
            &mut facts,
            format!("column {table}.{col}"),
            column_fact(
                &pg_family(&c.get::<String, _>("ty")),
                c.get::<String, _>("nullable") == "NO",
                default.as_deref(),
            ),
        );
    }

    // Keys, unique constraints and foreign keys: their columns in order.
    let constraints = sqlx::query(
        "SELECT c.contype::text AS kind, r.relname::text AS tbl,
                f.relname::text AS parent, c.confdeltype::text AS on_delete,
                array_agg(a.attname::text ORDER BY k.ord) AS cols,
                array_agg(fa.attname::text ORDER BY k.ord) AS parent_cols
         FROM pg_constraint c
         JOIN pg_class r ON r.oid = c.conrelid
         LEFT JOIN pg_class f ON f.oid = c.confrelid
         CROSS JOIN LATERAL unnest(c.conkey, coalesce(c.confkey, c.conkey))
              WITH ORDINALITY AS k(col, parent_col, ord)
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.col
         LEFT JOIN pg_attribute fa ON fa.attrelid = c.confrelid AND fa.attnum = k.parent_col
         WHERE r.relnamespace = current_schema()::text::regnamespace AND r.relname <> $1
           AND c.contype IN ('p', 'u', 'f')
         GROUP BY c.oid, c.contype, r.relname, f.relname, c.confdeltype",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    for c in &constraints {
        let table: String = c.get("tbl");
        let cols: Vec<String> = c.get("cols");
        match c.get::<String, _>("kind").as_str() {
            "p" => put(&mut facts, format!("primary key {table}"), list(&cols)),
            "u" => put(
                &mut facts,
                format!("unique {table} {}", list(&cols)),
                String::new(),
            ),
            _ => {
                let parent: String = c.get("parent");
                let parent_cols: Vec<Option<String>> = c.get("parent_cols");
                let parent_cols: Vec<String> = parent_cols.into_iter().flatten().collect();
                let on_delete = match c.get::<String, _>("on_delete").as_str() {
                    "a" => "no action",
                    "r" => "restrict",
                    "c" => "cascade",
                    "n" => "set null",
                    "d" => "set default",
                    other => panic!("confdeltype {other:?}"),
                };
                put(
                    &mut facts,
                    format!("foreign key {table} {}", list(&cols)),
                    format!(
                        "references {parent} {} on delete {on_delete}",
                        list(&parent_cols)
                    ),
                );
            }
        }
    }

    let checks = sqlx::query(
        "SELECT r.relname::text AS tbl, pg_get_constraintdef(c.oid) AS def
         FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid
         WHERE r.relnamespace = current_schema()::text::regnamespace AND c.contype = 'c'",
    )
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    for c in &checks {
        let def: String = c.get("def");
        let text = def.strip_prefix("CHECK ").expect("CHECK (…)");
        put_check(&mut facts, &c.get::<String, _>("tbl"), text);
    }

    // Indexes that no constraint owns (those are the keys and uniques above).
    let indexes = sqlx::query(
        "SELECT ic.relname::text AS name, t.relname::text AS tbl, i.indisunique AS uniq,
                pg_get_expr(i.indpred, i.indrelid) AS predicate,
                array(SELECT pg_get_indexdef(i.indexrelid, k, true)
                             || CASE WHEN i.indoption[k - 1] & 1 = 1 THEN ' desc' ELSE '' END
                      FROM generate_series(1, i.indnkeyatts) AS k ORDER BY k) AS cols
         FROM pg_index i
         JOIN pg_class ic ON ic.oid = i.indexrelid
         JOIN pg_class t ON t.oid = i.indrelid
         WHERE t.relnamespace = current_schema()::text::regnamespace AND t.relname <> $1
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    for index in &indexes {
        let name: String = index.get("name");
        let table: String = index.get("tbl");
        let cols: Vec<String> = index.get("cols");
        // A plain column comes back as its name; anything else is an
        // expression, compared normalised.
        let cols: Vec<String> = cols.iter().map(|c| normalise(c)).collect();
        let mut fact = format!("on {table} {}", list(&cols));
        if index.get::<bool, _>("uniq") {
            fact.push_str(" unique");
        }
        if let Some(predicate) = index.get::<Option<String>, _>("predicate") {
            fact.push_str(&format!(" where {}", normalise(&predicate)));
        }
        put(&mut facts, format!("index {name}"), fact);
    }
    facts
}

/// Every fact that differs, one line each, saying what each side has.
fn differences(sqlite: &Facts, pg: &Facts) -> Vec<String> {
    let shown = |v: Option<&String>| match v {
        None => "nothing".to_owned(),
        Some(v) if v.is_empty() => "it".to_owned(),
        Some(v) => format!("`{v}`"),
    };
    let mut keys: Vec<&String> = sqlite.keys().chain(pg.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| sqlite.get(*k) != pg.get(*k))
        .map(|k| {
            format!(
                "{k}: SQLite has {}, PostgreSQL has {}",
                shown(sqlite.get(k)),
                shown(pg.get(k))
            )
        })
        .collect()
}

/// The two migration folders leave the same schema: every table, column
/// (type family, NOT NULL, default), key, unique constraint, foreign key,
/// CHECK and index (by name, with its columns and WHERE) of the one is in
/// the other, and nothing more.
#[tokio::test]
async fn sqlite_and_postgres_migrations_leave_the_same_schema() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = sqlite_facts(&mut sqlite_migrated(dir.path()).await).await;
    let pg = pg_facts(&mut pg_migrated("schema").await).await;
    // The reading itself found the schema (not two empty sets agreeing).
    assert!(sqlite.contains_key("index outbox_queues"), "{sqlite:#?}");
    assert!(
        sqlite.keys().any(|k| k.starts_with("check ")),
        "{sqlite:#?}"
    );
    let diff = differences(&sqlite, &pg);
    assert!(
        diff.is_empty(),
        "the schemas differ ({} difference(s)):\n{}",
        diff.len(),
        diff.join("\n")
    );
}

/// The comparison sees what it compares: a PostgreSQL schema with an index
/// dropped, a column's type narrowed, a default and a NOT NULL dropped, a
/// unique constraint and a CHECK dropped, a foreign key given ON DELETE
/// CASCADE and a partial index's WHERE changed is reported on exactly those
/// eight facts.
#[tokio::test]
async fn the_schema_comparison_reports_each_difference() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = sqlite_facts(&mut sqlite_migrated(dir.path()).await).await;
    let mut conn = pg_migrated("schema_blind").await;
    sqlx::raw_sql(
        "DROP INDEX outbox_queues;
         ALTER TABLE moves ALTER COLUMN key TYPE integer;
         ALTER TABLE games ALTER COLUMN status DROP DEFAULT;
         ALTER TABLE outbox DROP CONSTRAINT outbox_message_id_key;
         ALTER TABLE moves DROP CONSTRAINT moves_message_fkey;
         ALTER TABLE moves ADD FOREIGN KEY (message) REFERENCES messages (id) ON DELETE CASCADE;
         ALTER TABLE moves DROP CONSTRAINT moves_ply_check;
         ALTER TABLE games ALTER COLUMN thread_root DROP NOT NULL;
         DROP INDEX messages_game_refused;
         CREATE INDEX messages_game_refused ON messages (game_id)
             WHERE outcome IN ('stranger', 'auth_ok');",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    let pg = pg_facts(&mut conn).await;
    let diff = differences(&sqlite, &pg);
    assert_eq!(
        diff,
        [
            "check moves: ply >= 1: SQLite has `1 time(s)`, PostgreSQL has nothing",
            "column games.status: SQLite has `text not null default 'active'`, \
             PostgreSQL has `text not null`",
            "column games.thread_root: SQLite has `text not null`, PostgreSQL has `text`",
            "column moves.key: SQLite has `integer`, \
             PostgreSQL has `integer (not bigint, text, bytea or double precision)`",
            "foreign key moves (message): SQLite has `references messages (id) on delete no action`, \
             PostgreSQL has `references messages (id) on delete cascade`",
            "index messages_game_refused: SQLite has `on messages (game_id) \
             where outcome in 'stranger', 'auth_failed'`, PostgreSQL has `on messages (game_id) \
             where outcome in 'stranger', 'auth_ok'`",
            "index outbox_queues: SQLite has `on outbox (recipient, id) \
             where sent_at is null and failed_at is null`, PostgreSQL has nothing",
            "unique outbox (message_id): SQLite has it, PostgreSQL has nothing",
        ],
        "{}",
        diff.join("\n")
    );
}
