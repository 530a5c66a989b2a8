-- Keyline state, version 3: the safety promise holds under load.
-- Step outputs may be large (a JSON answer with a 100,000-character field): they are bounded by the
-- engine and no longer limited by the column, so recording a success cannot fail on its size.
ALTER TABLE step_state ALTER COLUMN outputs SET DATA TYPE VARCHAR(1000000);
ALTER TABLE key_event ALTER COLUMN evidence SET DATA TYPE VARCHAR(1000000);

-- The child process a command step of a key started last: a run that takes over from a dead holder
-- waits for it (same host, pid and start time) instead of starting a second copy of the step.
CREATE TABLE IF NOT EXISTS step_child (
    job        VARCHAR(63)   NOT NULL,
    key_value  VARCHAR(128)  NOT NULL,
    step       VARCHAR(63)   NOT NULL,
    host       VARCHAR(200)  NOT NULL,
    pid        BIGINT        NOT NULL,
    started_at BIGINT,
    deadline   BIGINT,
    PRIMARY KEY (job, key_value)
);

-- A plan keeps how it was made (--ahead, --no-probes): apply re-plans the same way.
ALTER TABLE saved_plan ADD COLUMN IF NOT EXISTS options VARCHAR(200);
