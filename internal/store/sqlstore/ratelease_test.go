package sqlstore

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/pgtest"
)

// countedLimiter is db's leased limiter with its database statements
// counted.
func countedLimiter(db *DB, statements *atomic.Int64) *leasedLimiter {
	return newLeasedLimiter(func(ctx context.Context, key string, limit, want int, now time.Time) (int, float64, error) {
		statements.Add(1)
		return db.takeTokens(ctx, key, limit, want, now)
	})
}

// testSharedMinute: two instances on one database, a key calling both
// far over its limit for a minute of the injected clock. Together they
// allow within ±10 % of what the bucket holds over that minute (a full
// bucket, then a minute of refill), and refused calls cost no statement.
func testSharedMinute(t *testing.T, a, b *DB) {
	var statements atomic.Int64
	instances := []*leasedLimiter{countedLimiter(a, &statements), countedLimiter(b, &statements)}
	const limit = 600
	const step = 10 * time.Millisecond // 100 calls a second, 10× the limit
	rng := rand.New(rand.NewPCG(1, 2))
	calls, allowed := 0, 0
	for at := time.Duration(0); at < time.Minute; at += step {
		l := instances[rng.IntN(len(instances))]
		d := take(t, l, "key-1", limit, rateT0.Add(at))
		calls++
		if d.Allowed {
			allowed++
		} else if d.RetryAfter <= 0 {
			t.Fatalf("denied with Retry-After %v", d.RetryAfter)
		}
	}
	const want = 2 * limit // a full bucket, then a minute of refill
	if allowed < want*9/10 || allowed > want*11/10 {
		t.Errorf("two instances allowed %d calls in a minute, want %d ± 10 %%", allowed, want)
	}
	// Refused calls are answered from memory: past the first burst, the
	// database sees about one lease per token refilled and instance.
	if n := statements.Load(); n > int64(2*allowed) {
		t.Errorf("%d database statements for %d calls (%d allowed); refused calls should cost none", n, calls, allowed)
	}
	t.Logf("%d calls, %d allowed (want %d), %d statements", calls, allowed, want, statements.Load())
}

// A steady key under its limit costs one statement per lease: with two
// instances sharing it, every call is allowed and leases stay small.
func testSharedUnderLimit(t *testing.T, a, b *DB) {
	var statements atomic.Int64
	instances := []*leasedLimiter{countedLimiter(a, &statements), countedLimiter(b, &statements)}
	const limit = 600
	calls := 0
	for at := time.Duration(0); at < time.Minute; at += 125 * time.Millisecond { // 8 a second
		if d := take(t, instances[calls%2], "key-1", limit, rateT0.Add(at)); !d.Allowed {
			t.Fatalf("call %d at %v under the limit refused: %+v", calls, at, d)
		}
		calls++
	}
	if n := statements.Load(); n > int64(calls/3) {
		t.Errorf("%d database statements for %d calls", n, calls)
	}
	t.Logf("%d calls, %d statements", calls, statements.Load())
}

func TestSQLiteRateLimiterSharedMinute(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "dealctl.db")
	t.Run("OverLimit", func(t *testing.T) { testSharedMinute(t, openSQLitePath(t, path), openSQLitePath(t, path)) })
	path2 := filepath.Join(t.TempDir(), "dealctl.db")
	t.Run("UnderLimit", func(t *testing.T) { testSharedUnderLimit(t, openSQLitePath(t, path2), openSQLitePath(t, path2)) })
}

func TestPostgresRateLimiterSharedMinute(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	t.Run("OverLimit", func(t *testing.T) { testSharedMinute(t, openPostgresURL(t, url), openPostgresURL(t, url)) })
	url2 := pgtest.URL(t)
	t.Run("UnderLimit", func(t *testing.T) { testSharedUnderLimit(t, openPostgresURL(t, url2), openPostgresURL(t, url2)) })
}
