package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// takePostgres spends `want` tokens in a single statement. The bucket is
// refilled lazily from the time elapsed since its last spend, capped at
// limit; the DO UPDATE runs only when `want` whole tokens are there, so a
// refused lease changes nothing (the partial refill is kept) and returns
// no row. One statement makes it atomic on both dialects: PostgreSQL
// locks the row for the upsert, SQLite runs it alone on the write
// connection.
//
// The refill is elapsed µs × limit / 60e6, multiplied before dividing so
// that whole tokens come out exact (no 0.99999 after exactly 60s/limit).
// Placeholders: 1 key, 2 tokens of a new bucket (limit-want), 3 now (µs),
// then limit, limit, want (the SET), limit, limit, want (the WHERE).
const takePostgres = `INSERT INTO rate_buckets (key, tokens, updated_at) VALUES (?, ?, ?)
	ON CONFLICT (key) DO UPDATE SET
		tokens = LEAST(CAST(? AS DOUBLE PRECISION), rate_buckets.tokens + GREATEST(excluded.updated_at - rate_buckets.updated_at, 0) * CAST(? AS DOUBLE PRECISION) / 60000000.0) - CAST(? AS DOUBLE PRECISION),
		updated_at = GREATEST(rate_buckets.updated_at, excluded.updated_at)
	WHERE LEAST(CAST(? AS DOUBLE PRECISION), rate_buckets.tokens + GREATEST(excluded.updated_at - rate_buckets.updated_at, 0) * CAST(? AS DOUBLE PRECISION) / 60000000.0) >= CAST(? AS DOUBLE PRECISION)
	RETURNING tokens`

// takeSQLite is takePostgres with SQLite's two-argument MIN and MAX.
const takeSQLite = `INSERT INTO rate_buckets (key, tokens, updated_at) VALUES (?, ?, ?)
	ON CONFLICT (key) DO UPDATE SET
		tokens = MIN(CAST(? AS REAL), rate_buckets.tokens + MAX(excluded.updated_at - rate_buckets.updated_at, 0) * CAST(? AS REAL) / 60000000.0) - CAST(? AS REAL),
		updated_at = MAX(rate_buckets.updated_at, excluded.updated_at)
	WHERE MIN(CAST(? AS REAL), rate_buckets.tokens + MAX(excluded.updated_at - rate_buckets.updated_at, 0) * CAST(? AS REAL) / 60000000.0) >= CAST(? AS REAL)
	RETURNING tokens`

// takeTokens takes `want` tokens (1 ≤ want ≤ limit) from key's shared
// bucket of limit tokens refilled at limit/60 a second, all or nothing.
// It returns the tokens granted (want or 0) and the bucket's level after
// the grant, or, when refused, its level now.
func (db *DB) takeTokens(ctx context.Context, key string, limit, want int, now time.Time) (int, float64, error) {
	if limit < 1 {
		return 0, 0, fmt.Errorf("rate limit must be at least 1 call a minute, not %d", limit)
	}
	capacity, w := float64(limit), float64(want)
	query := takeSQLite
	if db.dialect == Postgres {
		query = takePostgres
	}
	at := micros(now)
	var tokens float64
	err := db.write.QueryRowContext(ctx, db.q(query), key, capacity-w, at, capacity, capacity, w, capacity, capacity, w).Scan(&tokens)
	switch {
	case err == nil:
		return want, tokens, nil
	case !errors.Is(err, sql.ErrNoRows):
		return 0, 0, err
	}
	// Refused. Read the bucket to say how much there is; this read is
	// not atomic with the upsert, so the caller treats it as a hint. It
	// runs as the API's other reads do (prepared once, on SQLite), since
	// a key over its limit may keep calling.
	var stored float64
	var updated int64
	if err := db.reads.QueryRowContext(ctx, db.q("SELECT tokens, updated_at FROM rate_buckets WHERE key = ?"), key).Scan(&stored, &updated); err != nil {
		return 0, 0, err
	}
	return 0, store.RefilledLevel(stored, time.Duration(at-updated)*time.Microsecond, limit), nil
}
