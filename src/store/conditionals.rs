//! The `conditionals` table: each seat's stored set of conditional moves,
//! one row per game and seat, in the tree's compact text. [IO: database]

use shakmaty::{ByColor, Color};
use sqlx::{AnyConnection, Row};

use crate::conditional::ConditionalTree;

use super::{StoreError, now_secs, seat_str};

/// Both seats' stored sets of game `game`. A text that does not read back is
/// a damaged database, reported as such.
pub async fn load(
    conn: &mut AnyConnection,
    game: i64,
) -> Result<ByColor<Option<ConditionalTree>>, StoreError> {
    let rows = sqlx::query("SELECT seat, tree FROM conditionals WHERE game_id = $1")
        .bind(game)
        .fetch_all(&mut *conn)
        .await?;
    let mut out: ByColor<Option<ConditionalTree>> = ByColor::default();
    for row in rows {
        let seat: String = row.get("seat");
        let text: String = row.get("tree");
        let bad = || StoreError::BadValue {
            game,
            value: format!("{seat}: {text}"),
        };
        let color = match seat.as_str() {
            "white" => Color::White,
            "black" => Color::Black,
            _ => return Err(bad()),
        };
        let tree = ConditionalTree::from_stored(&text).map_err(|_| bad())?;
        if tree.seat != color {
            return Err(bad());
        }
        *out.get_mut(color) = Some(tree);
    }
    Ok(out)
}

/// Stores `tree` as its seat's set in game `game`, replacing any.
pub async fn save(
    conn: &mut AnyConnection,
    game: i64,
    tree: &ConditionalTree,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO conditionals (game_id, seat, tree, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (game_id, seat) DO UPDATE SET tree = excluded.tree, updated_at = excluded.updated_at",
    )
    .bind(game)
    .bind(seat_str(tree.seat))
    .bind(tree.to_stored())
    .bind(now_secs())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Clears the set of `seat` in game `game` (nothing if none is stored).
pub async fn clear(conn: &mut AnyConnection, game: i64, seat: Color) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM conditionals WHERE game_id = $1 AND seat = $2")
        .bind(game)
        .bind(seat_str(seat))
        .execute(&mut *conn)
        .await?;
    Ok(())
}
