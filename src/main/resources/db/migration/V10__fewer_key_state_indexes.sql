-- Every change of a key's state wrote an entry of these two indexes (a claim and a key's end
-- are two of the four commits of a key of three `none` steps), and no query needs them: each query on
-- lease_owner or on credential also names the state ('RUNNING', 'NEEDS_CREDENTIAL'), few keys are in
-- either, and key_state_by_state (state, job) finds them (StateIndexTest reads the plans).
DROP INDEX IF EXISTS key_state_by_credential;
DROP INDEX IF EXISTS key_state_by_owner;
