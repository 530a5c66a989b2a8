-- The review of a job's unsafe steps, kept with its kill switch: the hash of the unsafe steps (method, URL
-- template, body template, command) the operator approved, or applied a plan of; who and when. An unattended
-- run (run --due, the scheduler, a worker) does not run a job whose unsafe steps differ from it.
ALTER TABLE job_control ADD COLUMN IF NOT EXISTS reviewed_hash VARCHAR(64);
ALTER TABLE job_control ADD COLUMN IF NOT EXISTS reviewed_by VARCHAR(100);
ALTER TABLE job_control ADD COLUMN IF NOT EXISTS reviewed_at BIGINT;

-- Jobs that ran before reviews existed are adopted: the first run that meets one records the hash of its unsafe
-- steps as they are then, as if approved ('*'). A job without keys in this state is new: it waits for a review.
UPDATE job_control SET reviewed_hash = '*'
    WHERE reviewed_hash IS NULL AND job IN (SELECT DISTINCT job FROM key_state);
INSERT INTO job_control (job, paused, version, reviewed_hash)
    SELECT DISTINCT k.job, FALSE, 1, '*' FROM key_state k
    WHERE NOT EXISTS (SELECT 1 FROM job_control c WHERE c.job = k.job);
