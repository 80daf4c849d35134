//! The players table: each player's language, keyed by the lower-cased
//! address. [IO]

use sqlx::{AnyConnection, Row};

use super::{StoreError, now_secs};
use crate::i18n::Lang;

/// How a player's language was chosen. A choice (the organiser's or the
/// player's own, the latest wins) is never overridden by a guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LangSource {
    /// Guessed from a mail's command words or `Content-Language`.
    Guess,
    /// The player's own "language: …" command.
    Mail,
    /// The organiser (`game new --white-lang`, `player set --lang`).
    Organiser,
}

impl LangSource {
    pub fn as_str(self) -> &'static str {
        match self {
            LangSource::Guess => "guess",
            LangSource::Mail => "mail",
            LangSource::Organiser => "organiser",
        }
    }

    fn parse(s: &str) -> Option<LangSource> {
        [LangSource::Guess, LangSource::Mail, LangSource::Organiser]
            .into_iter()
            .find(|l| l.as_str() == s)
    }
}

/// The key of the table: addresses compare without (ASCII) case, as
/// SQLite's `lower()` in the game lookup does.
pub fn key(email: &str) -> String {
    email.trim().to_ascii_lowercase()
}

/// The stored language of `email` and how it was chosen, if any.
pub async fn lang(
    conn: &mut AnyConnection,
    email: &str,
) -> Result<Option<(Lang, LangSource)>, StoreError> {
    let row = sqlx::query("SELECT lang, lang_source FROM players WHERE email = $1")
        .bind(key(email))
        .fetch_optional(&mut *conn)
        .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let (lang, source): (String, String) = (row.get("lang"), row.get("lang_source"));
    parse_lang(email, &lang, &source).map(Some)
}

/// A player's stored `lang` and `lang_source` columns, read.
pub fn parse_lang(email: &str, lang: &str, source: &str) -> Result<(Lang, LangSource), StoreError> {
    let bad = |value: &str| StoreError::BadPlayer {
        email: key(email),
        value: value.to_owned(),
    };
    Ok((
        Lang::from_code(lang).ok_or_else(|| bad(lang))?,
        LangSource::parse(source).ok_or_else(|| bad(source))?,
    ))
}

/// Stores `lang` for `email`, unless it is a guess and a language was
/// chosen already. Returns whether it was stored.
pub async fn set_lang(
    conn: &mut AnyConnection,
    email: &str,
    lang: Lang,
    source: LangSource,
) -> Result<bool, StoreError> {
    if let Some((_, stored)) = self::lang(conn, email).await?
        && stored != LangSource::Guess
        && source == LangSource::Guess
    {
        return Ok(false);
    }
    sqlx::query(
        "INSERT INTO players (email, lang, lang_source, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (email) DO UPDATE SET lang = excluded.lang,
             lang_source = excluded.lang_source, updated_at = excluded.updated_at",
    )
    .bind(key(email))
    .bind(lang.code())
    .bind(source.as_str())
    .bind(now_secs())
    .execute(&mut *conn)
    .await?;
    Ok(true)
}
