-- Cookies a site sets on its answers to requests that carried a credential are kept (encrypted, like every
-- value) unless refresh_by_site is FALSE (credentials set NAME --no-refresh). refreshed_at is when the site
-- last changed the value; renewed_fingerprint is the fingerprint of the value the operator stored, which a
-- refresh by the site keeps.
ALTER TABLE credential ADD COLUMN IF NOT EXISTS refresh_by_site BOOLEAN DEFAULT TRUE NOT NULL;
ALTER TABLE credential ADD COLUMN IF NOT EXISTS refreshed_at BIGINT;
ALTER TABLE credential ADD COLUMN IF NOT EXISTS renewed_fingerprint VARCHAR(16);
