package sqlstore

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// RateLimiter returns a limiter whose buckets live in the database, so
// that every server instance on one database spends from the same budget
// (the limit is shared by every instance).
//
// A call does not write to the database. Each instance leases tokens from
// the shared bucket, a few at a time, and spends them in memory: a key
// calling steadily costs one write per lease, not one per call. The lease
// starts at one token and is sized to last about a second at the rate the
// last one was spent (at most doubling each time), up to limit/50 (at
// most 1,000); it stays at one token while the shared bucket is nearly
// empty; an emptied bucket or a refused lease is remembered until the
// shared bucket holds a token again, so a key over its limit is refused
// without a round trip. Tokens are only ever taken from the shared bucket,
// so instances together never allow more than it holds; what an instance
// has leased and not spent (at most one lease per key) is unavailable to
// the others, and is lost if that instance dies; the bucket refills it
// within limit/50 calls' worth of time. docs/server.md, "Rate limit
// across instances", has the figures.
func (db *DB) RateLimiter() store.RateLimiter { return newLeasedLimiter(db.takeTokens) }

// takeFunc takes want tokens from the shared bucket, all or nothing, and
// returns the tokens granted and the bucket's level after it.
type takeFunc func(ctx context.Context, key string, limit, want int, now time.Time) (int, float64, error)

type leasedLimiter struct {
	take  takeFunc
	mu    sync.Mutex
	keys  map[string]*lease
	sweep time.Time
}

// lease is one key's tokens held by this instance.
type lease struct {
	tokens      int       // leased and not yet spent
	level       float64   // the shared bucket's level at leasedAt
	leasedAt    time.Time // when the last lease was taken or refused
	want        int       // the size of the last lease asked for
	deniedUntil time.Time // the shared bucket is empty until then
	inflight    chan struct{}
	waiting     int // calls waiting for the lease in flight
}

// leaseWindow is how long a lease is sized to last.
const leaseWindow = time.Second

func newLeasedLimiter(take takeFunc) *leasedLimiter {
	return &leasedLimiter{take: take, keys: map[string]*lease{}}
}

// maxLease keeps what one instance can hold back from the others to 2 %
// of the limit.
func maxLease(limit int) int { return min(max(1, limit/50), 1000) }

// Take spends one call of key's budget of limit calls a minute.
func (l *leasedLimiter) Take(ctx context.Context, key string, limit int, now time.Time) (store.RateDecision, error) {
	if limit < 1 {
		return store.RateDecision{}, fmt.Errorf("rate limit must be at least 1 call a minute, not %d", limit)
	}
	l.mu.Lock()
	l.forgetIdle(now)
	ls := l.keys[key]
	if ls == nil {
		ls = &lease{}
		l.keys[key] = ls
	}
	// One lease in flight per key: calls that find no token wait for it
	// rather than each asking the database.
	for {
		if ls.tokens > 0 {
			ls.tokens--
			d := ls.allowed(limit, now)
			l.mu.Unlock()
			return d, nil
		}
		if now.Before(ls.deniedUntil) {
			d := ls.denied(limit, now)
			l.mu.Unlock()
			return d, nil
		}
		if ls.inflight == nil {
			break
		}
		ch := ls.inflight
		ls.waiting++
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			l.mu.Lock()
			ls.waiting--
			l.mu.Unlock()
			return store.RateDecision{}, ctx.Err()
		}
		l.mu.Lock()
		ls.waiting--
	}
	ls.want = min(max(ls.nextLease(now), ls.waiting+1), maxLease(limit))
	want := ls.want
	done := make(chan struct{})
	ls.inflight = done
	l.mu.Unlock()

	granted, level, err := l.take(ctx, key, limit, want, now)
	if err == nil && granted == 0 && level >= 1 {
		// Less than a whole lease is left: take what there is.
		granted, level, err = l.take(ctx, key, limit, min(want, int(level)), now)
	}

	l.mu.Lock()
	defer l.mu.Unlock()
	ls.inflight = nil
	close(done)
	if err != nil {
		return store.RateDecision{}, err
	}
	ls.level, ls.leasedAt = level, now
	if granted == 0 {
		ls.want = 1
		// At least a microsecond: the database's arithmetic can refuse a
		// level that reads back as 1 give or take float noise.
		ls.deniedUntil = now.Add(max(store.UntilTokens(1-level, limit), time.Microsecond))
		return ls.denied(limit, now), nil
	}
	ls.tokens += granted - 1
	if level < 1 {
		// The shared bucket is empty: no call need ask before it refills.
		ls.deniedUntil = now.Add(store.UntilTokens(1-level, limit))
	}
	return ls.allowed(limit, now), nil
}

// nextLease sizes a lease to last about leaseWindow at the rate the last
// one was spent, at most doubling; one token while the shared bucket is
// nearly empty, so that what is left is shared call by call.
func (ls *lease) nextLease(now time.Time) int {
	if ls.level < 1 || ls.want < 1 {
		return 1
	}
	spent := now.Sub(ls.leasedAt)
	if spent <= 0 {
		return 2 * ls.want
	}
	perWindow := math.Ceil(float64(ls.want) * float64(leaseWindow) / float64(spent))
	return int(min(float64(2*ls.want), perWindow))
}

// levelAt is the shared bucket's level at now as this instance last saw
// it, refilled since: exact while no other instance spends from it.
func (ls *lease) levelAt(limit int, now time.Time) float64 {
	return store.RefilledLevel(ls.level, now.Sub(ls.leasedAt), limit)
}

func (ls *lease) allowed(limit int, now time.Time) store.RateDecision {
	have := ls.levelAt(limit, now) + float64(ls.tokens)
	return store.RateDecision{
		Allowed:   true,
		Remaining: min(limit, ls.tokens+int(math.Floor(ls.levelAt(limit, now)))),
		Reset:     store.UntilTokens(float64(limit)-have, limit),
	}
}

func (ls *lease) denied(limit int, now time.Time) store.RateDecision {
	return store.RateDecision{
		RetryAfter: ls.deniedUntil.Sub(now),
		Reset:      store.UntilTokens(float64(limit)-ls.levelAt(limit, now), limit),
	}
}

// forgetIdle drops, at most once a minute, keys that hold nothing and
// have not leased for a minute.
func (l *leasedLimiter) forgetIdle(now time.Time) {
	if now.Sub(l.sweep) < time.Minute {
		return
	}
	l.sweep = now
	for k, ls := range l.keys {
		if ls.tokens == 0 && ls.inflight == nil && ls.waiting == 0 && now.Sub(ls.leasedAt) > time.Minute && !now.Before(ls.deniedUntil) {
			delete(l.keys, k)
		}
	}
}
