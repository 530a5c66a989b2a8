-- Why an event left its key waiting for a person (CONFIRM_ALWAYS, OUTCOME_UNKNOWN, PAYLOAD_CHANGED, REVIEW), kept with
-- the event as a value, as key_state.wait_reason keeps it for the key now: a key's history shows a wait for its job's
-- review as such after the key moved on. Events written before this version keep NULL: nothing but their words says
-- why they waited, and words are not read for it.
ALTER TABLE key_event ADD COLUMN IF NOT EXISTS wait_reason VARCHAR(24);
