-- PostgreSQL only (Flyway location db/postgresql, after the common V9): job names and keys sort and
-- compare byte by byte, as on H2 (key ranges such as --from/--to, listings ordered by key). A database
-- created with a language's collation (en_US.UTF-8 ignores '-' at first) would order them otherwise.
ALTER TABLE key_state ALTER COLUMN job TYPE VARCHAR(63) COLLATE "C",
    ALTER COLUMN key_value TYPE VARCHAR(128) COLLATE "C";
ALTER TABLE step_state ALTER COLUMN job TYPE VARCHAR(63) COLLATE "C",
    ALTER COLUMN key_value TYPE VARCHAR(128) COLLATE "C";
ALTER TABLE key_event ALTER COLUMN job TYPE VARCHAR(63) COLLATE "C",
    ALTER COLUMN key_value TYPE VARCHAR(128) COLLATE "C";
ALTER TABLE step_child ALTER COLUMN job TYPE VARCHAR(63) COLLATE "C",
    ALTER COLUMN key_value TYPE VARCHAR(128) COLLATE "C";
ALTER TABLE job_control ALTER COLUMN job TYPE VARCHAR(63) COLLATE "C";
ALTER TABLE saved_plan ALTER COLUMN job TYPE VARCHAR(63) COLLATE "C";
ALTER TABLE credential ALTER COLUMN name TYPE VARCHAR(64) COLLATE "C";
