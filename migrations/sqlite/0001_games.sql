-- Games, their moves, the mail processed and the mail to send.
CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    white_email  TEXT NOT NULL,
    black_email  TEXT NOT NULL,
    white_key    TEXT NOT NULL,
    black_key    TEXT NOT NULL,
    start_fen    TEXT NOT NULL,
    event        TEXT,
    status       TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
    result       TEXT NOT NULL DEFAULT '*' CHECK (result IN ('*', '1-0', '0-1', '1/2-1/2')),
    termination  TEXT,
    draw_offer   TEXT CHECK (draw_offer IN ('white', 'black')),
    -- Message-ID (without <>) that every mail of the game references: one thread.
    thread_root  TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);

-- Inbound messages, each recorded once with what was decided.
CREATE TABLE messages (
    id           INTEGER PRIMARY KEY,
    sha256       TEXT NOT NULL UNIQUE,
    -- 'maildir:<id>', 'imap:<mailbox>:<uidvalidity>:<uid>', 'cli'
    source       TEXT NOT NULL,
    message_id   TEXT,
    from_addr    TEXT,
    game_id      INTEGER REFERENCES games (id),
    outcome      TEXT NOT NULL,
    detail       TEXT NOT NULL,
    received_at  INTEGER NOT NULL
);
CREATE INDEX messages_source ON messages (source);

CREATE TABLE moves (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    ply          INTEGER NOT NULL CHECK (ply >= 1),
    iccf         TEXT NOT NULL,
    san          TEXT NOT NULL,
    fen_after    TEXT NOT NULL,
    played_at    INTEGER NOT NULL,
    -- NULL for a move recorded by hand (postcard game).
    message      INTEGER REFERENCES messages (id),
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- Mail to send, written in the same transaction as the decision that causes it.
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,
    message         INTEGER REFERENCES messages (id),
    game_id         INTEGER REFERENCES games (id),
    message_id      TEXT NOT NULL UNIQUE,
    sender          TEXT NOT NULL,
    recipient       TEXT NOT NULL,
    event           TEXT NOT NULL,
    raw             BLOB NOT NULL,
    created_at      INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    sent_at         INTEGER,
    failed_at       INTEGER,
    last_error      TEXT
);
CREATE INDEX outbox_pending ON outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;
CREATE INDEX outbox_recipient ON outbox (recipient, created_at);
