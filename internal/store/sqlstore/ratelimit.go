package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// RateLimiter returns a limiter whose buckets live in the database, so
// that every server instance on one PostgreSQL spends from the same
// budget (contract §2: the limit is shared by every instance).
func (db *DB) RateLimiter() store.RateLimiter { return rateLimiter{db} }

type rateLimiter struct{ db *DB }

// take spends one token in a single statement. The bucket is refilled
// lazily from the time elapsed since its last spend, capped at limit; the
// DO UPDATE runs only when a whole token is there, so a denied call
// changes nothing (the partial refill is kept) and returns no row. One
// statement makes it atomic on both dialects: PostgreSQL locks the row
// for the upsert, SQLite runs it alone on the write connection.
//
// The refill is elapsed µs × limit / 60e6, multiplied before dividing so
// that whole tokens come out exact (no 0.99999 after exactly 60s/limit).
// Placeholders: 1 key, 2 tokens of a new bucket (limit-1), 3 now (µs),
// then the limit four times (cap and rate, in the SET and the WHERE).
const takePostgres = `INSERT INTO rate_buckets (key, tokens, updated_at) VALUES (?, ?, ?)
	ON CONFLICT (key) DO UPDATE SET
		tokens = LEAST(CAST(? AS DOUBLE PRECISION), rate_buckets.tokens + GREATEST(excluded.updated_at - rate_buckets.updated_at, 0) * CAST(? AS DOUBLE PRECISION) / 60000000.0) - 1,
		updated_at = GREATEST(rate_buckets.updated_at, excluded.updated_at)
	WHERE LEAST(CAST(? AS DOUBLE PRECISION), rate_buckets.tokens + GREATEST(excluded.updated_at - rate_buckets.updated_at, 0) * CAST(? AS DOUBLE PRECISION) / 60000000.0) >= 1
	RETURNING tokens`

// takeSQLite is takePostgres with SQLite's two-argument MIN and MAX.
const takeSQLite = `INSERT INTO rate_buckets (key, tokens, updated_at) VALUES (?, ?, ?)
	ON CONFLICT (key) DO UPDATE SET
		tokens = MIN(CAST(? AS REAL), rate_buckets.tokens + MAX(excluded.updated_at - rate_buckets.updated_at, 0) * CAST(? AS REAL) / 60000000.0) - 1,
		updated_at = MAX(rate_buckets.updated_at, excluded.updated_at)
	WHERE MIN(CAST(? AS REAL), rate_buckets.tokens + MAX(excluded.updated_at - rate_buckets.updated_at, 0) * CAST(? AS REAL) / 60000000.0) >= 1
	RETURNING tokens`

// Take spends one call of key's budget of limit calls a minute: a bucket
// of limit tokens refilled at limit/60 tokens a second.
func (l rateLimiter) Take(ctx context.Context, key string, limit int, now time.Time) (store.RateDecision, error) {
	if limit < 1 {
		return store.RateDecision{}, fmt.Errorf("rate limit must be at least 1 call a minute, not %d", limit)
	}
	db := l.db
	capacity := float64(limit)
	query := takeSQLite
	if db.dialect == Postgres {
		query = takePostgres
	}
	at := micros(now)
	var tokens float64
	err := db.write.QueryRowContext(ctx, db.q(query), key, capacity-1, at, capacity, capacity, capacity, capacity).Scan(&tokens)
	switch {
	case err == nil:
		return store.RateDecision{
			Allowed:   true,
			Remaining: int(math.Floor(tokens)),
			Reset:     untilTokens(capacity-tokens, capacity),
		}, nil
	case !errors.Is(err, sql.ErrNoRows):
		return store.RateDecision{}, err
	}
	// Denied. Read the bucket to say when a call will be available; this
	// read is not atomic with the upsert, but it only informs Retry-After.
	var stored float64
	var updated int64
	if err := db.read.QueryRowContext(ctx, db.q("SELECT tokens, updated_at FROM rate_buckets WHERE key = ?"), key).Scan(&stored, &updated); err != nil {
		return store.RateDecision{}, err
	}
	level := min(capacity, stored+float64(max(at-updated, 0))*capacity/perMinute)
	return store.RateDecision{
		Allowed:    false,
		Remaining:  0,
		RetryAfter: untilTokens(1-level, capacity),
		Reset:      untilTokens(capacity-level, capacity),
	}, nil
}

// untilTokens is how long the bucket takes to gain n tokens, rounded up
// to the microsecond so that waiting that long is enough. The slack keeps
// float noise (0.01 tokens computed as 0.010000000000000009) from adding
// a microsecond.
func untilTokens(n, limit float64) time.Duration {
	if n <= 0 {
		return 0
	}
	return time.Duration(math.Ceil(n*perMinute/limit-1e-6)) * time.Microsecond
}

// perMinute is a minute in µs, the unit of stored times.
const perMinute = 60_000_000.0
