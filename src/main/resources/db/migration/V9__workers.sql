-- Keyline state, version 9: several workers and consoles on one state.
-- worker: every process that runs keys registers here (host, pid, kind, version) and beats while it
-- lives. On PostgreSQL it also holds the session advisory lock (LOCK_SPACE, lock_no): a lock that is gone
-- means the process is gone, on whatever machine; heartbeat_at is the database's clock there. The id is
-- the lease owner the process writes on the keys it holds.
CREATE TABLE IF NOT EXISTS worker (
    id              VARCHAR(200)  NOT NULL PRIMARY KEY,
    lock_no         INTEGER       NOT NULL,
    host            VARCHAR(200)  NOT NULL,
    pid             BIGINT        NOT NULL,
    kind            VARCHAR(16)   NOT NULL,
    keyline_version VARCHAR(40),
    started_at      BIGINT        NOT NULL,
    heartbeat_at    BIGINT        NOT NULL,
    stopped_at      BIGINT,
    CONSTRAINT worker_lock_once UNIQUE (lock_no)
);

-- Settings that belong to the state itself, e.g. the fingerprint of the master key every process of a
-- shared state must use (a process with another key is refused).
CREATE TABLE IF NOT EXISTS state_setting (
    name       VARCHAR(64)   NOT NULL PRIMARY KEY,
    setting_value VARCHAR(200) NOT NULL,
    updated_at BIGINT        NOT NULL
);

-- The heartbeat renews the leases of one holder's keys; the console lists running keys by holder.
CREATE INDEX IF NOT EXISTS key_state_by_owner ON key_state (lease_owner);
