//! SQLite through sqlx: games, moves, processed messages and the outbox. [IO]
//!
//! Handling a message is one `BEGIN IMMEDIATE` transaction: the message is
//! recorded with its decision, the game changes, and every mail to send becomes
//! an outbox row with its Message-ID fixed. Either all of it is committed or
//! none; a message seen again (same bytes, or same inbox coordinates) is a
//! duplicate and is not decided twice.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use rand::Rng;
use sha2::{Digest, Sha256};
use shakmaty::Color;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqliteConnection, SqlitePool};

use crate::auth;
use crate::command::Command;
use crate::config::{Config, RefereeConfig};
use crate::decide::{self, Decision, GameView, Limits, Outcome, Player, Recent, Trust};
use crate::game::{GameEnd, GameResult, Record, RecordError, Termination};
use crate::intake::{self, Intake, IntakeConfig};
use crate::mail::render::{Rendered, render};
use crate::notation::IccfMove;
use crate::referee::{Verdict, judge};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sql(#[from] sqlx::Error),
    #[error("database migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("cannot create the database folder {path}: {source}")]
    Folder {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("game {0} does not exist")]
    NoGame(i64),
    #[error("game {game} is damaged: {source}")]
    Corrupt { game: i64, source: RecordError },
    #[error("game {game}: stored value `{value}` is not valid")]
    BadValue { game: i64, value: String },
    #[error("{0}")]
    BadStart(RecordError),
    #[error("{email} already plays {count} unfinished games (the limit is {limit})")]
    TooManyGames {
        email: String,
        count: i64,
        limit: u32,
    },
    #[error("cannot write the mail to {to}: {reason}")]
    Unwritable { to: String, reason: String },
    #[error("a player cannot play against themselves ({0})")]
    SamePlayer(String),
}

/// Seconds since the Unix epoch.
pub fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

#[derive(Clone)]
pub struct Store {
    pool: SqlitePool,
}

/// A game as stored, with its replayed record.
#[derive(Debug, Clone)]
pub struct StoredGame {
    pub view: GameView,
    pub event: Option<String>,
    pub thread_root: String,
    pub created_at: i64,
}

/// A pending outbox row.
#[derive(Debug, Clone)]
pub struct OutboxRow {
    pub id: i64,
    pub message_id: String,
    pub sender: String,
    pub recipient: String,
    pub raw: Vec<u8>,
    pub attempts: i64,
}

/// What became of a message.
#[derive(Debug)]
pub enum Handled {
    /// Seen before (same bytes or same inbox coordinates): nothing done again.
    Duplicate { outcome: String },
    Decided {
        intake: Box<Intake>,
        decision: Box<Decision>,
        mails: Vec<Rendered>,
    },
}

/// Letters and digits for keys: lower case, so addresses survive any client.
const KEY_ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
pub const KEY_LEN: usize = 10;

