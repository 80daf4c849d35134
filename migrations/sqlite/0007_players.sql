-- Players by address (lower-cased): the language each reads wildt's mail in.
-- `lang_source` says how it was chosen: 'organiser' (game new, player set),
-- 'mail' (the player's own "language: …" command) or 'guess' (the words of a
-- mail, Content-Language), so a guess never overrides a choice.
CREATE TABLE players (
    email        TEXT PRIMARY KEY,
    lang         TEXT NOT NULL CHECK (lang IN ('en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'cs', 'ru')),
    lang_source  TEXT NOT NULL CHECK (lang_source IN ('organiser', 'mail', 'guess')),
    updated_at   INTEGER NOT NULL
) WITHOUT ROWID;
