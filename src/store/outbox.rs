//! The `outbox` table: every mail to send, rendered, with its Message-ID
//! fixed, the lease of the process sending it, and what became of each
//! attempt. [IO: database]
//!
//! Which due mail a sender leases next is the sender's policy
//! (`daemon::lease`); here are the statements it runs. Where the dialects
//! differ (SQLite's JSON functions and `INDEXED BY`, several statements in
//! one query), PostgreSQL has a text of its own; there a lease also takes
//! its rows `FOR UPDATE SKIP LOCKED`, so daemons leasing at once pass each
//! other's rows by instead of waiting for them.

use sqlx::{AnyConnection, Row};

use super::batch::Batch;
use super::{StoreError, now_secs};
use crate::decide::Outcome;
use crate::mail::render::Rendered;
use crate::reply::OutMail;

/// A pending outbox row.
#[derive(Debug, Clone)]
pub struct OutboxRow {
    pub id: i64,
    pub message_id: String,
    pub sender: String,
    pub recipient: String,
    pub raw: Vec<u8>,
    pub attempts: i64,
    /// Since when the mail is in doubt: its row was taken back from a
    /// process that died holding it, which may have handed it to the relay
    /// ([`release_dead`], or its lease ran out). `None` for every other row.
    pub doubt_since: Option<i64>,
}

/// Queues the rendered `mail` from `sender`, answering the processed message
/// `message_row` if any.
pub async fn enqueue(
    conn: &mut AnyConnection,
    message_row: Option<i64>,
    mail: &OutMail,
    r: &Rendered,
    sender: &str,
    now: i64,
) -> Result<(), StoreError> {
    enqueue_all(conn, message_row, &[(mail, r)], sender, now).await
}

/// Queues the rendered mails `mails` from `sender` at once, answering the
/// processed message `message_row` if any: one statement batch for all of
/// them (their rows, then their bodies) instead of two statements each.
pub async fn enqueue_all(
    conn: &mut AnyConnection,
    message_row: Option<i64>,
    mails: &[(&OutMail, &Rendered)],
    sender: &str,
    now: i64,
) -> Result<(), StoreError> {
    let mut batch = Batch::default();
    let answering = match message_row {
        Some(id) => Answering::Row(id),
        None => Answering::Nothing,
    };
    enqueue_into(&mut batch, answering, mails, sender, now)?;
    batch.run(conn).await?;
    Ok(())
}

/// The processed message a queued mail answers.
#[derive(Debug, Clone, Copy)]
pub enum Answering<'a> {
    Nothing,
    Row(i64),
    /// The message with this digest, inserted earlier in the same batch.
    Digest(&'a str),
}

/// [`enqueue_all`]'s statements, added to `batch`.
pub fn enqueue_into(
    batch: &mut Batch,
    answering: Answering<'_>,
    mails: &[(&OutMail, &Rendered)],
    sender: &str,
    now: i64,
) -> Result<(), StoreError> {
    let rows: Vec<(&OutMail, &str)> = mails
        .iter()
        .map(|(mail, r)| (*mail, r.message_id.as_str()))
        .collect();
    rows_into(batch, answering, &rows, sender, now)?;
    let bodies: Vec<&Rendered> = mails.iter().map(|(_, r)| *r).collect();
    bodies_into(batch, &bodies, &[])
}

/// The outbox rows of `mails`, each with the Message-ID its body will
/// have, added to `batch`; [`bodies_into`] adds the bodies later in the
/// same transaction. A row counts against its recipient's hourly limit
/// from here on, so a message's replies are counted for the next message
/// before they are rendered.
pub fn rows_into(
    batch: &mut Batch,
    answering: Answering<'_>,
    mails: &[(&OutMail, &str)],
    sender: &str,
    now: i64,
) -> Result<(), StoreError> {
    if mails.is_empty() {
        return Ok(());
    }
    let message = match answering {
        Answering::Digest(_) => "(SELECT id FROM messages WHERE sha256 = ?)",
        Answering::Row(_) | Answering::Nothing => "?",
    };
    let row = format!("({message}, ?, ?, ?, ?, ?, ?, ?)");
    let rows = vec![row.as_str(); mails.len()].join(", ");
    // `limited`: the mail answers its recipient's own message, and that
    // message changed no game: it counts against the sender's hourly reply
    // limit (`messages::history_into`), which then reads only such rows.
    let changing = Outcome::CHANGING_GAME
        .iter()
        .map(|o| format!("'{}'", o.as_str()))
        .collect::<Vec<_>>()
        .join(", ");
    let count = u64::try_from(mails.len()).unwrap_or(u64::MAX);
    batch.push(
        &format!(
            "INSERT INTO outbox (message, game_id, message_id, sender, recipient, event, created_at, next_attempt_at, limited)
             SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8,
                    CASE WHEN (SELECT m.from_addr = v.column5 AND m.outcome NOT IN ({changing})
                               FROM messages m WHERE m.id = v.column1) THEN 1 ELSE 0 END
             FROM (VALUES {rows}) v"
        ),
        Some(count),
        "outbox rows",
    );
    for (mail, message_id) in mails {
        match answering {
            Answering::Digest(sha) => batch.bind(sha.to_owned())?,
            Answering::Row(id) => batch.bind(id)?,
            Answering::Nothing => batch.bind(None::<i64>)?,
        }
        batch.bind(mail.game)?;
        batch.bind((*message_id).to_owned())?;
        batch.bind(sender.to_owned())?;
        batch.bind(mail.to.clone())?;
        batch.bind(mail.kind.as_str())?;
        batch.bind(now)?;
        batch.bind(now)?;
    }
    Ok(())
}

