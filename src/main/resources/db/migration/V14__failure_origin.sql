-- Whose doing a key's last failure was (ENVIRONMENT: nothing answered - a name that does not resolve, a
-- refused connection, a program that cannot be started; ANSWER: the site or the program said no;
-- NO_ANSWER: sent, and no answer came). A run whose failed keys all failed because of the environment
-- exits 1, not 2. Rows written before this version keep NULL: not known, read as an answer.
ALTER TABLE key_state ADD COLUMN IF NOT EXISTS failure_origin VARCHAR(16);
