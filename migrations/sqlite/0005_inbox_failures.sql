-- Inbox messages whose handling failed, counted across restarts: a message
-- that fails three times is moved to the quarantine, so that one message that
-- always fails (e.g. to a game whose row is damaged) never blocks the inbox.
-- Keyed by the message's digest (as messages.sha256), not by its inbox name.
CREATE TABLE inbox_failures (
    sha256         TEXT PRIMARY KEY,
    source         TEXT NOT NULL,
    attempts       INTEGER NOT NULL,
    last_error     TEXT NOT NULL,
    first_at       INTEGER NOT NULL,
    last_at        INTEGER NOT NULL,
    quarantined_at INTEGER
);