/// The bodies of mails whose rows [`rows_into`] added earlier in the same
/// transaction, each joined to its row by its Message-ID (unique, so
/// indexed); the rows of `unwritten` (mails that could not be rendered)
/// are taken out again.
pub fn bodies_into(
    batch: &mut Batch,
    bodies: &[&Rendered],
    unwritten: &[String],
) -> Result<(), StoreError> {
    if !bodies.is_empty() {
        let count = u64::try_from(bodies.len()).unwrap_or(u64::MAX);
        let values = vec!["(?, ?)"; bodies.len()].join(", ");
        batch.push(
            &format!(
                "INSERT INTO outbox_bodies (id, raw, packed, dict)
                 SELECT o.id, v.column2, 1, {BODY_DICT} FROM (VALUES {values}) v
                 JOIN outbox o ON o.message_id = v.column1"
            ),
            Some(count),
            "outbox bodies",
        );
        for r in bodies {
            batch.bind(r.message_id.clone())?;
            batch.bind(pack(&r.raw))?;
        }
    }
    if !unwritten.is_empty() {
        let count = u64::try_from(unwritten.len()).unwrap_or(u64::MAX);
        let ids = vec!["?"; unwritten.len()].join(", ");
        batch.push(
            &format!("DELETE FROM outbox WHERE message_id IN ({ids})"),
            Some(count),
            "outbox rows of unwritten mails",
        );
        for id in unwritten {
            batch.bind(id.clone())?;
        }
    }
    Ok(())
}

/// The id of the newest outbox row (0 when there is none).
pub async fn newest_id(conn: &mut AnyConnection) -> Result<i64, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT coalesce(max(id), 0) FROM outbox")
            .fetch_one(&mut *conn)
            .await?,
    )
}

/// The rows due at `now` and not leased: the newest `window` of them, each
/// as (id, recipient, whether it heads its recipient's queue: no older
/// unfinished mail to the same address), newest first; and the ids of the
/// oldest `oldest`, oldest first. Read as JSON in one row: sqlx hands rows
/// over from its thread one at a time, and 512 of them cost more than
/// weighing them.
pub async fn due_window(
    conn: &mut AnyConnection,
    now: i64,
    window: i64,
    oldest: i64,
) -> Result<(Vec<(i64, String, bool)>, Vec<i64>), StoreError> {
    let sql = if postgres(conn) {
        DUE_WINDOW_PG
    } else {
        DUE_WINDOW_SQLITE
    };
    let row = sqlx::query(sql)
        .bind(now)
        .bind(window)
        .bind(oldest)
        .fetch_one(&mut *conn)
        .await?;
    let (recent, oldest): (String, String) = (row.try_get("recent")?, row.try_get("oldest")?);
    // Both write the flag as 1 or 0.
    let recent: Vec<(i64, String, u8)> =
        serde_json::from_str(&recent).map_err(|e| bad_json("the lease's window", e))?;
    let recent = recent
        .into_iter()
        .map(|(id, to, head)| (id, to, head != 0))
        .collect();
    let oldest = serde_json::from_str(&oldest).map_err(|e| bad_json("the lease's oldest", e))?;
    Ok((recent, oldest))
}

/// Whether `conn` is a PostgreSQL connection.
fn postgres(conn: &AnyConnection) -> bool {
    conn.backend_name() == "PostgreSQL"
}

/// [`due_window`] on SQLite.
const DUE_WINDOW_SQLITE: &str = "SELECT
            (SELECT json_group_array(json_array(r.id, r.recipient, NOT EXISTS (
                        SELECT 1 FROM outbox p INDEXED BY outbox_queues
                        WHERE p.recipient = r.recipient AND p.id < r.id
                          AND p.sent_at IS NULL AND p.failed_at IS NULL)))
             FROM (
                SELECT id, recipient FROM outbox
                WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $1
                  AND (leased_until IS NULL OR leased_until <= $1)
                ORDER BY id DESC LIMIT $2) r) AS recent,
            (SELECT json_group_array(id) FROM (
                SELECT id FROM outbox
                WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $1
                  AND (leased_until IS NULL OR leased_until <= $1)
                ORDER BY id LIMIT $3)) AS oldest";

