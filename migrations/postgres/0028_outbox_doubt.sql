-- A mail a process that died may have handed to the relay: `doubt_since`
-- is when its row was taken back from that process. With receipts
-- configured, the sender looks for the mail's receipt before sending it
-- again, and waits for one a while; NULL for every other row.
ALTER TABLE outbox ADD COLUMN doubt_since BIGINT;
