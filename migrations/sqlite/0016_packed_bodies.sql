-- A waiting mail's body may be stored packed (LZ4, its length first): a
-- reply is mostly the HTML board and record, which pack to a fifth or less,
-- and every byte of a body is written to the WAL, copied into the database,
-- read back to be sent and deleted. Rows written before stay as they were.
ALTER TABLE outbox_bodies ADD COLUMN packed INTEGER NOT NULL DEFAULT 0 CHECK (packed IN (0, 1));
