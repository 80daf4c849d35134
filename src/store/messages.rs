//! The `messages` table: every processed message with its outcome, the keys
//! against deciding one twice (its bytes, its inbox coordinates, its
//! Message-ID from its sender in its game), and the recent history a
//! decision counts.
//! [IO: SQLite]

use sqlx::{Row, SqliteConnection};

use super::StoreError;
use crate::decide::{Outcome, Recent};

/// A processed message's row.
pub struct MessageRow<'a> {
    pub sha256: &'a str,
    /// The body's digest, line ends normalised: with the Message-ID, sender
    /// and game, what makes another copy of the message.
    pub body_sha256: &'a str,
    /// Where it came from (`maildir:…`, `imap:…`, `cli`).
    pub source: &'a str,
    pub message_id: Option<&'a str>,
    pub from: Option<&'a str>,
    pub game: Option<i64>,
    pub outcome: Outcome,
    pub detail: &'a str,
    pub received_at: i64,
    /// Answers to the sender the hourly limit held back.
    pub replies_held_back: usize,
}

/// The outcome of a message seen before: same bytes, or (for an inbox's
/// message) the same inbox coordinates `source`.
pub async fn seen(
    conn: &mut SqliteConnection,
    sha256: &str,
    source: Option<&str>,
) -> Result<Option<String>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT outcome FROM messages WHERE sha256 = ?1 OR (?2 IS NOT NULL AND source = ?2) LIMIT 1",
    )
    .bind(sha256)
    .bind(source)
    .fetch_optional(&mut *conn)
    .await?)
}

/// The outcome of an earlier copy of a message: the same `message_id` from
/// the same sender `from` in the same game (`None`: no game), with the same
/// body (`body_sha256`), if any.
///
/// A copy recorded as from a stranger or as failing authentication does not
/// count: its From was not trusted, and it must not stand in for the real
/// player's message with the same Message-ID.
pub async fn seen_copy(
    conn: &mut SqliteConnection,
    message_id: &str,
    from: &str,
    game: Option<i64>,
    body_sha256: &str,
) -> Result<Option<String>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT outcome FROM messages
         WHERE message_id = ? AND from_addr = ? AND game_id IS ? AND body_sha256 = ?
           AND outcome NOT IN (?, ?)
         ORDER BY id LIMIT 1",
    )
    .bind(message_id)
    .bind(from)
    .bind(game)
    .bind(body_sha256)
    .bind(Outcome::Stranger.as_str())
    .bind(Outcome::AuthFailed.as_str())
    .fetch_optional(&mut *conn)
    .await?)
}

/// Inserts a processed message; returns its row id.
pub async fn insert(conn: &mut SqliteConnection, m: &MessageRow<'_>) -> Result<i64, StoreError> {
    Ok(sqlx::query(
        "INSERT INTO messages (sha256, source, message_id, from_addr, game_id, outcome, detail, received_at, replies_held_back, body_sha256)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(m.sha256)
    .bind(m.source)
    .bind(m.message_id)
    .bind(m.from)
    .bind(m.game)
    .bind(m.outcome.as_str())
    .bind(m.detail)
    .bind(m.received_at)
    .bind(i64::try_from(m.replies_held_back).unwrap_or(i64::MAX))
    .bind(m.body_sha256)
    .fetch_one(&mut *conn)
    .await?
    .get(0))
}

/// What the last hour holds for a message from `from` to `game`.
pub async fn recent(
    conn: &mut SqliteConnection,
    from: Option<&str>,
    game: Option<i64>,
    now: i64,
) -> Result<Recent, StoreError> {
    let hour_ago = now - 3600;
    // Only answers to the sender's own messages that did not advance a game
    // count: the limit bounds a conversation (an autoresponder ping-pong).
    // Relays of an opponent's moves are not one, and neither are the
    // confirmations of accepted commands, which are never held back; counting
    // them took the budget of a busy player's rejections and notices.
    let replies_to_sender: i64 = match from {
        // `limited` is set at insert (`outbox::enqueue_all`) for exactly
        // those answers; the partial index holds only them.
        Some(from) => {
            sqlx::query_scalar(
                "SELECT COUNT(*) FROM outbox
                 WHERE limited = 1 AND recipient = ? AND created_at > ?",
            )
            .bind(from)
            .bind(hour_ago)
            .fetch_one(&mut *conn)
            .await?
        }
        None => 0,
    };
    let security_notice_sent = match game {
        Some(g) => {
            let n: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM messages m JOIN outbox o ON o.message = m.id
                 WHERE m.game_id = ? AND m.outcome IN (?, ?) AND o.created_at > ?",
            )
            .bind(g)
            .bind(Outcome::Stranger.as_str())
            .bind(Outcome::AuthFailed.as_str())
            .bind(hour_ago)
            .fetch_one(&mut *conn)
            .await?;
            n > 0
        }
        None => false,
    };
    Ok(Recent {
        replies_to_sender: u32::try_from(replies_to_sender).unwrap_or(u32::MAX),
        security_notice_sent,
    })
}
