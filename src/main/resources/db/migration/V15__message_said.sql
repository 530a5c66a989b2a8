-- A key's message and its events' messages as a bundle key and its arguments (small JSON), beside their English
-- words in message, so the console and the command line say them in the operator's language. Rows written before
-- this version keep NULL: they are shown by their English words.
ALTER TABLE key_state ADD COLUMN IF NOT EXISTS message_said VARCHAR(8000);
ALTER TABLE key_event ADD COLUMN IF NOT EXISTS message_said VARCHAR(8000);