/// [`due_window`] on PostgreSQL: the same rows, as JSON text in the same
/// order (the order of an aggregate said in it), the flag as 1 or 0.
const DUE_WINDOW_PG: &str = "SELECT
            (SELECT COALESCE(json_agg(json_build_array(r.id, r.recipient,
                        CASE WHEN EXISTS (
                            SELECT 1 FROM outbox p
                            WHERE p.recipient = r.recipient AND p.id < r.id
                              AND p.sent_at IS NULL AND p.failed_at IS NULL)
                        THEN 0 ELSE 1 END) ORDER BY r.id DESC), '[]')::text
             FROM (
                SELECT id, recipient FROM outbox
                WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $1
                  AND (leased_until IS NULL OR leased_until <= $1)
                ORDER BY id DESC LIMIT $2) r) AS recent,
            (SELECT COALESCE(json_agg(o.id ORDER BY o.id), '[]')::text FROM (
                SELECT id FROM outbox
                WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $1
                  AND (leased_until IS NULL OR leased_until <= $1)
                ORDER BY id LIMIT $3) o) AS oldest";

fn bad_json(what: &str, e: serde_json::Error) -> StoreError {
    StoreError::Invariant(format!("{what}: {e}"))
}

/// Leases the rows `ids` to `owner` until `until` and reads them back,
/// without their bodies ([`with_bodies`]), in one round trip. Only rows
/// still due at `now` and not leased are taken: a row another process
/// leased meanwhile is left out, and the rows read back are those this
/// lease took.
pub async fn lease(
    conn: &mut AnyConnection,
    ids: &[i64],
    now: i64,
    owner: &str,
    until: i64,
) -> Result<Vec<OutboxRow>, StoreError> {
    let ids = serde_json::to_string(ids).unwrap_or_else(|_| "[]".to_owned());
    if postgres(conn) {
        return lease_pg(conn, &ids, now, owner, until).await;
    }
    let mut batch = Batch::default();
    batch.push(
        "UPDATE outbox SET leased_by = ?, leased_until = ?,
            doubt_since = CASE WHEN leased_by IS NULL THEN doubt_since ELSE ? END
         WHERE id IN (SELECT value FROM json_each(?))
           AND sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ?
           AND (leased_until IS NULL OR leased_until <= ?)",
        None,
        "lease",
    );
    batch.bind(owner.to_owned())?;
    batch.bind(until)?;
    batch.bind(now)?;
    batch.bind(ids.clone())?;
    batch.bind(now)?;
    batch.bind(now)?;
    batch.push(
        "SELECT json_group_array(json_array(id, message_id, sender, recipient, attempts, doubt_since))
            AS leased
         FROM outbox
         WHERE id IN (SELECT value FROM json_each(?)) AND leased_by = ? AND leased_until = ?",
        None,
        "leased rows",
    );
    batch.bind(ids)?;
    batch.bind(owner.to_owned())?;
    batch.bind(until)?;
    let leased: String = batch
        .run(&mut *conn)
        .await?
        .pop()
        .and_then(|mut rows| rows.pop())
        .map(|row| row.try_get("leased"))
        .transpose()?
        .ok_or_else(|| StoreError::Invariant("a lease without its rows".into()))?;
    type Leased = (i64, String, String, String, i64, Option<i64>);
    let leased: Vec<Leased> =
        serde_json::from_str(&leased).map_err(|e| bad_json("the leased rows", e))?;
    Ok(leased
        .into_iter()
        .map(
            |(id, message_id, sender, recipient, attempts, doubt_since)| OutboxRow {
                id,
                message_id,
                sender,
                recipient,
                raw: Vec::new(),
                attempts,
                doubt_since,
            },
        )
        .collect())
}

/// [`lease`] on PostgreSQL, `ids` a JSON array: the rows still due and not
/// leased are locked `FOR UPDATE SKIP LOCKED` (a row another daemon is
/// leasing at this moment is passed by, not waited for), leased and read
/// back in one statement. The lease itself is what keeps a row from a
/// second daemon once this statement commits; a daemon that dies leaves
/// its rows to whoever leases after `until`.
async fn lease_pg(
    conn: &mut AnyConnection,
    ids: &str,
    now: i64,
    owner: &str,
    until: i64,
) -> Result<Vec<OutboxRow>, StoreError> {
    let rows = sqlx::query(
        "WITH picked AS (
            SELECT id FROM outbox
            WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::bigint)
              AND sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $2
              AND (leased_until IS NULL OR leased_until <= $2)
            FOR UPDATE SKIP LOCKED)
         UPDATE outbox o SET leased_by = $3, leased_until = $4,
            doubt_since = CASE WHEN o.leased_by IS NULL THEN o.doubt_since ELSE $2 END
         FROM picked WHERE o.id = picked.id
         RETURNING o.id, o.message_id, o.sender, o.recipient, o.attempts, o.doubt_since",
    )
    .bind(ids.to_owned())
    .bind(now)
    .bind(owner.to_owned())
    .bind(until)
    .fetch_all(&mut *conn)
    .await?;
    rows.into_iter()
        .map(|r| {
            Ok(OutboxRow {
                id: r.try_get("id")?,
                message_id: r.try_get("message_id")?,
                sender: r.try_get("sender")?,
                recipient: r.try_get("recipient")?,
                raw: Vec::new(),
                attempts: r.try_get("attempts")?,
                doubt_since: r.try_get("doubt_since")?,
            })
        })
        .collect()
}

