-- All-play-all sections (issue 20): the event, its players in seat order,
-- and which games belong to it. A withdrawal's rulings are stored on the
-- games themselves (termination 'forfeit' or 'annulled').
CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    double      INTEGER NOT NULL DEFAULT 0 CHECK (double IN (0, 1)),
    created_at  INTEGER NOT NULL
);

CREATE TABLE event_players (
    event_id     INTEGER NOT NULL REFERENCES events (id),
    -- Seat in the Berger table, from 0 in list order.
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    email        TEXT NOT NULL,
    -- The display name the organiser gave, if any: what the public site shows.
    name         TEXT,
    withdrawn_at INTEGER,
    PRIMARY KEY (event_id, seat),
    UNIQUE (event_id, email)
) WITHOUT ROWID;

CREATE TABLE event_games (
    game_id   INTEGER PRIMARY KEY REFERENCES games (id),
    event_id  INTEGER NOT NULL REFERENCES events (id),
    round     INTEGER NOT NULL CHECK (round >= 1)
);
CREATE INDEX event_games_event ON event_games (event_id, round);
