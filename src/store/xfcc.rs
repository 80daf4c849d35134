//! The Xfcc tables: each player's password hash, and the last note each
//! seat sent with a move by Xfcc. [IO]

use shakmaty::Color;
use sqlx::AnyConnection;

use super::players::key;
use super::{StoreError, seat_str};

/// Sets (or replaces) the password hash of `email`.
pub async fn set_password_hash(
    conn: &mut AnyConnection,
    email: &str,
    hash: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO xfcc_accounts (email, password_hash, set_at) VALUES ($1, $2, $3) \
         ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash, set_at = excluded.set_at",
    )
    .bind(key(email))
    .bind(hash)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The password hash of `email`, if an account is set.
pub async fn password_hash(
    conn: &mut AnyConnection,
    email: &str,
) -> Result<Option<String>, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT password_hash FROM xfcc_accounts WHERE email = $1")
            .bind(key(email))
            .fetch_optional(&mut *conn)
            .await?,
    )
}

/// Ids of the games `email` plays in, finished or not, newest last.
pub async fn games_of(conn: &mut AnyConnection, email: &str) -> Result<Vec<i64>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE white_email = $1 OR black_email = $1 ORDER BY id",
    )
    .bind(key(email))
    .fetch_all(&mut *conn)
    .await?)
}

/// Keeps `note` as the last note of `seat` in `game`.
pub async fn set_note(
    conn: &mut AnyConnection,
    game: i64,
    seat: Color,
    note: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO xfcc_notes (game_id, seat, note, at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (game_id, seat) DO UPDATE SET note = excluded.note, at = excluded.at",
    )
    .bind(game)
    .bind(seat_str(seat))
    .bind(note)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The last note of `seat` in `game`, if any.
pub async fn note(
    conn: &mut AnyConnection,
    game: i64,
    seat: Color,
) -> Result<Option<String>, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT note FROM xfcc_notes WHERE game_id = $1 AND seat = $2")
            .bind(game)
            .bind(seat_str(seat))
            .fetch_optional(&mut *conn)
            .await?,
    )
}
