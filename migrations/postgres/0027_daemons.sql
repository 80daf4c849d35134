-- Several daemons on one database. `daemons`: each running daemon's
-- heartbeat (its id is the one it leases outbox rows with), which
-- `wildt status` lists. `leaders`: who runs the deadlines and publishes
-- the site (`role`), until when (`lease_until`); another daemon takes the role once
-- `lease_until` has passed.
CREATE TABLE daemons (
    id           TEXT PRIMARY KEY NOT NULL,
    host         TEXT NOT NULL,
    pid          BIGINT NOT NULL,
    started_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
);

CREATE TABLE leaders (
    role   TEXT PRIMARY KEY NOT NULL,
    holder TEXT NOT NULL,
    lease_until BIGINT NOT NULL
);

-- Mail queued wakes the senders of every daemon (LISTEN wildt_outbox):
-- one notification a statement, delivered at its transaction's commit.
-- PostgreSQL only (SQLite has one daemon, woken in process).
CREATE FUNCTION wildt_outbox_queued() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('wildt_outbox', '');
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER outbox_queued AFTER INSERT ON outbox
    FOR EACH STATEMENT EXECUTE FUNCTION wildt_outbox_queued();

CREATE TRIGGER outbox_requeued AFTER UPDATE OF next_attempt_at ON outbox
    FOR EACH STATEMENT EXECUTE FUNCTION wildt_outbox_queued();
