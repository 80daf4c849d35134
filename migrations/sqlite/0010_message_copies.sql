-- A second copy of a message (two envelope recipients, a migrated mailbox)
-- has other bytes but the same Message-ID, sender, game and body. The body's
-- digest (line ends normalised) keeps a client that reuses one Message-ID for
-- different mails from having its later moves taken for copies.
ALTER TABLE messages ADD COLUMN body_sha256 TEXT;
CREATE INDEX messages_copy ON messages (message_id, from_addr, game_id);
