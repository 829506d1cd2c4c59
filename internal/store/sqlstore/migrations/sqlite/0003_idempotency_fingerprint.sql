-- An Idempotency-Key is bound to the body it was first sent with (its
-- SHA-256, hex), so that the key reused with another body is refused
-- rather than answered with the first call's data. resource_id is what
-- the call created; it is written in the write's own transaction, so a
-- server that dies between the write and saving the answer leaves a row
-- that a retry replays instead of writing again. Rows kept before this
-- migration have neither and expire within a day.
ALTER TABLE idempotency ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
ALTER TABLE idempotency ADD COLUMN resource_id TEXT NOT NULL DEFAULT '';
