//! The `messages` table: every processed message with its outcome, the keys
//! against deciding one twice (its bytes, its inbox coordinates, its
//! Message-ID from its sender in its game), and the recent history a
//! decision counts.
//! [IO: SQLite]

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};

use super::StoreError;
use super::batch::Batch;
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

/// What a message's keys find in what was decided before.
#[derive(Debug, Default)]
pub struct History {
    /// The outcome of the same message seen before: same bytes, or (for an
    /// inbox's message) the same inbox coordinates.
    pub seen: Option<String>,
    /// The outcome of an earlier copy of it: the same Message-ID from the
    /// same sender in the same game (none: no game), with the same body.
    /// A copy recorded as from a stranger or as failing authentication does
    /// not count: its From was not trusted, and it must not stand in for the
    /// real player's message with the same Message-ID.
    pub copy: Option<String>,
    /// What the last hour holds for a message from its sender to its game.
    pub recent: Recent,
    /// The sender's stored language and how it was chosen, if any.
    pub sender_lang: Option<(crate::i18n::Lang, super::players::LangSource)>,
}

/// The keys of a message that [`history_into`] looks up.
pub struct Keys<'a> {
    pub sha256: &'a str,
    /// Its inbox coordinates, for an inbox whose coordinates name one
    /// message (IMAP); `None` for a Maildir file name.
    pub source: Option<&'a str>,
    pub message_id: Option<&'a str>,
    pub from: Option<&'a str>,
    /// The game its address names; counted only if that game exists.
    pub game: Option<i64>,
    pub body_sha256: &'a str,
    pub now: i64,
}

/// Everything the decision of one message reads from the messages, the
/// outbox and the sender's player row, as one statement added to `batch`
/// (`handle` sends it with the game's read and the writes before it); its
/// one row is read by [`history_of`].
pub fn history_into(batch: &mut Batch, k: &Keys<'_>) -> Result<(), StoreError> {
    // Only answers to the sender's own messages that did not advance a game
    // count against the hourly limit: the limit bounds a conversation (an
    // autoresponder ping-pong). Relays of an opponent's moves are not one,
    // and neither are the confirmations of accepted commands, which are
    // never held back; counted, they would take the budget of a busy
    // player's rejections and notices. `limited` is set at insert
    // (`outbox::enqueue_all`) for exactly those answers; the partial index
    // holds only them.
    batch.push(
        "WITH g(id) AS (SELECT id FROM games WHERE id = ?)
         SELECT
            (SELECT outcome FROM messages
             WHERE sha256 = ? OR (? IS NOT NULL AND source = ?) LIMIT 1) AS seen,
            CASE WHEN ? IS NULL OR ? = '' OR ? IS NULL THEN NULL ELSE
                (SELECT outcome FROM messages
                 WHERE message_id = ? AND from_addr = ? AND game_id IS NOT DISTINCT FROM (SELECT id FROM g)
                   AND body_sha256 = ? AND outcome NOT IN (?, ?)
                 ORDER BY id LIMIT 1) END AS copy,
            CASE WHEN ? IS NULL THEN 0 ELSE
                (SELECT COUNT(*) FROM outbox
                 WHERE limited = 1 AND recipient = ? AND created_at > ?) END AS replies,
            CASE WHEN (SELECT id FROM g) IS NULL THEN 0 ELSE
                (SELECT COUNT(*) FROM messages m JOIN outbox o ON o.message = m.id
                 WHERE m.game_id = (SELECT id FROM g)
                   -- written out, not bound: SQLite reads the partial
                   -- index messages_game_refused (migration 21) only for
                   -- a query that names its condition
                   AND m.outcome IN ('stranger', 'auth_failed')
                   AND o.created_at > ?) END AS notices,
            p.lang, p.lang_source
         FROM (SELECT 1) AS one LEFT JOIN players p ON p.email = ?",
        None,
        "history",
    );
    let message_id = k.message_id.map(str::to_owned);
    let from = k.from.map(str::to_owned);
    let hour_ago = k.now - 3600;
    batch.bind(k.game)?;
    batch.bind(k.sha256.to_owned())?;
    batch.bind(k.source.map(str::to_owned))?;
    batch.bind(k.source.map(str::to_owned))?;
    batch.bind(message_id.clone())?;
    batch.bind(message_id.clone())?;
    batch.bind(from.clone())?;
    batch.bind(message_id)?;
    batch.bind(from.clone())?;
    batch.bind(k.body_sha256.to_owned())?;
    batch.bind(Outcome::Stranger.as_str())?;
    batch.bind(Outcome::AuthFailed.as_str())?;
    batch.bind(from.clone())?;
    batch.bind(from)?;
    batch.bind(hour_ago)?;
    batch.bind(hour_ago)?;
    batch.bind(k.from.map(super::players::key))?;
    Ok(())
}

