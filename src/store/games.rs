//! The `games` and `moves` tables: a game as stored, replayed into its record,
//! and the rows a change of the game writes. [IO: SQLite]

use std::str::FromStr;

use shakmaty::{Color, Position as _};
use sqlx::{AnyConnection, Row};

use super::batch::Batch;
use super::messages::MessageRow;
use super::{StoreError, now_secs};
use crate::decide::{GameView, Player};
use crate::game::{GameEnd, GameResult, Record, Termination, position_key};
use crate::i18n::Lang;
use crate::notation::{IccfMove, Ply};
use crate::reply::cache::Renderings;

/// A game as stored, with its record.
#[derive(Debug, Clone)]
pub struct StoredGame {
    pub view: GameView,
    /// The renderings of the record's sealed plies kept beside it, in the
    /// players' languages, which its replies continue (see
    /// [`crate::reply::cache`]).
    pub kept: Renderings,
    pub event: Option<String>,
    pub thread_root: String,
    pub created_at: i64,
    /// Its time control (`none`: no clock runs).
    pub time_control: crate::clock::TimeControl,
    /// Whether a player stored conditional moves in it (read with the game,
    /// so a game without any costs no second lookup).
    pub has_conditionals: bool,
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

fn color_parse(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// Inserts a game; returns its id.
pub async fn insert(conn: &mut AnyConnection, game: &NewGameRow<'_>) -> Result<i64, StoreError> {
    let now = now_secs();
    Ok(sqlx::query_scalar(
        "INSERT INTO games (white_email, black_email, white_name, black_name, white_key, black_key, start_fen, event, thread_root, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
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
    .await?)
}

/// How many unfinished games `email` plays.
pub async fn active_count(conn: &mut AnyConnection, email: &str) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT COUNT(*) FROM games WHERE status = 'active' AND (white_email = $1 OR black_email = $2)",
    )
    .bind(email)
    .bind(email)
    .fetch_one(&mut *conn)
    .await?)
}