/// Fills in the bodies of `rows` (one statement for all of them). A row
/// whose body is missing (sent meanwhile by another process) is dropped.
pub async fn with_bodies(
    conn: &mut AnyConnection,
    rows: Vec<OutboxRow>,
) -> Result<Vec<OutboxRow>, StoreError> {
    if rows.is_empty() {
        return Ok(rows);
    }
    let ids = serde_json::to_string(&rows.iter().map(|r| r.id).collect::<Vec<_>>())
        .unwrap_or_else(|_| "[]".to_owned());
    let mut bodies = std::collections::HashMap::with_capacity(rows.len());
    let sql = if postgres(conn) {
        "SELECT id, raw, packed, dict FROM outbox_bodies
         WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::bigint)"
    } else {
        "SELECT id, raw, packed, dict FROM outbox_bodies WHERE id IN (SELECT value FROM json_each($1))"
    };
    for r in sqlx::query(sql).bind(ids).fetch_all(&mut *conn).await? {
        let id: i64 = r.try_get("id")?;
        if let Some(raw) = unpack(
            id,
            super::bytes(&r, "raw")?,
            super::flag(&r, "packed")?,
            r.try_get("dict")?,
        ) {
            bodies.insert(id, raw);
        }
    }
    Ok(rows
        .into_iter()
        .filter_map(|mut r| {
            r.raw = bodies.remove(&r.id)?;
            Some(r)
        })
        .collect())
}

/// Rows due at `now`, oldest first.
pub async fn due(
    conn: &mut AnyConnection,
    now: i64,
    limit: i64,
) -> Result<Vec<OutboxRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT o.id, o.message_id, o.sender, o.recipient, b.raw, o.attempts, b.packed, b.dict,
                o.doubt_since
         FROM outbox o JOIN outbox_bodies b ON b.id = o.id
         WHERE o.sent_at IS NULL AND o.failed_at IS NULL AND o.next_attempt_at <= $1
         ORDER BY o.id LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(&mut *conn)
    .await?;
    let mut due = Vec::with_capacity(rows.len());
    for r in rows {
        let id = r.try_get("id")?;
        let raw = unpack(
            id,
            super::bytes(&r, "raw")?,
            super::flag(&r, "packed")?,
            r.try_get("dict")?,
        );
        if let Some(raw) = raw {
            due.push(OutboxRow {
                id,
                message_id: r.try_get("message_id")?,
                sender: r.try_get("sender")?,
                recipient: r.try_get("recipient")?,
                raw,
                attempts: r.try_get("attempts")?,
                doubt_since: r.try_get("doubt_since")?,
            });
        }
    }
    Ok(due)
}

/// The largest body [`unpack`] believes a packed row's length prefix
/// about; a mail of wildt's is far smaller.
const MAX_BODY: usize = 64 << 20;

/// The number of the dictionary [`pack`] packs against (`outbox_bodies.dict`).
pub const BODY_DICT: i64 = 1;

/// Dictionary 1: a reply of wildt's (English, move 20 of a game: headers,
/// the text part with its board, the HTML part's board and record, the
/// footer), as this version renders one. A body is packed as if it came
/// after these bytes, so what every reply has in common (the headers'
/// names, the board's markup, the footer) is written as references to
/// them: a first move's reply packs to 1,077 B against 2,320 alone (the
/// pipeline's replies), one at ply 303 to 2,776 B against 3,980. Frozen: a
/// row packed with it is unpacked with it after any upgrade, so its bytes
/// never change (a test holds their digest, and `.gitattributes` keeps
/// git from touching its line ends); replies rendered otherwise later
/// pack less well, and a better dictionary is a new number.
static BODY_DICT_1: &[u8] = include_bytes!("body-dict-1.eml");

/// The dictionary [`pack`] packs against: the one numbered [`BODY_DICT`].
static PACKING_DICT: &[u8] = BODY_DICT_1;

/// The built-in dictionary numbered `n`, if there is one.
fn dictionary(n: i64) -> Option<&'static [u8]> {
    match n {
        1 => Some(BODY_DICT_1),
        _ => None,
    }
}

