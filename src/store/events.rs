//! The `events`, `event_players` and `event_games` tables: a section, its
//! players in seat order, and which games belong to it. [IO: SQLite]

use sqlx::{AnyConnection, Row};

use super::{StoreError, now_secs};
use crate::event::{EventGame, Outcome, Player};

/// An event as stored.
#[derive(Debug, Clone)]
pub struct StoredEvent {
    pub id: i64,
    pub name: String,
    pub double: bool,
    pub created_at: i64,
    /// In seat order.
    pub players: Vec<Player>,
}

/// Inserts an event; returns its id.
pub async fn insert(conn: &mut AnyConnection, name: &str, double: bool) -> Result<i64, StoreError> {
    Ok(sqlx::query(
        "INSERT INTO events (name, double, created_at) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(name)
    .bind(i64::from(double))
    .bind(now_secs())
    .fetch_one(&mut *conn)
    .await?
    .get("id"))
}

pub async fn insert_player(
    conn: &mut AnyConnection,
    event: i64,
    seat: usize,
    player: &Player,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO event_players (event_id, seat, email, name) VALUES ($1, $2, $3, $4)")
        .bind(event)
        .bind(i64::try_from(seat).unwrap_or(i64::MAX))
        .bind(&player.email)
        .bind(&player.name)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

pub async fn link_game(
    conn: &mut AnyConnection,
    event: i64,
    game: i64,
    round: usize,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO event_games (game_id, event_id, round) VALUES ($1, $2, $3)")
        .bind(game)
        .bind(event)
        .bind(i64::try_from(round).unwrap_or(i64::MAX))
        .execute(&mut *conn)
        .await?;
    Ok(())
}

pub async fn ids(conn: &mut AnyConnection) -> Result<Vec<i64>, StoreError> {
    Ok(sqlx::query_scalar("SELECT id FROM events ORDER BY id")
        .fetch_all(&mut *conn)
        .await?)
}

pub async fn load(conn: &mut AnyConnection, id: i64) -> Result<Option<StoredEvent>, StoreError> {
    let Some(row) = sqlx::query("SELECT name, double, created_at FROM events WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
    else {
        return Ok(None);
    };
    let players =
        sqlx::query("SELECT email, name FROM event_players WHERE event_id = $1 ORDER BY seat")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?
            .into_iter()
            .map(|r| Player {
                email: r.get("email"),
                name: r.get("name"),
            })
            .collect();
    Ok(Some(StoredEvent {
        id,
        name: row.get("name"),
        double: super::flag(&row, "double")?,
        created_at: row.get("created_at"),
        players,
    }))
}

/// The event's games in round order, as the crosstable reads them.
pub async fn games(conn: &mut AnyConnection, event: i64) -> Result<Vec<EventGame>, StoreError> {
    let rows = sqlx::query(
        "SELECT g.id, g.white_email, g.black_email, g.result, g.termination
         FROM event_games e JOIN games g ON g.id = e.game_id
         WHERE e.event_id = $1 ORDER BY e.round, g.id",
    )
    .bind(event)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let id: i64 = r.get("id");
        let result: String = r.get("result");
        let termination: Option<String> = r.get("termination");
        let outcome = Outcome::from_stored(&result, termination.as_deref()).ok_or_else(|| {
            StoreError::BadValue {
                game: id,
                value: format!("{result} {}", termination.unwrap_or_default()),
            }
        })?;
        out.push(EventGame {
            id,
            white: r.get("white_email"),
            black: r.get("black_email"),
            outcome,
        });
    }
    Ok(out)
}

/// The event a game belongs to, if any.
pub async fn of_game(conn: &mut AnyConnection, game: i64) -> Result<Option<i64>, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT event_id FROM event_games WHERE game_id = $1")
            .bind(game)
            .fetch_optional(&mut *conn)
            .await?,
    )
}

pub async fn mark_withdrawn(
    conn: &mut AnyConnection,
    event: i64,
    email: &str,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE event_players SET withdrawn_at = $1 WHERE event_id = $2 AND email = $3 AND withdrawn_at IS NULL",
    )
    .bind(now_secs())
    .bind(event)
    .bind(email)
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Stores an organiser's ruling on an unfinished game: forfeit or annulled.
/// Only an unfinished game is changed; false otherwise.
pub async fn set_ruling(
    conn: &mut AnyConnection,
    game: i64,
    outcome: Outcome,
) -> Result<bool, StoreError> {
    let Some(termination) = outcome.ruling_termination() else {
        return Ok(false);
    };
    let done = sqlx::query(
        "UPDATE games SET status = 'finished', result = $1, termination = $2, draw_offer = NULL, updated_at = $3
         WHERE id = $4 AND status = 'active'",
    )
    .bind(outcome.pgn_result())
    .bind(termination)
    .bind(now_secs())
    .bind(game)
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() > 0)
}
