-- The hourly reply limit counts the answers to a sender's own messages that
-- did not change a game. Counting them joined every mail to the sender in
-- the last hour with its message, so the cost of each message grew with how
-- much the sender played in that hour (a busy player's confirmations and
-- relays, hundreds of rows). The mail now says at insert whether it counts
-- (`limited`), and a partial index holds only those that do.
ALTER TABLE outbox ADD COLUMN limited INTEGER NOT NULL DEFAULT 0;
UPDATE outbox SET limited = 1
 WHERE id IN (SELECT o.id FROM outbox o JOIN messages m ON m.id = o.message
               WHERE o.recipient = m.from_addr
                 AND m.outcome NOT IN ('moved', 'ended', 'draw_offered', 'draw_declined'));
CREATE INDEX outbox_limited ON outbox (recipient, created_at) WHERE limited = 1;
