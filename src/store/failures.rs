//! The `inbox_failures` table: how often handling an inbox message failed,
//! kept across restarts, and which were put in the quarantine. [IO: SQLite]

use sqlx::AnyConnection;

use super::StoreError;

/// Counts one more failed attempt at the message with digest `sha256`;
/// returns how many there have been.
pub async fn record(
    conn: &mut AnyConnection,
    sha256: &str,
    source: &str,
    error: &str,
    now: i64,
) -> Result<u32, StoreError> {
    let attempts: i64 = sqlx::query_scalar(
        "INSERT INTO inbox_failures (sha256, source, attempts, last_error, first_at, last_at)
         VALUES ($1, $2, 1, $3, $4, $4)
         ON CONFLICT (sha256) DO UPDATE SET
             attempts = inbox_failures.attempts + 1, source = $2, last_error = $3, last_at = $4
         RETURNING attempts",
    )
    .bind(sha256)
    .bind(source)
    .bind(error)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    Ok(u32::try_from(attempts).unwrap_or(u32::MAX))
}

/// Records that the message is in the quarantine now.
pub async fn mark_quarantined(
    conn: &mut AnyConnection,
    sha256: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE inbox_failures SET quarantined_at = $1 WHERE sha256 = $2")
        .bind(now)
        .bind(sha256)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// How many messages were put in the quarantine.
pub async fn quarantined(conn: &mut AnyConnection) -> Result<i64, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM inbox_failures WHERE quarantined_at IS NOT NULL")
            .fetch_one(&mut *conn)
            .await?,
    )
}
/// How many messages are in the quarantine. A database not yet migrated
/// to the quarantine has none (a read-only reader cannot migrate it);
/// a PostgreSQL database is migrated whole from its first schema on.
pub async fn quarantined_count(conn: &mut AnyConnection) -> Result<i64, StoreError> {
    if conn.backend_name() == "PostgreSQL" {
        return quarantined(conn).await;
    }
    let has_table: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'inbox_failures'",
    )
    .fetch_one(&mut *conn)
    .await?;
    if has_table == 0 {
        return Ok(0);
    }
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM inbox_failures WHERE quarantined_at IS NOT NULL")
            .fetch_one(conn)
            .await?,
    )
}
