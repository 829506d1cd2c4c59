package tui

import (
	"net/http"
	"sync/atomic"

	"github.com/dealctl/dealctl/internal/client"
)

// RateMeter remembers the rate budget the server last reported in
// X-RateLimit-Remaining and X-RateLimit-Limit (an extension of this
// project's server: other servers may send neither, and then nothing is
// shown). Observe is given to client.WithResponseObserver; it runs on the
// client's goroutines, so the numbers are atomics.
type RateMeter struct {
	remaining, limit atomic.Int64
	seen             atomic.Bool
}

// Observe records the budget an answer reports.
func (r *RateMeter) Observe(resp *http.Response) {
	b := client.RateBudgetOf(resp.Header)
	if b.Remaining < 0 {
		return
	}
	r.remaining.Store(int64(b.Remaining))
	if b.Limit >= 0 {
		r.limit.Store(int64(b.Limit))
	}
	r.seen.Store(true)
}

// Budget is the calls left and the limit; ok is false until an answer
// carried them.
func (r *RateMeter) Budget() (remaining, limit int64, ok bool) {
	if r == nil || !r.seen.Load() {
		return 0, 0, false
	}
	return r.remaining.Load(), r.limit.Load(), true
}
