package client

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// backoff is the wait before retry n (0-based): exponential from 250 ms,
// capped at 4 s, with full jitter so that many clients hitting one failing
// server do not retry in lockstep.
func backoff(n int) time.Duration {
	d := 250 * time.Millisecond << min(n, 4)
	d = min(d, 4*time.Second)
	return d/2 + rand.N(d/2+1)
}

// retryAfter reads a 429's Retry-After (whole seconds, or an HTTP date).
// A missing or unreadable header waits one second, the contract's bucket
// refilling 10 calls a second.
func retryAfter(h http.Header) time.Duration {
	v := h.Get("Retry-After")
	if secs, err := strconv.Atoi(v); err == nil {
		return max(time.Duration(secs)*time.Second, time.Second)
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), time.Second)
	}
	return time.Second
}

// Sleep waits for d, or until ctx is done (then it returns ctx.Err()).
// Commands that pace or poll share it.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
