-- `outbox_recipient` (recipient, created_at) has had no reader since the
-- hourly reply limit counts through `outbox_limited` (migration 15) and a
-- claim finds each recipient's queue through `outbox_queues` (migration
-- 18), but every mail still wrote an entry into it: in a database with a
-- long history, a leaf of its own per recipient, about two pages of every
-- moved message's commit (strace of the WAL at ply 300: 2.6 of 14 pages).
DROP INDEX outbox_recipient;