/// A body as stored: packed with LZ4 against dictionary [`BODY_DICT`], its
/// length first (the layout of `lz4_flex::block::
/// compress_prepend_size_with_dict`, which `unpack` reads).
///
/// Packed into a buffer kept per thread, then copied out at its packed
/// size: the library's own path allocates and zeroes a buffer of the
/// body's largest packed size (a long game's mail is 27 KB) for every
/// body, then shrinks it (a realloc). A body of 64 KiB or more (none of wildt's mails) goes
/// the library's own way, so the kept buffer stays small.
pub fn pack(raw: &[u8]) -> Vec<u8> {
    use lz4_flex::block::{compress_into_with_dict, get_maximum_output_size};
    thread_local! {
        static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let dict = PACKING_DICT;
    let Some(len) = u16::try_from(raw.len()).ok().filter(|&n| n < u16::MAX) else {
        return lz4_flex::block::compress_prepend_size_with_dict(raw, dict);
    };
    SCRATCH.with(|cell| {
        let mut buf = cell.borrow_mut();
        let need = get_maximum_output_size(raw.len());
        if buf.len() < need {
            buf.resize(need, 0);
        }
        match compress_into_with_dict(raw, &mut buf, dict) {
            Ok(n) => {
                let mut out = Vec::with_capacity(4 + n);
                out.extend_from_slice(&u32::from(len).to_le_bytes());
                out.extend_from_slice(&buf[..n]);
                out
            }
            // The buffer is the library's maximum for this input: not
            // reached; the library's own path if it ever is.
            Err(_) => lz4_flex::block::compress_prepend_size_with_dict(raw, dict),
        }
    })
}

/// A stored body as it is sent; `None` (logged) for a packed body that does
/// not unpack (a damaged row, or one naming a dictionary this build does
/// not have): its mail is then left out of the batch, as one whose body is
/// missing, and stays in the outbox for the organiser. `dict`: the
/// dictionary it was packed against (`None`: none, rows written before
/// dictionaries).
pub fn unpack(id: i64, stored: Vec<u8>, packed: bool, dict: Option<i64>) -> Option<Vec<u8>> {
    if !packed {
        return Some(stored);
    }
    let stated = stored
        .get(..4)
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
        .map(u32::from_le_bytes)
        .and_then(|n| usize::try_from(n).ok());
    let unpacked = match (stated, dict.map(|n| (n, dictionary(n)))) {
        (_, Some((n, None))) => Err(format!("no dictionary {n} in this build")),
        (Some(n), _) if n > MAX_BODY => Err(format!("length {n} over {MAX_BODY}")),
        (Some(_), None) => {
            lz4_flex::block::decompress_size_prepended(&stored).map_err(|e| e.to_string())
        }
        (Some(_), Some((_, Some(d)))) => {
            lz4_flex::block::decompress_size_prepended_with_dict(&stored, d)
                .map_err(|e| e.to_string())
        }
        (None, _) => Err("no length".to_owned()),
    };
    match unpacked {
        Ok(raw) => Some(raw),
        Err(e) => {
            tracing::error!(outbox_id = id, error = %e, "outbox: a stored body does not unpack; its mail is not sent");
            None
        }
    }
}

/// Gives back every row `owner` leased and has not finished with.
pub async fn release(conn: &mut AnyConnection, owner: &str) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE outbox SET leased_by = NULL, leased_until = NULL
         WHERE leased_by = $1 AND sent_at IS NULL AND failed_at IS NULL",
    )
    .bind(owner)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Gives back every row `owner` leased and has not finished with, as
/// [`release`], for an owner that is gone: whatever of it that process
/// may have handed to the relay before it died is in doubt from `now`
/// (from its latest try, if it was in doubt already).
pub async fn release_dead(
    conn: &mut AnyConnection,
    owner: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE outbox SET leased_by = NULL, leased_until = NULL,
            doubt_since = $2
         WHERE leased_by = $1 AND sent_at IS NULL AND failed_at IS NULL",
    )
    .bind(owner)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Puts a mail in doubt back until `until`, unsent and still in doubt:
/// its receipt has not come yet, and the relay may still deliver it.
pub async fn await_receipt(
    conn: &mut AnyConnection,
    id: i64,
    until: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE outbox SET next_attempt_at = $1, leased_by = NULL, leased_until = NULL
         WHERE id = $2 AND sent_at IS NULL AND failed_at IS NULL",
    )
    .bind(until)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The owners holding a lease on an unfinished row at `now`.
pub async fn leaseholders(conn: &mut AnyConnection, now: i64) -> Result<Vec<String>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT DISTINCT leased_by FROM outbox
         WHERE leased_by IS NOT NULL AND leased_until > $1 AND sent_at IS NULL AND failed_at IS NULL",
    )
    .bind(now)
    .fetch_all(&mut *conn)
    .await?)
}

/// Seconds until the next pending row is due, if any is pending.
pub async fn next_due_in(conn: &mut AnyConnection, now: i64) -> Result<Option<i64>, StoreError> {
    // SQLite's scalar MAX is PostgreSQL's GREATEST.
    let sql = if postgres(conn) {
        "SELECT MIN(GREATEST(next_attempt_at, COALESCE(leased_until, 0)))
         FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL"
    } else {
        "SELECT MIN(MAX(next_attempt_at, COALESCE(leased_until, 0)))
         FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL"
    };
    let next: Option<i64> = sqlx::query_scalar(sql).fetch_one(&mut *conn).await?;
    Ok(next.map(|t| (t - now).max(0)))
}

