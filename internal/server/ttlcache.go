package server

import (
	"sync"
	"time"
)

// ttlCache keeps values for a fixed time on the server's clock, so that rows
// which change rarely (keys, users, seats) are read once per ttl per
// instance rather than once per call: a change made through any instance
// or by `dealctl admin` is seen by every instance within ttl. It holds at
// most max entries; when full it drops the expired ones, then, if still
// full, everything (a rebuild costs one read per entry).
type ttlCache[K comparable, V any] struct {
	ttl     time.Duration
	max     int
	now     func() time.Time // the server's clock (Config.Now)
	mu      sync.Mutex
	entries map[K]ttlEntry[V]
}

type ttlEntry[V any] struct {
	value   V
	expires time.Time
}

// newTTLCache makes a cache on the clock now; ttl ≤ 0 makes one that
// keeps nothing.
func newTTLCache[K comparable, V any](ttl time.Duration, max int, now func() time.Time) *ttlCache[K, V] {
	return &ttlCache[K, V]{ttl: ttl, max: max, now: now, entries: map[K]ttlEntry[V]{}}
}

func (c *ttlCache[K, V]) get(k K) (V, bool) {
	var zero V
	if c.ttl <= 0 {
		return zero, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok {
		return zero, false
	}
	if !c.now().Before(e.expires) {
		delete(c.entries, k)
		return zero, false
	}
	return e.value, true
}

func (c *ttlCache[K, V]) put(k K, v V) {
	if c.ttl <= 0 {
		return
	}
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= c.max {
		for k, e := range c.entries {
			if !now.Before(e.expires) {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= c.max {
			clear(c.entries)
		}
	}
	c.entries[k] = ttlEntry[V]{value: v, expires: now.Add(c.ttl)}
}
