//! A record's sealed plies as the replies render them, kept per language
//! (`record_renders`): the rows of the reply's rendering cache
//! ([`crate::reply::cache`]). The row holds, before the rendering, the two
//! hashes that decide whether it may be used: the build's rendering in its
//! language (checked by the replies) and the plies it was made from
//! (checked here, against the game's sealed plies as loaded). Stored as it
//! is read, not packed: unpacking it would cost a long game's load more
//! instructions than reading its 4 KB pages. A finished game's rows are
//! deleted.

use crate::i18n::Lang;
use crate::reply::cache::{Rendering, stable_hash};

use super::StoreError;
use super::batch::Batch;

/// The bytes before the text: fingerprint, plies' hash (8 each), plies
/// (4), whether the rows fit (1), the text's length (4).
const HEAD: usize = 8 + 8 + 4 + 1 + 4;

/// The hash of a game's sealed plies text (`record_parts`' texts joined by
/// commas, as a load reads them) that a kept rendering was made from.
pub fn plies_hash(sealed: &str) -> u64 {
    stable_hash(&[sealed.as_bytes()])
}

/// `rendered`, made from the sealed plies whose text hashes to
/// `plies_hash`, as stored.
pub fn to_row(rendered: &Rendering, plies_hash: u64) -> Vec<u8> {
    let mut raw = Vec::with_capacity(HEAD + rendered.text.len() + rendered.html.len());
    raw.extend_from_slice(&rendered.fingerprint.to_le_bytes());
    raw.extend_from_slice(&plies_hash.to_le_bytes());
    raw.extend_from_slice(
        &u32::try_from(rendered.plies)
            .unwrap_or(u32::MAX)
            .to_le_bytes(),
    );
    raw.push(u8::from(rendered.html_fits));
    raw.extend_from_slice(
        &u32::try_from(rendered.text.len())
            .unwrap_or(u32::MAX)
            .to_le_bytes(),
    );
    raw.extend_from_slice(rendered.text.as_bytes());
    raw.extend_from_slice(rendered.html.as_bytes());
    raw
}

/// The rendering in `row` (a row of `lang`), if it was made from `sealed`
/// plies (their count and their text's hash) and reads whole; `None`
/// otherwise: the reply then renders the whole record.
pub fn from_row(
    row: &[u8],
    lang: Lang,
    sealed_plies: usize,
    sealed_hash: u64,
) -> Option<Rendering> {
    let (head, rest) = row.split_at_checked(HEAD)?;
    let u64_at = |at: usize| {
        head.get(at..at + 8)?
            .try_into()
            .ok()
            .map(u64::from_le_bytes)
    };
    let u32_at = |at: usize| {
        head.get(at..at + 4)?
            .try_into()
            .ok()
            .map(u32::from_le_bytes)
    };
    let fingerprint = u64_at(0)?;
    let plies = usize::try_from(u32_at(16)?).ok()?;
    if u64_at(8)? != sealed_hash || plies != sealed_plies {
        return None;
    }
    let html_fits = head[20] == 1;
    let text_len = usize::try_from(u32_at(21)?).ok()?;
    let (text, html) = rest.split_at_checked(text_len)?;
    Some(Rendering {
        lang,
        plies,
        fingerprint,
        text: std::str::from_utf8(text).ok()?.to_owned(),
        html: std::str::from_utf8(html).ok()?.to_owned(),
        html_fits,
    })
}

/// Keeps `row` as game `game`'s rendering in `lang`, in place of the one
/// before, when `batch` runs.
pub fn keep_into(batch: &mut Batch, game: i64, lang: Lang, row: Vec<u8>) -> Result<(), StoreError> {
    batch.push(
        "INSERT INTO record_renders (game_id, lang, rendered) VALUES (?, ?, ?)
         ON CONFLICT (game_id, lang) DO UPDATE SET rendered = excluded.rendered",
        Some(1),
        "record rendering",
    );
    batch.bind(game)?;
    batch.bind(lang.code())?;
    batch.bind(row)
}

/// Deletes game `game`'s renderings (it is over: a reply showing its
/// record again is rare, and the rows would only fill the database) when
/// `batch` runs.
pub fn forget_into(batch: &mut Batch, game: i64) -> Result<(), StoreError> {
    batch.push(
        "DELETE FROM record_renders WHERE game_id = ?",
        None,
        "record renderings",
    );
    batch.bind(game)
}
