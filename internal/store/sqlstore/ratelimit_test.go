package sqlstore

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

var rateT0 = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)

func take(t *testing.T, l store.RateLimiter, key string, limit int, now time.Time) store.RateDecision {
	t.Helper()
	d, err := l.Take(context.Background(), key, limit, now)
	if err != nil {
		t.Fatalf("Take(%s, %d, %v): %v", key, limit, now, err)
	}
	return d
}

// testRateLimiter runs the limiter checks on a store opened by open.
func testRateLimiter(t *testing.T, open func(t *testing.T) *DB) {
	t.Run("BurstThenDenied", func(t *testing.T) {
		l := open(t).RateLimiter()
		const limit = 30
		for i := range limit {
			d := take(t, l, "k", limit, rateT0)
			if !d.Allowed || d.Remaining != limit-1-i {
				t.Fatalf("call %d of the burst: %+v, want allowed with %d remaining", i+1, d, limit-1-i)
			}
		}
		d := take(t, l, "k", limit, rateT0)
		if d.Allowed || d.Remaining != 0 {
			t.Fatalf("call past the burst: %+v, want denied", d)
		}
		// One token comes back every 60s/limit = 2s.
		if want := time.Minute / limit; d.RetryAfter != want {
			t.Errorf("RetryAfter = %v, want %v", d.RetryAfter, want)
		}
		if d.Reset != time.Minute {
			t.Errorf("Reset = %v, want a minute to refill the whole bucket", d.Reset)
		}
		// Denied calls cost nothing: another key is untouched, and the
		// refill is not set back by hammering.
		for range 5 {
			take(t, l, "k", limit, rateT0.Add(time.Second))
		}
		if d := take(t, l, "other", limit, rateT0); !d.Allowed || d.Remaining != limit-1 {
			t.Errorf("a second key: %+v, want its own full bucket", d)
		}
		if d := take(t, l, "k", limit, rateT0.Add(2*time.Second)); !d.Allowed || d.Remaining != 0 {
			t.Errorf("after 60s/limit despite denied calls meanwhile: %+v, want one call allowed", d)
		}
	})
	t.Run("Refill", func(t *testing.T) {
		l := open(t).RateLimiter()
		const limit = 600 // 10 a second
		for range limit {
			take(t, l, "k", limit, rateT0)
		}
		if d := take(t, l, "k", limit, rateT0.Add(99*time.Millisecond)); d.Allowed {
			t.Errorf("before a token is back: %+v", d)
		} else if d.RetryAfter != time.Millisecond {
			t.Errorf("RetryAfter at 99ms = %v, want 1ms", d.RetryAfter)
		}
		if d := take(t, l, "k", limit, rateT0.Add(100*time.Millisecond)); !d.Allowed {
			t.Errorf("at exactly 60s/limit: %+v, want allowed", d)
		}
		// Half a minute refills half the bucket; it never exceeds limit.
		allowed := 0
		for take(t, l, "k", limit, rateT0.Add(30100*time.Millisecond)).Allowed {
			allowed++
		}
		if allowed != 300 {
			t.Errorf("after 30s: %d calls allowed, want 300", allowed)
		}
		allowed = 0
		for take(t, l, "k", limit, rateT0.Add(time.Hour)).Allowed {
			allowed++
		}
		if allowed != limit {
			t.Errorf("after an hour idle: %d calls allowed, want the cap %d", allowed, limit)
		}
		// A clock behind the bucket's (another instance's skew) does not
		// refill or break anything.
		if d := take(t, l, "k", limit, rateT0); d.Allowed {
			t.Errorf("an earlier clock refilled the bucket: %+v", d)
		}
	})
	t.Run("Concurrent", func(t *testing.T) {
		l := open(t).RateLimiter()
		const limit, callers = 40, 100
		var wg sync.WaitGroup
		results := make(chan bool, callers)
		for range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d, err := l.Take(context.Background(), "shared", limit, rateT0)
				if err != nil {
					t.Error(err)
				}
				results <- d.Allowed
			}()
		}
		wg.Wait()
		close(results)
		allowed := 0
		for ok := range results {
			if ok {
				allowed++
			}
		}
		if allowed != limit {
			t.Errorf("%d simultaneous calls: %d allowed, want exactly %d", callers, allowed, limit)
		}
	})
	t.Run("BadLimit", func(t *testing.T) {
		if _, err := open(t).RateLimiter().Take(context.Background(), "k", 0, rateT0); err == nil {
			t.Error("Take with limit 0 succeeded")
		}
	})
}

func TestSQLiteRateLimiter(t *testing.T) { testRateLimiter(t, openSQLiteTest) }
