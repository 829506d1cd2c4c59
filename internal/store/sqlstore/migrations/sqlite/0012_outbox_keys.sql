-- The outbox without foreign keys: PostgreSQL's migration of the same
-- name drops them there, where each key took a row lock. SQLite checks a
-- key with an index lookup and no lock, and dropping one means copying
-- the table, so here the keys stay and this migration changes nothing.
SELECT 1;
