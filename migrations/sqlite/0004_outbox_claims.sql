-- Outbox rows are claimed before they are sent (a lease), so two processes on
-- one database never hand the same mail over twice. A claim whose
-- claimed_until has passed belongs to a process that died: the row may be
-- taken again.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until INTEGER;
