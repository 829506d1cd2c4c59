-- Expired idempotency answers are purged by age (created_at < a day ago);
-- without an index that purge scans the whole table.
CREATE INDEX idempotency_created_at ON idempotency (created_at);
