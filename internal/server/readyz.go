package server

import (
	"context"
	"sync"
	"time"
)

// storeCheckTTL is how long /readyz trusts the object store's last
// answer. /readyz needs no key, so without it every probe, a load
// balancer's or anyone's, would be a call to the store (a cost, and at
// S3 a charge).
const storeCheckTTL = 5 * time.Second

// storeCheck remembers the object store's last answer to Check, good or
// bad, for storeCheckTTL on the server's clock. Probes that arrive while
// a check runs wait for it and share its answer.
type storeCheck struct {
	mu  sync.Mutex
	at  time.Time // when err was learnt; zero: never
	err error
}

func (c *storeCheck) check(ctx context.Context, objects ObjectStore, now func() time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && now().Sub(c.at) < storeCheckTTL {
		return c.err
	}
	c.err = objects.Check(ctx)
	c.at = now()
	return c.err
}
