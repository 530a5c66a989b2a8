-- Why a NEEDS_CONFIRMATION key waits (CONFIRM_ALWAYS, OUTCOME_UNKNOWN, PAYLOAD_CHANGED) and which events
-- record a probe's answer (PRESENT, ABSENT, INCONCLUSIVE, AUTH) are columns: readers decide by them,
-- never by the words of a message. Rows written before this version get their value from what the
-- engine wrote then (idempotent: a row that has a value keeps it).
ALTER TABLE key_state ADD COLUMN IF NOT EXISTS wait_reason VARCHAR(24);
ALTER TABLE key_event ADD COLUMN IF NOT EXISTS probe_answer VARCHAR(16);

UPDATE key_state SET wait_reason = 'OUTCOME_UNKNOWN'
    WHERE state = 'NEEDS_CONFIRMATION' AND wait_reason IS NULL AND failure_class = 'AMBIGUOUS';
UPDATE key_state SET wait_reason = 'PAYLOAD_CHANGED'
    WHERE state = 'NEEDS_CONFIRMATION' AND wait_reason IS NULL AND message LIKE '%changed since it was confirmed%';
UPDATE key_state SET wait_reason = 'CONFIRM_ALWAYS'
    WHERE state = 'NEEDS_CONFIRMATION' AND wait_reason IS NULL;

UPDATE key_event SET probe_answer = 'PRESENT'
    WHERE probe_answer IS NULL AND event_type = 'STEP_RECONCILED';
UPDATE key_event SET probe_answer = 'ABSENT'
    WHERE probe_answer IS NULL AND event_type = 'WAITING_FOR_CONFIRMATION' AND message LIKE '%probe:%(absent)';
UPDATE key_event SET probe_answer = 'INCONCLUSIVE'
    WHERE probe_answer IS NULL AND (message LIKE '%the step does not run on an inconclusive probe%'
        OR message LIKE '%; the probe will be asked again%');