/// The [`History`] of the message with keys `k` from the row of its
/// [`history_into`] statement.
pub fn history_of(k: &Keys<'_>, row: &AnyRow) -> Result<History, StoreError> {
    let replies: i64 = row.try_get("replies")?;
    let sender_lang = match (k.from, row.try_get::<Option<String>, _>("lang")?) {
        (Some(from), Some(lang)) => Some(super::players::parse_lang(
            from,
            &lang,
            &row.try_get::<String, _>("lang_source")?,
        )?),
        _ => None,
    };
    let notices: i64 = row.try_get("notices")?;
    Ok(History {
        seen: row.try_get("seen")?,
        copy: row.try_get("copy")?,
        recent: Recent {
            replies_to_sender: u32::try_from(replies).unwrap_or(u32::MAX),
            security_notice_sent: notices > 0,
        },
        sender_lang,
    })
}

/// Inserts a processed message; returns its row id.
pub async fn insert(conn: &mut AnyConnection, m: &MessageRow<'_>) -> Result<i64, StoreError> {
    let mut batch = Batch::default();
    insert_into(&mut batch, m)?;
    run_for_id(conn, batch, m.sha256).await
}

/// Runs `batch`, which inserts the message with digest `sha256`, and reads
/// that message's row id in the same round trip.
pub async fn run_for_id(
    conn: &mut AnyConnection,
    mut batch: Batch,
    sha256: &str,
) -> Result<i64, StoreError> {
    batch.push(
        "SELECT id FROM messages WHERE sha256 = ?",
        None,
        "message id",
    );
    batch.bind(sha256.to_owned())?;
    let rows = batch.run(conn).await?;
    rows.last()
        .and_then(|r| r.first())
        .map(|r| r.try_get("id"))
        .transpose()?
        .ok_or_else(|| StoreError::Invariant("a message inserted without its row".into()))
}

/// The INSERT of message `m` (one row), added to `batch`; later statements
/// of the batch find the row by its unique digest.
pub fn insert_into(batch: &mut Batch, m: &MessageRow<'_>) -> Result<(), StoreError> {
    batch.push(
        "INSERT INTO messages (sha256, source, message_id, from_addr, game_id, outcome, detail, received_at, replies_held_back, body_sha256)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        Some(1),
        "message",
    );
    batch.bind(m.sha256.to_owned())?;
    batch.bind(m.source.to_owned())?;
    batch.bind(m.message_id.map(str::to_owned))?;
    batch.bind(m.from.map(str::to_owned))?;
    batch.bind(m.game)?;
    batch.bind(m.outcome.as_str())?;
    batch.bind(m.detail.to_owned())?;
    batch.bind(m.received_at)?;
    batch.bind(i64::try_from(m.replies_held_back).unwrap_or(i64::MAX))?;
    batch.bind(m.body_sha256.to_owned())
}

/// When the newest message was received (Unix seconds); `None` before any.
pub async fn last_received_at(conn: &mut AnyConnection) -> Result<Option<i64>, StoreError> {
    Ok(sqlx::query_scalar("SELECT MAX(received_at) FROM messages")
        .fetch_one(conn)
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The history's count of a game's refused messages names their
    /// outcomes in its SQL, as the partial index of migration 21 does: they
    /// are the outcomes of a stranger and of a failed authentication.
    #[test]
    fn the_refused_outcomes_the_history_and_its_index_name_are_stranger_and_auth_failed() {
        let mut batch = Batch::default();
        let keys = Keys {
            sha256: "s",
            source: None,
            message_id: Some("m@example.org"),
            from: Some("anna@example.org"),
            game: Some(17),
            body_sha256: "b",
            now: 0,
        };
        history_into(&mut batch, &keys).unwrap();
        let named = format!(
            "outcome IN ('{}', '{}')",
            Outcome::Stranger.as_str(),
            Outcome::AuthFailed.as_str()
        );
        assert!(batch.sql().contains(&named), "{}", batch.sql());
        let migration = include_str!("../../migrations/sqlite/0021_refused_messages_index.sql");
        assert!(migration.contains(&named), "{migration}");
    }
}
