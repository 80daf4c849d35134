//! The clock tables: a game's control and start, each ply's arrival, the
//! players' leave, organiser rulings, and the deadline actions done.
//! [IO: SQLite]

use shakmaty::{ByColor, Color};
use sqlx::{AnyConnection, Row};

use super::{StoreError, seat_str};
use crate::clock::{Date, Leave, PlyTime, TimeControl};

pub use crate::clock::GameClock;

/// The clock of game `game`, `None` when there is no such game.
pub async fn game_clock(
    conn: &mut AnyConnection,
    game: i64,
) -> Result<Option<GameClock>, StoreError> {
    let Some(row) = sqlx::query(
        "SELECT time_control, COALESCE(clock_started, created_at) AS started, status, updated_at FROM games WHERE id = $1",
    )
    .bind(game)
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };
    let text: String = row.get("time_control");
    let control = text.parse().map_err(|_| StoreError::BadValue {
        game,
        value: text.clone(),
    })?;
    let status: String = row.get("status");
    let plies = sqlx::query(
        // A prepared (conditional) answer costs no time either.
        "SELECT COALESCE(arrived_at, played_at) AS arrived, CASE WHEN free + prepared > 0 THEN 1 ELSE 0 END AS free FROM moves WHERE game_id = $1 ORDER BY ply",
    )
    .bind(game)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .map(|r| PlyTime {
        arrived: r.get("arrived"),
        free: r.get::<i64, _>("free") != 0,
    })
    .collect();
    let mut extra_days = ByColor { white: 0, black: 0 };
    for c in [Color::White, Color::Black] {
        extra_days[c] = sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(days), 0) AS BIGINT) FROM clock_rulings WHERE game_id = $1 AND seat = $2",
        )
        .bind(game)
        .bind(seat_str(c))
        .fetch_one(&mut *conn)
        .await?;
    }
    Ok(Some(GameClock {
        control,
        started: row.get("started"),
        plies,
        extra_days,
        ended_at: (status == "finished").then(|| row.get("updated_at")),
    }))
}

/// Sets a new game's control and the instant its clock starts.
pub async fn set_control(
    conn: &mut AnyConnection,
    game: i64,
    control: TimeControl,
    started: i64,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE games SET time_control = $1, clock_started = $2 WHERE id = $3")
        .bind(control.to_string())
        .bind(started)
        .bind(game)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Every leave of the player `email`, earliest first.
pub async fn leaves(conn: &mut AnyConnection, email: &str) -> Result<Vec<Leave>, StoreError> {
    let rows =
        sqlx::query("SELECT from_day, to_day FROM leaves WHERE email = $1 ORDER BY from_day")
            .bind(email)
            .fetch_all(&mut *conn)
            .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let (from, to): (String, String) = (r.get("from_day"), r.get("to_day"));
        let parse = |s: &str| {
            s.parse::<Date>().map_err(|_| StoreError::BadValue {
                game: 0,
                value: s.to_owned(),
            })
        };
        out.push(Leave {
            from: parse(&from)?,
            to: parse(&to)?,
        });
    }
    Ok(out)
}

/// Adds a leave of `email` (already decided as granted).
pub async fn insert_leave(
    conn: &mut AnyConnection,
    email: &str,
    leave: Leave,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO leaves (email, from_day, to_day, created_at) VALUES ($1, $2, $3, $4)")
        .bind(email)
        .bind(leave.from.to_string())
        .bind(leave.to.to_string())
        .bind(now)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Adds a ruling of `days` (positive: given) for `seat` of `game`.
pub async fn insert_ruling(
    conn: &mut AnyConnection,
    game: i64,
    seat: Color,
    days: i64,
    reason: Option<&str>,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO clock_rulings (game_id, seat, days, reason, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(game)
    .bind(seat_str(seat))
    .bind(days)
    .bind(reason)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Marks the deadline `key` of `game` done; false if it already was (the
/// action must then not be taken again).
pub async fn mark_deadline_done(
    conn: &mut AnyConnection,
    game: i64,
    key: &str,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "INSERT INTO deadlines_done (game_id, key, done_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
    )
    .bind(game)
    .bind(key)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// The deadline keys of `game` already done.
pub async fn deadlines_done(
    conn: &mut AnyConnection,
    game: i64,
) -> Result<Vec<String>, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT key FROM deadlines_done WHERE game_id = $1 ORDER BY key")
            .bind(game)
            .fetch_all(&mut *conn)
            .await?,
    )
}

/// Ids of the unfinished games with a time control.
pub async fn timed_active_games(conn: &mut AnyConnection) -> Result<Vec<i64>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE status = 'active' AND time_control <> 'none' ORDER BY id",
    )
    .fetch_all(&mut *conn)
    .await?)
}

/// Ids of the unfinished games the player `email` plays in (any control):
/// their leave concerns every one of them.
pub async fn active_games_of(
    conn: &mut AnyConnection,
    email: &str,
) -> Result<Vec<i64>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE status = 'active' AND (white_email = $1 OR black_email = $1) ORDER BY id",
    )
    .bind(email)
    .fetch_all(&mut *conn)
    .await?)
}

/// Removes the leave of `email` starting `from`.
pub async fn delete_leave(
    conn: &mut AnyConnection,
    email: &str,
    from: Date,
) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM leaves WHERE email = $1 AND from_day = $2")
        .bind(email)
        .bind(from.to_string())
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Ends the leave of `email` starting `from` on `to` instead.
pub async fn shorten_leave(
    conn: &mut AnyConnection,
    email: &str,
    from: Date,
    to: Date,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE leaves SET to_day = $1 WHERE email = $2 AND from_day = $3")
        .bind(to.to_string())
        .bind(email)
        .bind(from.to_string())
        .execute(&mut *conn)
        .await?;
    Ok(())
}
