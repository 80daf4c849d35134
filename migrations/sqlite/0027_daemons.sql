-- Several daemons on one database. `daemons`: each running daemon's
-- heartbeat (its id is the one it leases outbox rows with), which
-- `wildt status` lists. `leaders`: who runs the deadlines and publishes
-- the site (`role`), until when (`lease_until`); another daemon takes the role once
-- `lease_until` has passed. On SQLite one daemon runs (the file lock) and leads.
CREATE TABLE daemons (
    id TEXT PRIMARY KEY NOT NULL,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL
);

CREATE TABLE leaders (
    role TEXT PRIMARY KEY NOT NULL,
    holder TEXT NOT NULL,
    lease_until INTEGER NOT NULL
);
