-- What a saved plan's id hashed when it was made (one fact per line: hashes and states, never a secret), so that
-- apply can say what changed when it refuses the plan as stale. Plans saved before this version keep NULL.
ALTER TABLE saved_plan ADD COLUMN IF NOT EXISTS inputs TEXT;