/// A fresh secret key from the operating system's CSPRNG.
pub fn new_key() -> String {
    let mut rng = rand::rngs::OsRng;
    let mut bytes = [0u8; KEY_LEN];
    rand::TryRngCore::try_fill_bytes(&mut rng, &mut bytes).unwrap_or_else(|_| {
        // The OS generator failing is not recoverable; fall back to the
        // thread generator, itself seeded from the OS.
        rand::rng().fill(&mut bytes);
    });
    bytes
        .iter()
        .map(|b| char::from(KEY_ALPHABET[usize::from(*b) % KEY_ALPHABET.len()]))
        .collect()
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

impl Store {
    /// Opens (creating if needed) the database at `url`, with WAL, foreign keys
    /// and a busy timeout, and applies the embedded migrations.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        if let Some(parent) = Path::new(options.get_filename()).parent()
            && !parent.as_os_str().is_empty()
        {
            std::fs::create_dir_all(parent).map_err(|source| StoreError::Folder {
                path: parent.to_owned(),
                source,
            })?;
        }
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(Store { pool })
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Creates a game; keys are fresh and secret.
    pub async fn create_game(
        &self,
        white: &str,
        black: &str,
        fen: Option<&str>,
        event: Option<&str>,
        referee: &RefereeConfig,
        games_per_player: u32,
    ) -> Result<StoredGame, StoreError> {
        let record = Record::new(fen).map_err(StoreError::BadStart)?;
        let (white, black) = (
            white.trim().to_ascii_lowercase(),
            black.trim().to_ascii_lowercase(),
        );
        if white == black {
            return Err(StoreError::SamePlayer(white));
        }
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        for email in [&white, &black] {
            let count: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM games WHERE status = 'active' AND (white_email = ? OR black_email = ?)",
            )
            .bind(email)
            .bind(email)
            .fetch_one(&mut *tx)
            .await?;
            if count >= i64::from(games_per_player) {
                return Err(StoreError::TooManyGames {
                    email: email.clone(),
                    count,
                    limit: games_per_player,
                });
            }
        }
        let now = now_secs();
        let thread_root = format!("wildt-game-{}@{}", new_key(), referee.domain);
        let id: i64 = sqlx::query(
            "INSERT INTO games (white_email, black_email, white_key, black_key, start_fen, event, thread_root, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(&white)
        .bind(&black)
        .bind(new_key())
        .bind(new_key())
        .bind(record.start_fen())
        .bind(event)
        .bind(&thread_root)
        .bind(now)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?
        .get(0);
        tx.commit().await?;
        self.game(id).await?.ok_or(StoreError::NoGame(id))
    }

    /// Queues the opening mails of a game: each player's colour, opponent and
    /// game address. Sent by the daemon's outbox like any other mail.
    pub async fn enqueue_welcome(
        &self,
        game: i64,
        referee: &RefereeConfig,
    ) -> Result<usize, StoreError> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let g = load_game(&mut tx, game)
            .await?
            .ok_or(StoreError::NoGame(game))?;
        let now = now_secs();
        let mut n = 0;
        for mail in game_mails(&g, referee, |ctx| {
            crate::reply::welcome_mails(ctx, g.event.as_deref())
        }) {
            match render(&mail, referee, Some(&g.thread_root), &[]) {
                Ok(r) => {
                    enqueue(&mut tx, None, &mail, &r, &referee.address, now).await?;
                    n += 1;
                }
                Err(e) => tracing::warn!(recipient = %mail.to, error = %e, "welcome not rendered"),
            }
        }
        tx.commit().await?;
        Ok(n)
    }

    /// Gives a seat a fresh key: its old game address stops working at once.
    /// With `notify`, the player's mail with the new address is queued in the
    /// same transaction, so the key never changes without it.
    pub async fn rekey(
        &self,
        game: i64,
        seat: Color,
        notify: Option<&RefereeConfig>,
    ) -> Result<String, StoreError> {
        let key = new_key();
        let sql = match seat {
            Color::White => "UPDATE games SET white_key = ?, updated_at = ? WHERE id = ?",
            Color::Black => "UPDATE games SET black_key = ?, updated_at = ? WHERE id = ?",
        };
        let now = now_secs();
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let done = sqlx::query(sql)
            .bind(&key)
            .bind(now)
            .bind(game)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NoGame(game));
        }
        if let Some(referee) = notify {
            let g = load_game(&mut tx, game)
                .await?
                .ok_or(StoreError::NoGame(game))?;
            let mail = game_mails(&g, referee, |ctx| crate::reply::new_address_mail(ctx, seat));
            let r = render(&mail, referee, Some(&g.thread_root), &[]).map_err(|reason| {
                StoreError::Unwritable {
                    to: mail.to.clone(),
                    reason,
                }
            })?;
            enqueue(&mut tx, None, &mail, &r, &referee.address, now).await?;
        }
        tx.commit().await?;
        Ok(key)
    }

    pub async fn game(&self, id: i64) -> Result<Option<StoredGame>, StoreError> {
        let mut conn = self.pool.acquire().await?;
        load_game(&mut conn, id).await
    }

    pub async fn game_ids(&self) -> Result<Vec<i64>, StoreError> {
        Ok(sqlx::query_scalar("SELECT id FROM games ORDER BY id")
            .fetch_all(&self.pool)
            .await?)
    }

    /// Records a command for a seat by hand (a postcard game), through the
    /// referee, in one transaction. Mails are not sent for hand-recorded moves.
    pub async fn play_by_hand(
        &self,
        game: i64,
        seat: Color,
        command: &Command,
    ) -> Result<Verdict, StoreError> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let stored = load_game(&mut tx, game)
            .await?
            .ok_or(StoreError::NoGame(game))?;
        let verdict = judge(&stored.view.record, seat, command);
        let mut after = stored.view.record.clone();
        after.apply(&verdict);
        if !matches!(verdict, Verdict::Status | Verdict::Rejected(_)) {
            save_game_change(&mut tx, game, &stored.view.record, &after, None).await?;
        }
        tx.commit().await?;
        Ok(verdict)
    }

    /// Handles one inbound message: dedupe, read, decide, persist, enqueue mail.
    /// `raw` is the message of `size` bytes, or only its beginning when the
    /// inbox did not read all of a message too large to be read anyway.
    /// With `dry_run` everything is rolled back: what would happen, nothing done.
    pub async fn handle_message(
        &self,
        source: &str,
        raw: &[u8],
        size: usize,
        config: &Config,
        dry_run: bool,
    ) -> Result<Handled, StoreError> {
        // Of a message larger than the inbox reads, `raw` is its beginning:
        // its size goes into the digest too, so two different large messages
        // that begin alike are not taken for one.
        let sha = if size > raw.len() {
            let mut h = Sha256::new();
            h.update(raw);
            h.update(format!("\0{size}"));
            hex(&h.finalize())
        } else {
            hex(&Sha256::digest(raw))
        };
        let now = now_secs();
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let seen: Option<String> = sqlx::query_scalar(
            "SELECT outcome FROM messages WHERE sha256 = ? OR (source = ? AND source <> 'cli') LIMIT 1",
        )
        .bind(&sha)
        .bind(source)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(outcome) = seen {
            return Ok(Handled::Duplicate { outcome });
        }
        let intake_cfg = IntakeConfig {
            referee_local: config.referee.local.clone(),
            referee_domain: config.referee.domain.clone(),
            max_message_bytes: config.limits.max_message_bytes,
            max_commands: config.limits.commands_per_message,
        };
        let intake = intake::read_sized(raw, size, &intake_cfg);
        let stored = match &intake.game_address {
            Some(a) => load_game(&mut tx, a.game).await?,
            None => None,
        };
        let recent = recent(&mut tx, &intake, stored.as_ref(), now).await?;
        let limits = Limits {
            replies_per_sender_per_hour: config.limits.replies_per_sender_per_hour,
            max_message_bytes: config.limits.max_message_bytes,
        };
        let trust = Trust {
            policy: config.security.policy,
            auth: auth::sender_verdict(
                raw,
                config.security.trusted_authserv_id.as_deref(),
                intake.from.as_deref(),
            ),
        };
        let decision = decide::decide(
            &intake,
            stored.as_ref().map(|g| &g.view),
            &config.referee,
            &limits,
            recent,
            &trust,
        );
        let message_row: i64 = sqlx::query(
            "INSERT INTO messages (sha256, source, message_id, from_addr, game_id, outcome, detail, received_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(&sha)
        .bind(source)
        .bind(&intake.message_id)
        .bind(&intake.from)
        .bind(stored.as_ref().map(|g| g.view.id))
        .bind(decision.outcome.as_str())
        .bind(&decision.detail)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?
        .get(0);
        if let (Some(after), Some(g)) = (&decision.record_after, &stored) {
            save_game_change(&mut tx, g.view.id, &g.view.record, after, Some(message_row)).await?;
        }
        let mut rendered = Vec::with_capacity(decision.mails.len());
        for mail in &decision.mails {
            let root = stored.as_ref().map(|g| g.thread_root.as_str());
            let r = match render(mail, &config.referee, root, &intake.references) {
                Ok(r) => r,
                Err(e) => {
                    // An address lettre cannot write (e.g. a malformed From):
                    // that one mail is skipped; the message is still recorded.
                    tracing::warn!(recipient = %mail.to, error = %e, "reply not rendered");
                    continue;
                }
            };
            enqueue(
                &mut tx,
                Some(message_row),
                mail,
                &r,
                &config.referee.address,
                now,
            )
            .await?;
            rendered.push(r);
        }
        if dry_run {
            tx.rollback().await?;
        } else {
            tx.commit().await?;
        }
        Ok(Handled::Decided {
            intake: Box::new(intake),
            decision: Box::new(decision),
            mails: rendered,
        })
    }

    /// Outbox rows due now, oldest first.
    pub async fn due_mail(&self, now: i64, limit: i64) -> Result<Vec<OutboxRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, message_id, sender, recipient, raw, attempts FROM outbox
             WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ?
             ORDER BY id LIMIT ?",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| OutboxRow {
                id: r.get(0),
                message_id: r.get(1),
                sender: r.get(2),
                recipient: r.get(3),
                raw: r.get(4),
                attempts: r.get(5),
            })
            .collect())
    }

    /// Seconds until the next pending row is due, if any is pending.
    pub async fn next_due_in(&self, now: i64) -> Result<Option<i64>, StoreError> {
        let next: Option<i64> = sqlx::query_scalar(
            "SELECT MIN(next_attempt_at) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(next.map(|t| (t - now).max(0)))
    }

    pub async fn mark_sent(&self, id: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?")
            .bind(now_secs())
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn mark_retry(&self, id: i64, next_at: i64, error: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?")
            .bind(next_at)
            .bind(error)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn mark_failed(&self, id: i64, error: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE outbox SET attempts = attempts + 1, failed_at = ?, last_error = ? WHERE id = ?",
        )
        .bind(now_secs())
        .bind(error)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Counts of what the outbox holds: (pending, sent, failed).
    pub async fn outbox_counts(&self) -> Result<(i64, i64, i64), StoreError> {
        let row = sqlx::query(
            "SELECT
                COALESCE(SUM(sent_at IS NULL AND failed_at IS NULL), 0),
                COALESCE(SUM(sent_at IS NOT NULL), 0),
                COALESCE(SUM(failed_at IS NOT NULL), 0)
             FROM outbox",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok((row.get(0), row.get(1), row.get(2)))
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// What `write` makes of the game `g`, given the game as the reply writer
/// sees it (both seats with their game addresses, the record).
fn game_mails<T>(
    g: &StoredGame,
    referee: &RefereeConfig,
    write: impl FnOnce(&crate::reply::GameContext<'_>) -> T,
) -> T {
    let (white, black) = g.view.seats(referee);
    write(&crate::reply::GameContext {
        id: g.view.id,
        white: &white,
        black: &black,
        record: &g.view.record,
    })
}

async fn enqueue(
    conn: &mut SqliteConnection,
    message_row: Option<i64>,
    mail: &crate::reply::OutMail,
    r: &Rendered,
    sender: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO outbox (message, game_id, message_id, sender, recipient, event, raw, created_at, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(message_row)
    .bind(mail.game)
    .bind(&r.message_id)
    .bind(sender)
    .bind(&mail.to)
    .bind(mail.event.as_str())
    .bind(&r.raw)
    .bind(now)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

async fn recent(
    conn: &mut SqliteConnection,
    intake: &Intake,
    game: Option<&StoredGame>,
    now: i64,
) -> Result<Recent, StoreError> {
    let hour_ago = now - 3600;
    // Only answers to the sender's own messages count: the limit bounds a
    // conversation (an autoresponder ping-pong), and relays of an opponent's
    // moves are not one; counting them dropped a busy player's confirmations.
    let replies_to_sender: i64 = match &intake.from {
        Some(from) => {
            sqlx::query_scalar(
                "SELECT COUNT(*) FROM outbox o JOIN messages m ON m.id = o.message
                 WHERE o.recipient = ? AND m.from_addr = ? AND o.created_at > ?",
            )
            .bind(from)
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
            .bind(g.view.id)
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

async fn load_game(conn: &mut SqliteConnection, id: i64) -> Result<Option<StoredGame>, StoreError> {
    let Some(row) = sqlx::query(
        "SELECT white_email, black_email, white_key, black_key, start_fen, event, result, termination, draw_offer, thread_root, created_at
         FROM games WHERE id = ?",
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
        record.end = Some(GameEnd {
            result: GameResult::parse(&result).ok_or_else(|| bad(&result))?,
            termination: Termination::parse(&t).ok_or_else(|| bad(&t))?,
        });
    }
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
                key: row.get(2),
            },
            black: Player {
                email: row.get(1),
                key: row.get(3),
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
async fn save_game_change(
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
            end.result.as_str(),
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

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}
