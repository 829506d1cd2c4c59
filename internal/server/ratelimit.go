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
	buckets map[string]*store.Bucket // the arithmetic is store.Bucket's, shared with the database's limiter
	sweep   time.Time
}

func newMemoryLimiter() *memoryLimiter {
	return &memoryLimiter{buckets: map[string]*store.Bucket{}}
}

// Take spends one token of key's bucket.
func (m *memoryLimiter) Take(_ context.Context, key string, limit int, now time.Time) (store.RateDecision, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.forgetFull(now, limit)
	b, ok := m.buckets[key]
	if !ok {
		b = store.NewBucket(limit, now)
		m.buckets[key] = b
	}
	return b.Take(limit, now), nil
}

// forgetFull drops, at most once a minute, buckets that have refilled
// completely: they hold nothing a new bucket would not.
func (m *memoryLimiter) forgetFull(now time.Time, limit int) {
	if now.Sub(m.sweep) < time.Minute {
		return
	}
	m.sweep = now
	for k, b := range m.buckets {
		if b.Full(limit, now) {
			delete(m.buckets, k)
		}
	}
}
