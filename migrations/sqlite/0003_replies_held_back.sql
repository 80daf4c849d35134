-- How many answers to the sender the hourly limit held back for each message,
-- so a dropped rejection or notice is on record, not only in the log.
ALTER TABLE messages ADD COLUMN replies_held_back INTEGER NOT NULL DEFAULT 0;
