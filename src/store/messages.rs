//! The `messages` table: every processed message with its outcome, the keys
//! against deciding one twice (its bytes, its inbox coordinates, its
//! Message-ID from its sender in its game), and the recent history a
//! decision counts.
//! [IO: SQLite]

use sqlx::sqlite::SqliteArguments;
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

/// The keys of a message that [`history`] looks up.
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
/// outbox and the sender's player row, in one statement: each statement is
/// a round trip to the database thread, and this runs for every message.
pub async fn history(conn: &mut SqliteConnection, k: &Keys<'_>) -> Result<History, StoreError> {
    // Only answers to the sender's own messages that did not advance a game
    // count against the hourly limit: the limit bounds a conversation (an
    // autoresponder ping-pong). Relays of an opponent's moves are not one,
    // and neither are the confirmations of accepted commands, which are
    // never held back; counting them took the budget of a busy player's
    // rejections and notices. `limited` is set at insert
    // (`outbox::enqueue_all`) for exactly those answers; the partial index
    // holds only them.
    let row = sqlx::query(
        "WITH g(id) AS (SELECT id FROM games WHERE id = ?5)
         SELECT
            (SELECT outcome FROM messages
             WHERE sha256 = ?1 OR (?2 IS NOT NULL AND source = ?2) LIMIT 1),
            CASE WHEN ?3 IS NULL OR ?3 = '' OR ?4 IS NULL THEN NULL ELSE
                (SELECT outcome FROM messages
                 WHERE message_id = ?3 AND from_addr = ?4 AND game_id IS (SELECT id FROM g)
                   AND body_sha256 = ?6 AND outcome NOT IN (?8, ?9)
                 ORDER BY id LIMIT 1) END,
            CASE WHEN ?4 IS NULL THEN 0 ELSE
                (SELECT COUNT(*) FROM outbox
                 WHERE limited = 1 AND recipient = ?4 AND created_at > ?7) END,
            CASE WHEN (SELECT id FROM g) IS NULL THEN 0 ELSE
                (SELECT COUNT(*) FROM messages m JOIN outbox o ON o.message = m.id
                 WHERE m.game_id = (SELECT id FROM g) AND m.outcome IN (?8, ?9)
                   AND o.created_at > ?7) END,
            p.lang, p.lang_source
         FROM (SELECT 1) LEFT JOIN players p ON p.email = ?10",
    )
    .bind(k.sha256)
    .bind(k.source)
    .bind(k.message_id)
    .bind(k.from)
    .bind(k.game)
    .bind(k.body_sha256)
    .bind(k.now - 3600)
    .bind(Outcome::Stranger.as_str())
    .bind(Outcome::AuthFailed.as_str())
    .bind(k.from.map(super::players::key))
    .fetch_one(&mut *conn)
    .await?;
    let replies: i64 = row.try_get(2)?;
    let sender_lang = match (k.from, row.try_get::<Option<String>, _>(4)?) {
        (Some(from), Some(lang)) => Some(super::players::parse_lang(
            from,
            &lang,
            &row.try_get::<String, _>(5)?,
        )?),
        _ => None,
    };
    let notices: i64 = row.try_get(3)?;
    Ok(History {
        seen: row.try_get(0)?,
        copy: row.try_get(1)?,
        recent: Recent {
            replies_to_sender: u32::try_from(replies).unwrap_or(u32::MAX),
            security_notice_sent: notices > 0,
        },
        sender_lang,
    })
}

/// Inserts a processed message; returns its row id.
pub async fn insert(conn: &mut SqliteConnection, m: &MessageRow<'_>) -> Result<i64, StoreError> {
    let mut args = SqliteArguments::default();
    let sql = format!("{} RETURNING id", insert_sql(m, &mut args)?);
    Ok(sqlx::query_with(&sql, args)
        .fetch_one(&mut *conn)
        .await?
        .get(0))
}

/// The INSERT of message `m`, its ten values bound to `args` in the order
/// of its `?`s, for a batch of statements that shares its arguments (see
/// `games::save_change`).
pub(crate) fn insert_sql(
    m: &MessageRow<'_>,
    args: &mut SqliteArguments<'_>,
) -> Result<&'static str, StoreError> {
    use sqlx::Arguments as _;
    let bind = |v: Result<(), sqlx::error::BoxDynError>| v.map_err(sqlx::Error::Encode);
    bind(args.add(m.sha256.to_owned()))?;
    bind(args.add(m.source.to_owned()))?;
    bind(args.add(m.message_id.map(str::to_owned)))?;
    bind(args.add(m.from.map(str::to_owned)))?;
    bind(args.add(m.game))?;
    bind(args.add(m.outcome.as_str()))?;
    bind(args.add(m.detail.to_owned()))?;
    bind(args.add(m.received_at))?;
    bind(args.add(i64::try_from(m.replies_held_back).unwrap_or(i64::MAX)))?;
    bind(args.add(m.body_sha256.to_owned()))?;
    Ok(
        "INSERT INTO messages (sha256, source, message_id, from_addr, game_id, outcome, detail, received_at, replies_held_back, body_sha256)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
}