/// Marks row `id` sent, and deletes its body: a sent mail is never sent
/// again, and its row keeps what was sent, to whom and when.
pub async fn mark_sent(conn: &mut AnyConnection, id: i64) -> Result<(), StoreError> {
    if postgres(conn) {
        // One statement at a time with arguments; the caller's
        // transaction, if any, makes them one commit.
        sqlx::query(
            "UPDATE outbox SET sent_at = $1, attempts = attempts + 1, last_error = NULL,
                leased_by = NULL, leased_until = NULL, doubt_since = NULL WHERE id = $2",
        )
        .bind(now_secs())
        .bind(id)
        .execute(&mut *conn)
        .await?;
        sqlx::query("DELETE FROM outbox_bodies WHERE id = $1")
            .bind(id)
            .execute(&mut *conn)
            .await?;
        return Ok(());
    }
    sqlx::query(
        "UPDATE outbox SET sent_at = $1, attempts = attempts + 1, last_error = NULL,
            leased_by = NULL, leased_until = NULL, doubt_since = NULL WHERE id = $2;
         DELETE FROM outbox_bodies WHERE id = $3",
    )
    .bind(now_secs())
    .bind(id)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Marks the rows `ids` sent and deletes their bodies, in one statement
/// batch (the caller's transaction makes it one commit).
pub async fn mark_sent_many(conn: &mut AnyConnection, ids: &[i64]) -> Result<(), StoreError> {
    if ids.is_empty() {
        return Ok(());
    }
    let ids = serde_json::to_string(ids).unwrap_or_else(|_| "[]".to_owned());
    if postgres(conn) {
        sqlx::query(
            "UPDATE outbox SET sent_at = $1, attempts = attempts + 1, last_error = NULL,
                leased_by = NULL, leased_until = NULL, doubt_since = NULL
             WHERE id IN (SELECT jsonb_array_elements_text($2::jsonb)::bigint)",
        )
        .bind(now_secs())
        .bind(ids.clone())
        .execute(&mut *conn)
        .await?;
        sqlx::query(
            "DELETE FROM outbox_bodies
             WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::bigint)",
        )
        .bind(ids)
        .execute(&mut *conn)
        .await?;
        return Ok(());
    }
    sqlx::query(
        "UPDATE outbox SET sent_at = $1, attempts = attempts + 1, last_error = NULL,
            leased_by = NULL, leased_until = NULL, doubt_since = NULL
         WHERE id IN (SELECT value FROM json_each($2));
         DELETE FROM outbox_bodies WHERE id IN (SELECT value FROM json_each($2))",
    )
    .bind(now_secs())
    .bind(ids)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub async fn mark_retry(
    conn: &mut AnyConnection,
    id: i64,
    next_at: i64,
    error: &str,
) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $1, last_error = $2,
         leased_by = NULL, leased_until = NULL, doubt_since = NULL WHERE id = $3",
    )
    .bind(next_at)
    .bind(error)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub async fn mark_failed(conn: &mut AnyConnection, id: i64, error: &str) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE outbox SET attempts = attempts + 1, failed_at = $1, last_error = $2,
            leased_by = NULL, leased_until = NULL, doubt_since = NULL WHERE id = $3",
    )
    .bind(now_secs())
    .bind(error)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Counts of what the outbox holds: (pending, sent, failed).
pub async fn counts(conn: &mut AnyConnection) -> Result<(i64, i64, i64), StoreError> {
    let row = sqlx::query(
        "SELECT
            COUNT(CASE WHEN sent_at IS NULL AND failed_at IS NULL THEN 1 END) AS pending,
            COUNT(sent_at) AS sent,
            COUNT(failed_at) AS failed
         FROM outbox",
    )
    .fetch_one(&mut *conn)
    .await?;
    Ok((row.get("pending"), row.get("sent"), row.get("failed")))
}

/// One outbox row as `wildt outbox list` and `game show` tell it (no body).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct OutboxEntry {
    pub id: i64,
    pub game: Option<i64>,
    pub event: String,
    pub recipient: String,
    pub message_id: String,
    /// `waiting`, `in-doubt` (a process that died may have handed it to the
    /// relay: looked for among the receipts before it is sent), `sent` or
    /// `failed`.
    pub state: &'static str,
    pub attempts: i64,
    pub created_at: i64,
    pub next_attempt_at: Option<i64>,
    pub sent_at: Option<i64>,
    pub failed_at: Option<i64>,
    pub last_error: Option<String>,
}

/// Which rows [`list`] returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListFilter {
    /// Waiting and failed rows: what is not done.
    Unsent,
    Failed,
    /// The failed rows of one game.
    FailedOfGame(i64),
}

pub async fn list(
    conn: &mut AnyConnection,
    filter: ListFilter,
) -> Result<Vec<OutboxEntry>, StoreError> {
    let (clause, game) = match filter {
        ListFilter::Unsent => ("sent_at IS NULL", None),
        ListFilter::Failed => ("failed_at IS NOT NULL", None),
        ListFilter::FailedOfGame(g) => ("failed_at IS NOT NULL AND game_id = $1", Some(g)),
    };
    let sql = format!(
        "SELECT id, game_id, event, recipient, message_id, attempts, created_at,
                next_attempt_at, sent_at, failed_at, last_error, doubt_since
         FROM outbox WHERE {clause} ORDER BY id"
    );
    let mut query = sqlx::query(&sql);
    if let Some(g) = game {
        query = query.bind(g);
    }
    let rows = query.fetch_all(&mut *conn).await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let sent_at: Option<i64> = r.get("sent_at");
            let failed_at: Option<i64> = r.get("failed_at");
            let doubt_since: Option<i64> = r.get("doubt_since");
            // In doubt: a process that died may have handed it to the relay.
            let state = match (sent_at, failed_at, doubt_since) {
                (Some(_), _, _) => "sent",
                (None, Some(_), _) => "failed",
                (None, None, Some(_)) => "in-doubt",
                (None, None, None) => "waiting",
            };
            OutboxEntry {
                id: r.get("id"),
                game: r.get("game_id"),
                event: r.get("event"),
                recipient: r.get("recipient"),
                message_id: r.get("message_id"),
                state,
                attempts: r.get("attempts"),
                created_at: r.get("created_at"),
                next_attempt_at: matches!(state, "waiting" | "in-doubt")
                    .then(|| r.get("next_attempt_at")),
                sent_at,
                failed_at,
                last_error: r.get("last_error"),
            }
        })
        .collect())
}

