//! The `games` and `moves` tables: a game as stored, replayed into its record,
//! and the rows a change of the game writes. [IO: SQLite]

use std::str::FromStr;

use shakmaty::Color;
use sqlx::{Row, SqliteConnection};

use super::{StoreError, now_secs};
use crate::decide::{GameView, Player};
use crate::game::{GameEnd, GameResult, Record, Termination};
use crate::i18n::Lang;
use crate::notation::IccfMove;

/// A game as stored, with its replayed record.
#[derive(Debug, Clone)]
pub struct StoredGame {
    pub view: GameView,
    pub event: Option<String>,
    pub thread_root: String,
    pub created_at: i64,
}

/// A new game's row: both players (lower-cased) and their display names,
/// their keys, where it starts.
pub struct NewGameRow<'a> {
    pub white: &'a str,
    pub black: &'a str,
    pub white_name: Option<&'a str>,
    pub black_name: Option<&'a str>,
    pub white_key: &'a str,
    pub black_key: &'a str,
    pub start_fen: &'a str,
    pub event: Option<&'a str>,
    pub thread_root: &'a str,
}

fn color_str(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn color_parse(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// Inserts a game; returns its id.
pub async fn insert(conn: &mut SqliteConnection, game: &NewGameRow<'_>) -> Result<i64, StoreError> {
    let now = now_secs();
    Ok(sqlx::query(
        "INSERT INTO games (white_email, black_email, white_name, black_name, white_key, black_key, start_fen, event, thread_root, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(game.white)
    .bind(game.black)
    .bind(game.white_name)
    .bind(game.black_name)
    .bind(game.white_key)
    .bind(game.black_key)
    .bind(game.start_fen)
    .bind(game.event)
    .bind(game.thread_root)
    .bind(now)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?
    .get(0))
}

/// How many unfinished games `email` plays.
pub async fn active_count(conn: &mut SqliteConnection, email: &str) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT COUNT(*) FROM games WHERE status = 'active' AND (white_email = ? OR black_email = ?)",
    )
    .bind(email)
    .bind(email)
    .fetch_one(&mut *conn)
    .await?)
}

/// Sets the key of `seat`; false when there is no such game.
pub async fn set_key(
    conn: &mut SqliteConnection,
    game: i64,
    seat: Color,
    key: &str,
) -> Result<bool, StoreError> {
    let sql = match seat {
        Color::White => "UPDATE games SET white_key = ?, updated_at = ? WHERE id = ?",
        Color::Black => "UPDATE games SET black_key = ?, updated_at = ? WHERE id = ?",
    };
    let done = sqlx::query(sql)
        .bind(key)
        .bind(now_secs())
        .bind(game)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn ids(conn: &mut SqliteConnection) -> Result<Vec<i64>, StoreError> {
    Ok(sqlx::query_scalar("SELECT id FROM games ORDER BY id")
        .fetch_all(&mut *conn)
        .await?)
}

/// The game `id` with its record replayed from its moves, if it exists.
pub async fn load(conn: &mut SqliteConnection, id: i64) -> Result<Option<StoredGame>, StoreError> {
    let Some(row) = sqlx::query(
        "SELECT g.white_email, g.black_email, g.white_key, g.black_key, g.start_fen, g.event,
                g.result, g.termination, g.draw_offer, g.thread_root, g.created_at,
                g.white_name, g.black_name, pw.lang, pb.lang
         FROM games g
         LEFT JOIN players pw ON pw.email = lower(g.white_email)
         LEFT JOIN players pb ON pb.email = lower(g.black_email)
         WHERE g.id = ?",
    )
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };
    let moves: Vec<String> =
        sqlx::query_scalar("SELECT iccf FROM moves WHERE game_id = ? ORDER BY ply")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
    let bad = |value: &str| StoreError::BadValue {
        game: id,
        value: value.to_owned(),
    };
    let mut parsed = Vec::with_capacity(moves.len());
    for m in &moves {
        parsed.push(IccfMove::from_str(m).map_err(|_| bad(m))?);
    }
    let start_fen: String = row.get(4);
    let mut record = Record::replay(Some(&start_fen), parsed)
        .map_err(|source| StoreError::Corrupt { game: id, source })?;
    let result: String = row.get(6);
    let termination: Option<String> = row.get(7);
    if let Some(t) = termination {
        let termination = Termination::parse(&t).ok_or_else(|| bad(&t))?;
        let result = match (termination, result.as_str()) {
            // An annulled game has no result (see `GameEnd::result_text`).
            (Termination::Annulled, "*") => GameResult::Draw,
            _ => GameResult::parse(&result).ok_or_else(|| bad(&result))?,
        };
        record.end = Some(GameEnd {
            result,
            termination,
        });
    }
    // A player with no language chosen or guessed reads English.
    let lang_of = |code: Option<String>| match code {
        Some(c) => Lang::from_code(&c).ok_or_else(|| bad(&c)),
        None => Ok(Lang::En),
    };
    let offer: Option<String> = row.get(8);
    record.draw_offer = match offer {
        Some(o) => Some(color_parse(&o).ok_or_else(|| bad(&o))?),
        None => None,
    };
    Ok(Some(StoredGame {
        view: GameView {
            id,
            white: Player {
                email: row.get(0),
                name: row.get(11),
                key: row.get(2),
                lang: lang_of(row.get(13))?,
            },
            black: Player {
                email: row.get(1),
                name: row.get(12),
                key: row.get(3),
                lang: lang_of(row.get(14))?,
            },
            record,
        },
        event: row.get(5),
        thread_root: row.get(9),
        created_at: row.get(10),
    }))
}

/// Persists the difference between `before` and `after`: new plies, result,
/// draw offer. The primary key (game, ply) makes a doubled move impossible.
/// `message` is the processed message that caused it, if any.
pub async fn save_change(
    conn: &mut SqliteConnection,
    game: i64,
    before: &Record,
    after: &Record,
    message: Option<i64>,
) -> Result<(), StoreError> {
    let now = now_secs();
    for (i, ply) in after.plies().iter().enumerate().skip(before.plies().len()) {
        let fen = after
            .position_after(i + 1)
            .map(crate::game::fen_of)
            .unwrap_or_default();
        sqlx::query(
            "INSERT INTO moves (game_id, ply, iccf, san, fen_after, played_at, message) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(game)
        .bind(i64::try_from(i + 1).unwrap_or(i64::MAX))
        .bind(ply.iccf.to_string())
        .bind(&ply.san)
        .bind(fen)
        .bind(now)
        .bind(message)
        .execute(&mut *conn)
        .await?;
    }
    let (status, result, termination) = match after.end {
        Some(end) => (
            "finished",
            end.result_text(),
            Some(end.termination.as_str()),
        ),
        None => ("active", "*", None),
    };
    sqlx::query(
        "UPDATE games SET status = ?, result = ?, termination = ?, draw_offer = ?, updated_at = ? WHERE id = ?",
    )
    .bind(status)
    .bind(result)
    .bind(termination)
    .bind(after.draw_offer.map(color_str))
    .bind(now)
    .bind(game)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Marks ply `ply` (1-based) of game `game` as a prepared answer played from
/// a stored set of conditional moves: made the moment the opponent's move
/// arrived, it costs no reflection time.
pub async fn mark_prepared(
    conn: &mut SqliteConnection,
    game: i64,
    ply: usize,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE moves SET prepared = 1 WHERE game_id = ? AND ply = ?")
        .bind(game)
        .bind(i64::try_from(ply).unwrap_or(i64::MAX))
        .execute(&mut *conn)
        .await?;
    Ok(())
}