/// Sets the key of `seat`; false when there is no such game.
pub async fn set_key(
    conn: &mut AnyConnection,
    game: i64,
    seat: Color,
    key: &str,
) -> Result<bool, StoreError> {
    let sql = match seat {
        Color::White => "UPDATE games SET white_key = $1, updated_at = $2 WHERE id = $3",
        Color::Black => "UPDATE games SET black_key = $1, updated_at = $2 WHERE id = $3",
    };
    let done = sqlx::query(sql)
        .bind(key)
        .bind(now_secs())
        .bind(game)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn ids(conn: &mut AnyConnection) -> Result<Vec<i64>, StoreError> {
    Ok(sqlx::query_scalar("SELECT id FROM games ORDER BY id")
        .fetch_all(&mut *conn)
        .await?)
}

/// The game `id`, if it exists, with its record as stored: the plies with
/// their SAN (the texts of `record_parts` and `records`, checked against
/// the last ply in `moves`) and the position after the last ply, in one
/// statement whatever the game's length; nothing is replayed. The keys a
/// repetition claim counts are left unread ([`read_window`] reads them).
/// A game with plies stored before their position keys were
/// ([`backfill_keys`] fills them in) is replayed.
pub async fn load(conn: &mut AnyConnection, id: i64) -> Result<Option<StoredGame>, StoreError> {
    let mut batch = Batch::default();
    load_into(&mut batch, id)?;
    let mut rows = batch.run(&mut *conn).await?;
    let row = rows.pop().and_then(|mut r| r.pop());
    load_of(conn, id, row).await
}

/// [`load_into`]'s statement, with `$unkeyed` the table the unkeyed plies
/// are looked for in: SQLite is told to use the partial index of unkeyed
/// plies (see [`load_of`]); PostgreSQL has no `INDEXED BY` and picks it
/// from its statistics.
macro_rules! load_sql {
    ($unkeyed:literal) => {
        concat!(
            "SELECT g.white_email, g.black_email, g.white_key, g.black_key, g.start_fen, g.event,
                        g.result, g.termination, g.draw_offer, g.thread_root, g.created_at,
                        g.white_name, g.black_name, pw.lang AS white_lang, pb.lang AS black_lang,
                        (SELECT fen_after FROM moves WHERE game_id = g.id ORDER BY ply DESC LIMIT 1)
                            AS now_fen,
                        (SELECT plies FROM records WHERE game_id = g.id) AS plies_text,
                        EXISTS (SELECT 1 FROM ", $unkeyed, " WHERE game_id = g.id AND key IS NULL)
                            AS unkeyed,
                        g.time_control,
                        EXISTS (SELECT 1 FROM conditionals WHERE game_id = g.id) AS has_conditionals,
                        (SELECT MAX(ply) FROM moves WHERE game_id = g.id) AS last_ply,
                        (SELECT string_agg(plies, ',' ORDER BY part) FROM record_parts WHERE game_id = g.id)
                            AS sealed_text,
                        (SELECT rendered FROM record_renders
                         WHERE game_id = g.id AND lang = coalesce(pw.lang, 'en')) AS white_render,
                        CASE WHEN coalesce(pb.lang, 'en') = coalesce(pw.lang, 'en') THEN NULL
                             ELSE (SELECT rendered FROM record_renders
                                   WHERE game_id = g.id AND lang = coalesce(pb.lang, 'en')) END
                            AS black_render
                 FROM games g
                 LEFT JOIN players pw ON pw.email = lower(g.white_email)
                 LEFT JOIN players pb ON pb.email = lower(g.black_email)
                 WHERE g.id = ?"
        )
    };
}

/// [`load`]'s statement, added to `batch`; its row (none: no such game)
/// is read by [`load_of`].
pub fn load_into(batch: &mut Batch, id: i64) -> Result<(), StoreError> {
    batch.push_dialects(
        load_sql!("moves INDEXED BY moves_unkeyed"),
        load_sql!("moves"),
        None,
        "game",
    );
    batch.bind(id)
}

/// Game `id` from the row of its [`load_into`] statement; reads more only
/// when the stored record and its plies disagree.
pub async fn load_of(
    conn: &mut AnyConnection,
    id: i64,
    row: Option<sqlx::any::AnyRow>,
) -> Result<Option<StoredGame>, StoreError> {
    let Some(row) = row else {
        return Ok(None);
    };
    let bad = |value: &str| bad_value(id, value);
    // A player with no language chosen or guessed reads English.
    let lang_of = |code: Option<String>| match code {
        Some(c) => Lang::from_code(&c).ok_or_else(|| bad(&c)),
        None => Ok(Lang::En),
    };
    let white_lang = lang_of(row.try_get("white_lang")?)?;
    let black_lang = lang_of(row.try_get("black_lang")?)?;
    let start_fen: String = row.try_get("start_fen")?;
    // Named: without statistics SQLite walks the game's plies by the
    // primary key to find none unkeyed (31 µs at ply 300, per move); the
    // partial index holds only unkeyed plies, normally none.
    let (mut record, kept) = if super::flag(&row, "unkeyed")? {
        (replayed(conn, id, &start_fen).await?, Renderings::default())
    } else {
        let stored = StoredText::of(&row)?;
        stored
            .record(conn, id, &start_fen, [white_lang, black_lang])
            .await?
    };
    record.end = game_end(&row, id)?;
    let offer: Option<String> = row.try_get("draw_offer")?;
    record.draw_offer = match offer {
        Some(o) => Some(color_parse(&o).ok_or_else(|| bad(&o))?),
        None => None,
    };
    let time_control: String = row.try_get("time_control")?;
    Ok(Some(StoredGame {
        view: GameView {
            id,
            white: Player {
                email: row.try_get("white_email")?,
                name: row.try_get("white_name")?,
                key: row.try_get("white_key")?,
                lang: white_lang,
            },
            black: Player {
                email: row.try_get("black_email")?,
                name: row.try_get("black_name")?,
                key: row.try_get("black_key")?,
                lang: black_lang,
            },
            record,
        },
        kept,
        event: row.try_get("event")?,
        thread_root: row.try_get("thread_root")?,
        created_at: row.try_get("created_at")?,
        time_control: time_control.parse().map_err(|_| bad(&time_control))?,
        has_conditionals: super::flag(&row, "has_conditionals")?,
    }))
}

fn bad_value(game: i64, value: &str) -> StoreError {
    StoreError::BadValue {
        game,
        value: value.to_owned(),
    }
}

/// How game `id`'s row says it ended, if it did.
fn game_end(row: &sqlx::any::AnyRow, id: i64) -> Result<Option<GameEnd>, StoreError> {
    let result: String = row.try_get("result")?;
    let termination: Option<String> = row.try_get("termination")?;
    let Some(t) = termination else {
        return Ok(None);
    };
    let termination = Termination::parse(&t).ok_or_else(|| bad_value(id, &t))?;
    let result = match (termination, result.as_str()) {
        // An annulled game has no result (see `GameEnd::result_text`).
        (Termination::Annulled, "*") => GameResult::Draw,
        _ => GameResult::parse(&result).ok_or_else(|| bad_value(id, &result))?,
    };
    Ok(Some(GameEnd {
        result,
        termination,
    }))
}

/// A game's record as its row holds it: the sealed parts' plies text
/// (every full [`RECORD_PART`] plies), the plies after them, the position
/// now, and the kept renderings of the sealed plies in the players'
/// languages (the second only if it differs).
struct StoredText<'r> {
    sealed: String,
    text: String,
    /// How many plies `moves` holds: the record of truth.
    stored: usize,
    now_fen: Option<String>,
    kept: [Option<&'r [u8]>; 2],
}

impl<'r> StoredText<'r> {
    fn of(row: &'r sqlx::any::AnyRow) -> Result<StoredText<'r>, StoreError> {
        let sealed: Option<String> = row.try_get("sealed_text")?;
        let text: Option<String> = row.try_get("plies_text")?;
        let last_ply: Option<i64> = row.try_get("last_ply")?;
        Ok(StoredText {
            sealed: sealed.unwrap_or_default(),
            text: text.unwrap_or_default(),
            stored: usize::try_from(last_ply.unwrap_or(0)).unwrap_or(usize::MAX),
            now_fen: row.try_get("now_fen")?,
            kept: [row.try_get("white_render")?, row.try_get("black_render")?],
        })
    }

    /// How many plies the sealed parts hold.
    fn sealed_count(&self) -> usize {
        if self.sealed.is_empty() {
            0
        } else {
            memchr::memchr_iter(b',', self.sealed.as_bytes()).count() + 1
        }
    }

    /// The kept renderings made from the sealed plies as read (their count
    /// and their text's hash, see `renders`), in `langs`.
    fn renderings(&self, langs: [Lang; 2]) -> Renderings {
        let sealed_count = self.sealed_count();
        let mut renderings = Renderings::default();
        if sealed_count > 0 && self.kept.iter().any(Option::is_some) {
            let hash = super::renders::plies_hash(&self.sealed);
            for (row, lang) in self.kept.into_iter().zip(langs) {
                if let Some(r) =
                    row.and_then(|r| super::renders::from_row(r, lang, sealed_count, hash))
                {
                    renderings.keep(r);
                }
            }
        }
        renderings
    }

    /// The record, not replayed, and the kept renderings beside it. A
    /// rendering vouches for the sealed plies' text (the store wrote it,
    /// and the rendering's hash of it matches): those plies are then left
    /// unread in the record, as a move's path needs only the plies after
    /// them, and its replies continue the rendering.
    async fn record(
        mut self,
        conn: &mut AnyConnection,
        id: i64,
        start_fen: &str,
        langs: [Lang; 2],
    ) -> Result<(Record, Renderings), StoreError> {
        let bad = |value: &str| bad_value(id, value);
        let mut renderings = self.renderings(langs);
        // Room for the plies a move adds (its own, a prepared answer):
        // pushing them does not copy the whole game's plies again.
        let mut plies = Vec::with_capacity((self.sealed.len() + self.text.len()) / 9 + 4);
        let mut unread = None;
        if !renderings.is_empty() {
            let sealed_count = self.sealed_count();
            parse_plies_into(&mut plies, &self.text, &bad)?;
            if sealed_count + plies.len() == self.stored {
                unread = Some(crate::game::UnreadPlies {
                    text: std::mem::take(&mut self.sealed),
                    count: sealed_count,
                });
            } else {
                renderings = Renderings::default();
                plies.clear();
            }
        }
        if unread.is_none() {
            parse_plies_into(&mut plies, &self.sealed, &bad)?;
            parse_plies_into(&mut plies, &self.text, &bad)?;
            if plies.len() != self.stored {
                plies = plies_from_moves(conn, id, plies.len(), self.stored).await?;
            }
        }
        let corrupt = |source| StoreError::Corrupt { game: id, source };
        let now = match &self.now_fen {
            Some(fen) => Some(crate::game::position_from_fen(fen).map_err(corrupt)?),
            None => None,
        };
        // The window a repetition claim counts in: the positions after the
        // plies `from..=n` (since the last capture or pawn move).
        let n = unread.as_ref().map_or(0, |u| u.count) + plies.len();
        let halfmoves = match &now {
            Some(pos) => usize::try_from(pos.halfmoves()).unwrap_or(usize::MAX),
            None => 0,
        };
        let from = n - halfmoves.min(n);
        // Their keys are read only for a claim ([`read_window`]): a move
        // without one never counts them, and a long game without a capture
        // or pawn move would read (or keep) hundreds of them every move.
        let earlier = (from >= n).then(Vec::new);
        let record = match unread {
            Some(unread) => {
                Record::from_stored_unread(start_fen, unread, plies, now, earlier, from)
            }
            None => Record::from_stored(start_fen, plies, now, earlier, from),
        }
        .map_err(corrupt)?;
        Ok((record, renderings))
    }
}

/// Game `id`'s plies read from its moves, when its plies text (`in_records`
/// plies) does not match them (`in_moves`). `records` is written in the
/// same batch as `moves`; a difference means the database was changed by
/// other hands. The moves are the record of truth.
async fn plies_from_moves(
    conn: &mut AnyConnection,
    id: i64,
    in_records: usize,
    in_moves: usize,
) -> Result<Vec<Ply>, StoreError> {
    tracing::warn!(
        game = id,
        in_records,
        in_moves,
        "the game's plies text does not match its moves; reading the moves"
    );
    let text: Option<String> = sqlx::query_scalar(
        "SELECT string_agg(iccf || ' ' || san, ',' ORDER BY ply) FROM moves WHERE game_id = $1",
    )
    .bind(id)
    .fetch_one(&mut *conn)
    .await?;
    parse_plies(text.as_deref().unwrap_or(""), &|value| bad_value(id, value))
}

/// How many plies a sealed part of a game's plies text holds
/// (`record_parts`): the plies after the last full part are in `records`,
/// the row each move rewrites (at most 63 plies, some 600 bytes, instead of
/// the whole game: 2.7 KB at ply 300, an overflow page freed and taken
/// again with every move). `0020_record_parts.sql` seals the games a
/// database holds when it makes `record_parts` with the same number.
const RECORD_PART: usize = 64;

/// Plies as they are stored, `iccf san` joined by commas.
fn plies_text(plies: &[Ply]) -> String {
    let mut text = String::with_capacity(plies.len() * 10);
    for ply in plies {
        if !text.is_empty() {
            text.push(',');
        }
        ply.iccf.push_to(&mut text);
        text.push(' ');
        text.push_str(&ply.san);
    }
    text
}

/// Plies from their stored text, `iccf san` joined by commas.
fn parse_plies(text: &str, bad: &dyn Fn(&str) -> StoreError) -> Result<Vec<Ply>, StoreError> {
    let mut plies = Vec::with_capacity(text.len() / 9 + 1);
    parse_plies_into(&mut plies, text, bad)?;
    Ok(plies)
}

/// [`parse_plies`], appending to `plies`.
fn parse_plies_into(
    plies: &mut Vec<Ply>,
    text: &str,
    bad: &dyn Fn(&str) -> StoreError,
) -> Result<(), StoreError> {
    crate::notation::read_stored_plies(plies, text).map_err(bad)
}

/// Reads the keys `record` (game `id`'s, loaded by [`load`]) left unread
/// that a repetition claim counts ([`Record::window_unread`]), before a
/// claim is judged: one aggregate read, where the record would otherwise
/// replay its plies from the start to count them.
pub async fn read_window(
    conn: &mut AnyConnection,
    id: i64,
    record: &mut Record,
) -> Result<(), StoreError> {
    if let Some((from, n)) = record.window_unread() {
        let keys = earlier_keys(conn, id, record.start_fen(), from, n).await?;
        record.read_window(keys);
    }
    Ok(())
}

/// The positions that stood on the board after the plies `from..n` of
/// game `id` (0 plies: the start), by Zobrist key, each as often as it
/// stood there: read from one aggregate row per distinct position.
async fn earlier_keys(
    conn: &mut AnyConnection,
    id: i64,
    start_fen: &str,
    from: usize,
    n: usize,
) -> Result<Vec<u64>, StoreError> {
    let mut keys = Vec::new();
    if from >= n {
        return Ok(keys);
    }
    if from == 0 {
        let start = crate::game::position_from_fen(start_fen)
            .map_err(|source| StoreError::Corrupt { game: id, source })?;
        keys.push(position_key(&start));
    }
    let rows: Vec<KeyCount> = sqlx::query_as(
        "SELECT key, COUNT(*) AS count FROM moves WHERE game_id = $1 AND ply >= $2 AND ply < $3 GROUP BY key",
    )
    .bind(id)
    .bind(i64::try_from(from.max(1)).unwrap_or(i64::MAX))
    .bind(i64::try_from(n).unwrap_or(i64::MAX))
    .fetch_all(&mut *conn)
    .await?;
    for KeyCount { key, count } in rows {
        let key = u64::from_ne_bytes(key.to_ne_bytes());
        keys.extend(std::iter::repeat_n(
            key,
            usize::try_from(count).unwrap_or(0),
        ));
    }
    Ok(keys)
}

/// A position's key, and how many times it stood on the board.
#[derive(sqlx::FromRow)]
struct KeyCount {
    key: i64,
    count: i64,
}

/// Game `id`'s record replayed from its moves (every position kept).
async fn replayed(
    conn: &mut AnyConnection,
    id: i64,
    start_fen: &str,
) -> Result<Record, StoreError> {
    let moves: Vec<String> =
        sqlx::query_scalar("SELECT iccf FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
    let mut parsed = Vec::with_capacity(moves.len());
    for m in &moves {
        parsed.push(IccfMove::from_str(m).map_err(|_| StoreError::BadValue {
            game: id,
            value: m.clone(),
        })?);
    }
    Record::replay(Some(start_fen), parsed)
        .map_err(|source| StoreError::Corrupt { game: id, source })
}

/// A game with plies stored before their position keys were.
#[derive(sqlx::FromRow)]
struct Unkeyed {
    id: i64,
    start_fen: String,
}

/// Fills in the position key of every ply stored before keys were (moves
/// from a database of an earlier version), replaying those games once.
/// Returns how many games it filled in.
pub async fn backfill_keys(conn: &mut AnyConnection) -> Result<usize, StoreError> {
    let games: Vec<Unkeyed> = sqlx::query_as(
        "SELECT id, start_fen FROM games WHERE id IN (SELECT DISTINCT game_id FROM moves WHERE key IS NULL)",
    )
    .fetch_all(&mut *conn)
    .await?;
    for Unkeyed { id, start_fen } in &games {
        let record = replayed(conn, *id, start_fen).await?;
        for ply in 1..=record.plies().len() {
            let key = record.position_after(ply).map(|p| position_key(&p));
            sqlx::query("UPDATE moves SET key = $1 WHERE game_id = $2 AND ply = $3")
                .bind(key.map(|k| i64::from_ne_bytes(k.to_ne_bytes())))
                .bind(id)
                .bind(i64::try_from(ply).unwrap_or(i64::MAX))
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(games.len())
}

/// Persists the difference between `before` and `after`, made by hand or
/// by a deadline (no message caused it): new plies, result, draw offer. The
/// primary key (game, ply) makes a doubled move impossible. `arrived`, when
/// the new plies arrived (they then cost reflection time: not `free`). One
/// statement batch, one round trip to the database thread: the new plies in
/// one INSERT, their text appended to the game's `records` row, then the
/// game's row. No renderings are at hand here: a change of a game with
/// sealed plies, still going, stores their renderings in `langs` again
/// (the same rows).
pub async fn save_change(
    conn: &mut AnyConnection,
    game: i64,
    langs: [Lang; 2],
    before: &Record,
    after: &Record,
    arrived: Option<i64>,
) -> Result<(), StoreError> {
    let mut batch = Batch::default();
    let change = Change {
        game,
        langs,
        before,
        kept: None,
        after,
    };
    save_change_into(&mut batch, &change, None, arrived)?;
    batch.run(conn).await?;
    Ok(())
}

/// A change of game `game` to store: from the record `before` (loaded
/// with the renderings `kept` beside it) to `after`; `langs`, its players'
/// languages, those its sealed plies are kept rendered in.
pub struct Change<'a> {
    pub game: i64,
    pub langs: [Lang; 2],
    pub before: &'a Record,
    pub kept: Option<&'a Renderings>,
    pub after: &'a Record,
}

/// [`save_change`]'s statements for `change`, added to `batch`, led by the
/// row of `message` when a processed message caused the change (the plies
/// point at it by its unique digest): they run when the batch does. The
/// sealed plies are rendered and stored in the players' languages where
/// `change.kept` has no current rendering of them (see
/// [`Renderings::to_store`]).
pub fn save_change_into(
    batch: &mut Batch,
    change: &Change<'_>,
    message: Option<&MessageRow<'_>>,
    arrived: Option<i64>,
) -> Result<(), StoreError> {
    let &Change {
        game,
        langs,
        before,
        kept,
        after,
    } = change;
    let now = now_secs();
    let digest = message.map(|m| m.sha256);
    if let Some(m) = message {
        super::messages::insert_into(batch, m)?;
    }
    let new = NewPlies {
        game,
        before,
        after,
    };
    if new.count() > 0 {
        new.moves_into(batch, digest, now, arrived)?;
        new.text_into(batch, langs, kept)?;
    }
    if after.end.is_some() && before.end.is_none() && after.ply_count() >= RECORD_PART {
        super::renders::forget_into(batch, game)?;
    }
    game_row_into(batch, game, before, after, now)
}

/// The plies of game `game` that `after` has and `before` had not: the new
/// plies only, so a long game's sealed plies stay unread.
struct NewPlies<'a> {
    game: i64,
    before: &'a Record,
    after: &'a Record,
}

impl NewPlies<'_> {
    fn done(&self) -> usize {
        self.before.ply_count()
    }

    fn count(&self) -> usize {
        self.after.plies_from(self.done()).len()
    }

    /// The new plies' rows in `moves`, in one INSERT, pointing at the
    /// message with `digest` that brought them.
    fn moves_into(
        &self,
        batch: &mut Batch,
        digest: Option<&str>,
        now: i64,
        arrived: Option<i64>,
    ) -> Result<(), StoreError> {
        let (game, done, after) = (self.game, self.done(), self.after);
        let count = self.count();
        let mut rows = Vec::with_capacity(count);
        let mut values = Vec::with_capacity(count);
        for (i, ply) in after.plies_from(done).iter().enumerate() {
            let i = done + i;
            let position = after.position_after(i + 1).ok_or(StoreError::BadValue {
                game,
                value: format!("no position after ply {}", i + 1),
            })?;
            rows.push("(?, ?, ?, ?, ?, ?, (SELECT id FROM messages WHERE sha256 = ?), ?, ?)");
            let key = position_key(&position);
            values.push((
                i64::try_from(i + 1).unwrap_or(i64::MAX),
                ply.iccf.to_string(),
                ply.san.to_string(),
                crate::game::fen_of(&position),
                i64::from_ne_bytes(key.to_ne_bytes()),
            ));
        }
        batch.push(
            &format!(
                "INSERT INTO moves (game_id, ply, iccf, san, fen_after, played_at, message, key, arrived_at) VALUES {}",
                rows.join(", ")
            ),
            Some(u64::try_from(count).unwrap_or(u64::MAX)),
            "plies",
        );
        for (ply, iccf, san, fen, key) in values {
            batch.bind(game)?;
            batch.bind(ply)?;
            batch.bind(iccf)?;
            batch.bind(san)?;
            batch.bind(fen)?;
            batch.bind(now)?;
            batch.bind(digest.map(str::to_owned))?;
            batch.bind(key)?;
            batch.bind(arrived)?;
        }
        Ok(())
    }

    /// The plies text: every full [`RECORD_PART`] plies sealed in a part
    /// of their own, written once, with their renderings in `langs` (where
    /// `kept` has none current); `records` holds the plies after the last
    /// full part, so the row a move rewrites stays small.
    fn text_into(
        &self,
        batch: &mut Batch,
        langs: [Lang; 2],
        kept: Option<&Renderings>,
    ) -> Result<(), StoreError> {
        let (game, done, after) = (self.game, self.done(), self.after);
        let (sealed_before, sealed_after) = (done / RECORD_PART, after.ply_count() / RECORD_PART);
        let sealed = sealed_after > sealed_before;
        // All the plies only for a part sealed now.
        let plies = if sealed { after.plies() } else { &[] };
        for part in sealed_before..sealed_after {
            batch.push(
                "INSERT INTO record_parts (game_id, part, plies) VALUES (?, ?, ?)
                 ON CONFLICT (game_id, part) DO UPDATE SET plies = excluded.plies",
                Some(1),
                "record part",
            );
            batch.bind(game)?;
            batch.bind(i64::try_from(part).unwrap_or(i64::MAX))?;
            batch.bind(plies_text(
                &plies[part * RECORD_PART..(part + 1) * RECORD_PART],
            ))?;
        }
        self.renderings_into(batch, langs, kept, sealed_after * RECORD_PART)?;
        let text = if sealed {
            plies_text(after.plies_from(sealed_after * RECORD_PART))
        } else {
            plies_text(after.plies_from(done))
        };
        batch.push(
            "INSERT INTO records (game_id, plies) VALUES (?, ?)
                 ON CONFLICT (game_id) DO UPDATE SET
                     plies = CASE WHEN ? OR records.plies = '' THEN excluded.plies
                                  ELSE records.plies || ',' || excluded.plies END",
            Some(1),
            "record",
        );
        batch.bind(game)?;
        batch.bind(text)?;
        batch.bind(sealed)
    }

    /// The first `upto` plies (the sealed ones) rendered as the replies in
    /// the players' languages write them, stored for the replies of the
    /// moves to come where `kept` (the renderings loaded with the game)
    /// has none current: made when a part is sealed, and at a move of a
    /// game whose rendering in a language is missing or not this build's
    /// ([`Renderings::to_store`]).
    fn renderings_into(
        &self,
        batch: &mut Batch,
        langs: [Lang; 2],
        kept: Option<&Renderings>,
        upto: usize,
    ) -> Result<(), StoreError> {
        let made = Renderings::to_store(kept, self.after, upto, langs);
        if made.is_empty() {
            return Ok(());
        }
        let hash = super::renders::plies_hash(&plies_text(&self.after.plies()[..upto]));
        for rendering in &made {
            let row = super::renders::to_row(rendering, hash);
            super::renders::keep_into(batch, self.game, rendering.lang, row)?;
        }
        Ok(())
    }
}

/// The game's row after the change: result, termination, draw offer.
fn game_row_into(
    batch: &mut Batch,
    game: i64,
    before: &Record,
    after: &Record,
    now: i64,
) -> Result<(), StoreError> {
    let (status, result, termination) = match after.end {
        Some(end) => (
            "finished",
            end.result_text(),
            Some(end.termination.as_str()),
        ),
        None => ("active", "*", None),
    };
    // `status` is in the indexes of a player's games (`games_white`,
    // `games_black`), and SQLite rewrites an index's entry when an UPDATE
    // names one of its columns, changed or not: two index pages more in the
    // WAL a move (104 of 1,131 frames answering 200 moves). Named only
    // when the game ends or was over already.
    if before.end.is_some() || after.end.is_some() {
        batch.push(
            "UPDATE games SET status = ?, result = ?, termination = ?, draw_offer = ?, updated_at = ? WHERE id = ?",
            Some(1),
            "game",
        );
        batch.bind(status)?;
    } else {
        batch.push(
            "UPDATE games SET result = ?, termination = ?, draw_offer = ?, updated_at = ? WHERE id = ?",
            Some(1),
            "game",
        );
    }
    batch.bind(result)?;
    batch.bind(termination)?;
    batch.bind(after.draw_offer.map(super::seat_str))?;
    batch.bind(now)?;
    batch.bind(game)
}

/// Marks ply `ply` (1-based) of game `game` as a prepared answer played from
/// a stored set of conditional moves: made the moment the opponent's move
/// arrived, it costs no reflection time.
pub async fn mark_prepared(
    conn: &mut AnyConnection,
    game: i64,
    ply: usize,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE moves SET prepared = 1 WHERE game_id = $1 AND ply = $2")
        .bind(game)
        .bind(i64::try_from(ply).unwrap_or(i64::MAX))
        .execute(&mut *conn)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(value: &str) -> StoreError {
        StoreError::BadValue {
            game: 1,
            value: value.to_owned(),
        }
    }

    /// Stored plies read back as they were written: a promotion's fifth
    /// digit, SAN with its check sign, and an empty text as no plies.
    #[test]
    fn plies_read_back_as_they_were_stored() {
        let text = "5254 e4,7866 Nf6,57581 e8=Q+";
        let plies = parse_plies(text, &bad).unwrap();
        assert_eq!(plies.len(), 3);
        assert_eq!(plies[2].iccf.to_string(), "57581");
        assert_eq!(&*plies[2].san, "e8=Q+");
        assert_eq!(plies_text(&plies), text);
        assert!(parse_plies("", &bad).unwrap().is_empty());
        // Empty items (a join of an empty part) are no plies.
        assert_eq!(parse_plies(",5254 e4,,", &bad).unwrap().len(), 1);
    }

    /// A stored ply without its SAN or with a move that is no ICCF move is
    /// refused, naming it: the game is not loaded from a text it cannot read.
    #[test]
    fn a_stored_ply_it_cannot_read_is_refused_by_name() {
        for (text, named) in [("5254 e4,7866", "7866"), ("5254 e4,e7e5 e5", "e7e5")] {
            match parse_plies(text, &bad) {
                Err(StoreError::BadValue { value, .. }) => assert_eq!(value, named, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}
