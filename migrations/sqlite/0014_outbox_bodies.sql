-- The rendered mail moves out of the outbox row into a table of its own.
-- SQLite rewrites a whole row, overflow pages included, when any column of
-- it changes: with the body in the row, claiming a mail and marking it sent
-- wrote its tens of kilobytes twice more. A body is needed only until its
-- mail is sent; it is then deleted (the row keeps what was sent, to whom,
-- when, under which Message-ID).
CREATE TABLE outbox_bodies (
    id  INTEGER PRIMARY KEY REFERENCES outbox (id),
    raw BLOB NOT NULL
);
INSERT INTO outbox_bodies (id, raw) SELECT id, raw FROM outbox WHERE sent_at IS NULL;
ALTER TABLE outbox DROP COLUMN raw;