/// What `retry` did with one row id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requeued {
    /// Due again now, its attempts counted from zero.
    Queued,
    /// Already sent: never sent twice.
    AlreadySent,
    /// Still waiting: it is due now.
    Waiting,
    NotFound,
}

/// Makes the failed or waiting row `id` due at `now` (its backoff starts over).
pub async fn requeue(conn: &mut AnyConnection, id: i64, now: i64) -> Result<Requeued, StoreError> {
    let row = sqlx::query("SELECT sent_at, failed_at FROM outbox WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?;
    let row: Option<(Option<i64>, Option<i64>)> = row
        .map(|r| Ok::<_, sqlx::Error>((r.try_get("sent_at")?, r.try_get("failed_at")?)))
        .transpose()?;
    let outcome = match row {
        None => return Ok(Requeued::NotFound),
        Some((Some(_), _)) => return Ok(Requeued::AlreadySent),
        Some((None, Some(_))) => Requeued::Queued,
        Some((None, None)) => Requeued::Waiting,
    };
    sqlx::query(
        "UPDATE outbox SET failed_at = NULL, next_attempt_at = $1, attempts = 0
         WHERE id = $2 AND sent_at IS NULL",
    )
    .bind(now)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(outcome)
}

/// The ids of every failed row.
pub async fn failed_ids(conn: &mut AnyConnection) -> Result<Vec<i64>, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT id FROM outbox WHERE failed_at IS NOT NULL ORDER BY id")
            .fetch_all(&mut *conn)
            .await?,
    )
}

/// The organiser and player facts of a row that failed for good, for the
/// organiser's notice: (game, event, recipient).
pub async fn failure_facts(
    conn: &mut AnyConnection,
    id: i64,
) -> Result<Option<(Option<i64>, String, String)>, StoreError> {
    let row = sqlx::query("SELECT game_id, event, recipient FROM outbox WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(row
        .map(|r| {
            Ok::<_, sqlx::Error>((
                r.try_get("game_id")?,
                r.try_get("event")?,
                r.try_get("recipient")?,
            ))
        })
        .transpose()?)
}

/// The outbox as `wildt status` reports it: mail waiting and when the next
/// is due, mail failed for good (ever, and since `since`), and the newest
/// failure's error.
#[derive(Debug, sqlx::FromRow)]
pub struct Health {
    pub waiting: i64,
    pub next_due_at: Option<i64>,
    pub failed: i64,
    pub failed_since: i64,
    pub last_error: Option<String>,
}

/// The outbox's [`Health`], failures counted recent from `since`.
pub async fn health(conn: &mut AnyConnection, since: i64) -> Result<Health, StoreError> {
    Ok(sqlx::query_as(
        "SELECT
           (SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL)
             AS waiting,
           (SELECT MIN(next_attempt_at) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL)
             AS next_due_at,
           (SELECT COUNT(*) FROM outbox WHERE failed_at IS NOT NULL) AS failed,
           (SELECT COUNT(*) FROM outbox WHERE failed_at >= $1) AS failed_since,
           (SELECT last_error FROM outbox WHERE failed_at IS NOT NULL
              ORDER BY failed_at DESC, id DESC LIMIT 1) AS last_error",
    )
    .bind(since)
    .fetch_one(conn)
    .await?)
}

#[cfg(test)]
mod migration_tests {
    use crate::decide::Outcome;

    /// Migration 15 marks the answers of an older database with the outcomes
    /// written out in SQL; they must be the ones `enqueue_all` leaves out.
    #[test]
    fn the_reply_budget_migration_names_exactly_the_outcomes_that_change_a_game() {
        let sql = include_str!("../../migrations/sqlite/0015_reply_budget.sql");
        let list = sql
            .split("NOT IN (")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .expect("an outcome list in the migration");
        let named: Vec<&str> = list
            .split(',')
            .map(|o| o.trim().trim_matches('\''))
            .collect();
        let changing: Vec<&str> = Outcome::CHANGING_GAME.iter().map(|o| o.as_str()).collect();
        assert_eq!(named, changing);
    }

