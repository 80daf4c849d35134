-- Day clocks (ICCF): each game's time control and the instant its clock
-- started; each ply's arrival at the mailbox and whether it cost no time;
-- players' leave; organiser rulings that give or take days; and the
-- deadline actions done, so each is done once (unique per game and key).
ALTER TABLE games ADD COLUMN time_control TEXT NOT NULL DEFAULT 'none';
ALTER TABLE games ADD COLUMN clock_started INTEGER;
UPDATE games SET clock_started = created_at;

-- NULL: the ply arrived when it was recorded (played_at).
ALTER TABLE moves ADD COLUMN arrived_at INTEGER;
ALTER TABLE moves ADD COLUMN free INTEGER NOT NULL DEFAULT 0 CHECK (free IN (0, 1));

-- Leave of a player (by address), whole UTC days, both ends included.
CREATE TABLE leaves (
    email     TEXT NOT NULL,
    from_day  TEXT NOT NULL,
    to_day    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (email, from_day)
) WITHOUT ROWID;

-- Days given (positive) or taken (negative) by the organiser.
CREATE TABLE clock_rulings (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seat       TEXT NOT NULL CHECK (seat IN ('white', 'black')),
    days       INTEGER NOT NULL,
    reason     TEXT,
    created_at INTEGER NOT NULL
);
CREATE INDEX clock_rulings_game ON clock_rulings (game_id);

-- Deadline actions done (`12/reminder-14`, `12/low-time`, `12/forfeit`),
-- written in the same transaction as the mails they cause.
CREATE TABLE deadlines_done (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    key      TEXT NOT NULL,
    done_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, key)
) WITHOUT ROWID;
