package cli

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/dealctl/dealctl/internal/client"
)

// pacer keeps a burst of writes under the server's rate limit (a bucket
// of X-RateLimit-Limit calls a minute: docs/api.md#limits). While the answers say
// plenty remains, calls go at full speed; once X-RateLimit-Remaining comes
// down to what the workers in flight could spend, calls are spaced at the
// bucket's refill rate, so that the bucket hovers near empty instead of
// running dry into 429s. A server that sends no such headers is not paced
// here; the client still honours Retry-After on a 429.
type pacer struct {
	mu        sync.Mutex
	reserve   int           // calls kept in hand for the workers in flight
	remaining int           // last X-RateLimit-Remaining seen; -1 unknown
	interval  time.Duration // one call's worth of refill
	inflight  int
	next      time.Time // the earliest start of the next paced call
	now       func() time.Time
	sleep     func(ctx context.Context, d time.Duration) error
}

func newPacer(workers int) *pacer {
	return &pacer{reserve: workers + 2, remaining: -1, interval: 100 * time.Millisecond, now: time.Now, sleep: client.Sleep}
}

// wait blocks until a call may start.
func (p *pacer) wait(ctx context.Context) error {
	p.mu.Lock()
	if p.remaining < 0 || p.remaining-p.inflight > p.reserve {
		p.inflight++
		p.mu.Unlock()
		return nil
	}
	now := p.now()
	start := p.next
	if start.Before(now) {
		start = now
	}
	p.next = start.Add(p.interval)
	p.inflight++
	p.mu.Unlock()
	if d := start.Sub(now); d > 0 {
		if err := p.sleep(ctx, d); err != nil {
			p.done(nil)
			return err
		}
	}
	return nil
}

// done records a call's answer headers (nil when there was no answer).
func (p *pacer) done(h http.Header) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inflight--
	p.observeLocked(h)
}

// observe reads the rate-limit headers of an answer made outside wait.
func (p *pacer) observe(h http.Header) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.observeLocked(h)
}

func (p *pacer) observeLocked(h http.Header) {
	if h == nil {
		return
	}
	b := client.RateBudgetOf(h)
	if b.Remaining >= 0 {
		p.remaining = b.Remaining
	}
	if b.Limit > 0 {
		p.interval = time.Minute / time.Duration(b.Limit)
	}
}