    /// A database made before the lease took its name keeps its leases:
    /// the migration renames `claimed_by` and `claimed_until`, and a row
    /// leased before it is leased after it, to the same owner until the
    /// same time.
    #[tokio::test]
    async fn the_lease_migration_keeps_the_leases_of_an_older_database() {
        use sqlx::Connection as _;
        sqlx::any::install_default_drivers();
        let mut conn = sqlx::AnyConnection::connect("sqlite::memory:")
            .await
            .unwrap();
        let all = sqlx::migrate!("./migrations/sqlite");
        let mut older = sqlx::migrate!("./migrations/sqlite");
        older.migrations = all
            .migrations
            .iter()
            .filter(|m| m.version < 25)
            .cloned()
            .collect::<Vec<_>>()
            .into();
        older.run(&mut conn).await.unwrap();
        sqlx::query(
            "INSERT INTO outbox (id, message_id, sender, recipient, event, created_at,
                                 next_attempt_at, claimed_by, claimed_until)
             VALUES (1, 'm1@club.example', 'chess@club.example', 'anna@example.org',
                     'move-accepted', 0, 0, 'pid:1:0', 600)",
        )
        .execute(&mut conn)
        .await
        .unwrap();
        all.run(&mut conn).await.unwrap();
        let leased: (String, i64) =
            sqlx::query_as("SELECT leased_by, leased_until FROM outbox WHERE id = 1")
                .fetch_one(&mut conn)
                .await
                .unwrap();
        assert_eq!(leased, ("pid:1:0".to_owned(), 600));
        assert_eq!(
            super::leaseholders(&mut conn, 0).await.unwrap(),
            ["pid:1:0"]
        );
    }
}

#[cfg(test)]
mod pack_tests {
    use super::{BODY_DICT, BODY_DICT_1, PACKING_DICT, dictionary, pack, unpack};

    /// A body as a mail of wildt's is: lines of a record, a board's HTML.
    fn body(len: usize, seed: u32) -> Vec<u8> {
        let mut out = Vec::with_capacity(len);
        let mut x = seed;
        while out.len() < len {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let line = format!("<td>{}.</td><td><b>{}</b></td>\r\n", x % 151, x % 8888);
            out.extend_from_slice(line.as_bytes());
        }
        out.truncate(len);
        out
    }

    /// The packed form is byte for byte what the library's own
    /// `compress_prepend_size_with_dict` writes against the dictionary,
    /// whatever the per-thread buffer held from bodies before: a large
    /// body, then small ones, then an empty one; and bodies of 64 KiB or
    /// more, which go the library's way. Each unpacks whole.
    #[test]
    fn packing_with_the_kept_buffer_writes_what_the_library_writes_and_unpacks_whole() {
        for (len, seed) in [
            (27_000, 1),
            (11_000, 2),
            (300, 3),
            (70_000, 4),
            (11_000, 5),
            (0, 6),
            (65_534, 8),
            (65_535, 9),
            (300_000, 7),
        ] {
            let raw = body(len, seed);
            let packed = pack(&raw);
            assert_eq!(
                packed,
                lz4_flex::block::compress_prepend_size_with_dict(&raw, PACKING_DICT),
                "{len} bytes"
            );
            assert_eq!(packed.capacity(), packed.len(), "held at its packed size");
            assert_eq!(
                unpack(1, packed, true, Some(BODY_DICT)).as_deref(),
                Some(&raw[..])
            );
        }
    }

    /// Dictionary 1 is the bytes it was when rows were first packed with
    /// it: changed, every body waiting in an outbox at the upgrade would
    /// unpack to something else or not at all. A new dictionary takes a
    /// new number.
    #[test]
    fn dictionary_one_never_changes() {
        use sha2::{Digest, Sha256};
        let digest: String = Sha256::digest(BODY_DICT_1)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            digest,
            "132419b9c792d740c87036a63cceef58f81244f55c44bdb4ea11df8cca28e74b"
        );
        assert_eq!(dictionary(1), Some(BODY_DICT_1));
    }

    /// The rows say the number of the dictionary their bodies were packed
    /// against, and that number names the one `pack` uses.
    #[test]
    fn bodies_are_packed_against_the_dictionary_their_rows_name() {
        assert_eq!(dictionary(BODY_DICT), Some(PACKING_DICT));
    }

    /// A reply like the dictionary (another move of the same game) packs to
    /// well under half of what it packs to alone, and unpacks whole.
    #[test]
    fn a_reply_packs_to_less_than_half_against_the_dictionary() {
        let text = String::from_utf8_lossy(BODY_DICT_1)
            .replace("20... 3624", "21. 5254")
            .replace("b0@players.example", "w0@players.example");
        let raw = text.as_bytes();
        let alone = lz4_flex::block::compress_prepend_size(raw).len();
        let packed = pack(raw);
        assert!(packed.len() * 2 < alone, "{} against {alone}", packed.len());
        assert_eq!(
            unpack(1, packed, true, Some(BODY_DICT)).as_deref(),
            Some(raw)
        );
    }

    /// Rows packed before dictionaries (`dict` NULL) still unpack, and are
    /// sent as they were.
    #[test]
    fn a_body_packed_without_a_dictionary_still_unpacks() {
        let raw = body(11_000, 10);
        let stored = lz4_flex::block::compress_prepend_size(&raw);
        assert_eq!(unpack(1, stored, true, None).as_deref(), Some(&raw[..]));
    }

    /// A row naming a dictionary this build does not have (written by a
    /// newer version, then downgraded) is not sent as garbage: it is left
    /// out, as a damaged body is.
    #[test]
    fn a_body_naming_an_unknown_dictionary_is_not_unpacked() {
        let raw = body(11_000, 11);
        assert_eq!(unpack(1, pack(&raw), true, Some(BODY_DICT + 1)), None);
    }
}
