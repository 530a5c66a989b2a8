-- Named credentials (cookie, bearer, header). The secret is AES-GCM encrypted (base64 of
-- nonce || ciphertext || tag, the name bound as associated data); everything else here is safe
-- to show: the value's fingerprint, the master key's fingerprint, cookie count and expiry.
CREATE TABLE IF NOT EXISTS credential (
    name             VARCHAR(64)    NOT NULL PRIMARY KEY,
    cred_type        VARCHAR(16)    NOT NULL,
    secret           VARCHAR(200000) NOT NULL,
    master_key       VARCHAR(16)    NOT NULL,
    fingerprint      VARCHAR(16)    NOT NULL,
    cookie_count     INTEGER        NOT NULL,
    earliest_expiry  BIGINT,
    updated_at       BIGINT         NOT NULL,
    updated_by       VARCHAR(100),
    last_used_at     BIGINT,
    last_result      VARCHAR(32),
    version          BIGINT         NOT NULL
);
