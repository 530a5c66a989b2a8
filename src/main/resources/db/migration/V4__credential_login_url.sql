-- Where the operator logs in again for a credential (credentials set NAME --login-url URL).
-- A redirect to it (same origin, a path under it) means the site rejected the credential; the CLI and
-- the console show it wherever a key waits for the credential. Not a secret.
ALTER TABLE credential ADD COLUMN login_url VARCHAR(2000);
