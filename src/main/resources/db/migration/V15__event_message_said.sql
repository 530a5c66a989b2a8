-- An event's message as a bundle key and its arguments (small JSON), beside its English words in message, so
-- the console and the command line say it in the operator's language. Rows written before this version keep
-- NULL: they are shown by their English words.
ALTER TABLE key_event ADD COLUMN IF NOT EXISTS message_said VARCHAR(8000);
