//! The `outbox` table: every mail to send, rendered, with its Message-ID
//! fixed, and what became of each attempt. [IO: SQLite]

use sqlx::{Row, SqliteConnection};

use super::{StoreError, now_secs};
use crate::mail::render::Rendered;
use crate::reply::OutMail;

/// A pending outbox row.
#[derive(Debug, Clone)]
pub struct OutboxRow {
    pub id: i64,
    pub message_id: String,
    pub sender: String,
    pub recipient: String,
    pub raw: Vec<u8>,
    pub attempts: i64,
}

/// Queues the rendered `mail` from `sender`, answering the processed message
/// `message_row` if any.
pub async fn enqueue(
    conn: &mut SqliteConnection,
    message_row: Option<i64>,
    mail: &OutMail,
    r: &Rendered,
    sender: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO outbox (message, game_id, message_id, sender, recipient, event, raw, created_at, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(message_row)
    .bind(mail.game)
    .bind(&r.message_id)
    .bind(sender)
    .bind(&mail.to)
    .bind(mail.event.as_str())
    .bind(&r.raw)
    .bind(now)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Rows due at `now`, oldest first.
pub async fn due(
    conn: &mut SqliteConnection,
    now: i64,
    limit: i64,
) -> Result<Vec<OutboxRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT id, message_id, sender, recipient, raw, attempts FROM outbox
         WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ?
         ORDER BY id LIMIT ?",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| OutboxRow {
            id: r.get(0),
            message_id: r.get(1),
            sender: r.get(2),
            recipient: r.get(3),
            raw: r.get(4),
            attempts: r.get(5),
        })
        .collect())
}

/// Seconds until the next pending row is due, if any is pending.
pub async fn next_due_in(conn: &mut SqliteConnection, now: i64) -> Result<Option<i64>, StoreError> {
    let next: Option<i64> = sqlx::query_scalar(
        "SELECT MIN(next_attempt_at) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL",
    )
    .fetch_one(&mut *conn)
    .await?;
    Ok(next.map(|t| (t - now).max(0)))
}

pub async fn mark_sent(conn: &mut SqliteConnection, id: i64) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?",
    )
    .bind(now_secs())
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub async fn mark_retry(
    conn: &mut SqliteConnection,
    id: i64,
    next_at: i64,
    error: &str,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?")
        .bind(next_at)
        .bind(error)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

pub async fn mark_failed(
    conn: &mut SqliteConnection,
    id: i64,
    error: &str,
) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE outbox SET attempts = attempts + 1, failed_at = ?, last_error = ? WHERE id = ?",
    )
    .bind(now_secs())
    .bind(error)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Counts of what the outbox holds: (pending, sent, failed).
pub async fn counts(conn: &mut SqliteConnection) -> Result<(i64, i64, i64), StoreError> {
    let row = sqlx::query(
        "SELECT
            COALESCE(SUM(sent_at IS NULL AND failed_at IS NULL), 0),
            COALESCE(SUM(sent_at IS NOT NULL), 0),
            COALESCE(SUM(failed_at IS NOT NULL), 0)
         FROM outbox",
    )
    .fetch_one(&mut *conn)
    .await?;
    Ok((row.get(0), row.get(1), row.get(2)))
}
