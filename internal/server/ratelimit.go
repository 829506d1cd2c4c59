package server

import (
	"context"
	"sync"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// memoryLimiter is a token bucket per key held in this process: `limit`
// tokens, refilled at limit/60 a second. Right for one instance; several
// instances share the database's limiter instead.
type memoryLimiter struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	sweep   time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newMemoryLimiter() *memoryLimiter {
	return &memoryLimiter{buckets: map[string]*bucket{}}
}

// Take spends one token of key's bucket.
func (m *memoryLimiter) Take(_ context.Context, key string, limit int, now time.Time) (store.RateDecision, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.forgetFull(now, limit)
	b, ok := m.buckets[key]
	if !ok {
		b = &bucket{tokens: float64(limit), at: now}
		m.buckets[key] = b
	}
	return b.take(limit, now), nil
}

// forgetFull drops, at most once a minute, buckets that have refilled
// completely: they hold nothing a new bucket would not.
func (m *memoryLimiter) forgetFull(now time.Time, limit int) {
	if now.Sub(m.sweep) < time.Minute {
		return
	}
	m.sweep = now
	for k, b := range m.buckets {
		if b.tokens+now.Sub(b.at).Seconds()*float64(limit)/60 >= float64(limit) {
			delete(m.buckets, k)
		}
	}
}

// take is the bucket's arithmetic: refill for the time since b.at, then
// spend one token if there is one. (The database's limiter does the same
// in one SQL statement, sqlstore.rateLimiter.)
func (b *bucket) take(limit int, now time.Time) store.RateDecision {
	rate := b.refill(limit, now)
	d := store.RateDecision{}
	if b.tokens >= 1 {
		b.tokens--
		d.Allowed = true
	} else {
		d.RetryAfter = time.Duration((1 - b.tokens) / rate * float64(time.Second))
	}
	d.Remaining = int(b.tokens)
	d.Reset = time.Duration((float64(limit) - b.tokens) / rate * float64(time.Second))
	return d
}

// refill adds the tokens earned since b.at, up to limit, and returns the
// rate in tokens a second.
func (b *bucket) refill(limit int, now time.Time) float64 {
	rate := float64(limit) / 60
	if elapsed := now.Sub(b.at).Seconds(); elapsed > 0 {
		b.tokens = min(float64(limit), b.tokens+elapsed*rate)
		b.at = now
	}
	return rate
}
