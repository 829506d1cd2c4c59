package server

import (
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// maxFailureAddresses bounds the addresses whose failed keys are counted
// apart; beyond it, new addresses share one bucket (overflowAddress), so
// that a caller with many addresses cannot grow the map.
const maxFailureAddresses = 10_000

const overflowAddress = "*"

// reasonTooManyBadKeys is the reason of a 429 for an address whose calls
// presented too many keys that did not authenticate.
const reasonTooManyBadKeys = "too_many_bad_keys"

// failedKeys counts, per client address, the calls that present a key
// which does not authenticate (malformed, unknown, wrong, revoked,
// expired), in token buckets of the key's rate. Such calls are refused
// before any key is looked up once their address has spent its budget:
// looking up a key is a read of the database, the cheapest load anyone
// without a key could cause. Keys this instance knows already (the
// access cache) are not held up: a caller behind the same address with a
// key in use goes on (docs/server.md, "Security").
type failedKeys struct {
	mu      sync.Mutex
	buckets map[string]*store.Bucket
	max     int
	sweep   time.Time // when full buckets were last dropped
}

func newFailedKeys(max int) *failedKeys {
	return &failedKeys{buckets: map[string]*store.Bucket{}, max: max}
}

// spent reports whether addr has no failure left to spend now, and when
// it will have one.
func (f *failedKeys) spent(addr string, limit int, now time.Time) (bool, time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.buckets[f.slot(addr)]
	if !ok {
		return false, 0
	}
	b.Refill(limit, now)
	if b.Tokens >= 1 {
		return false, 0
	}
	return true, store.UntilTokens(1-b.Tokens, limit)
}

// fail spends one failure of addr's budget.
func (f *failedKeys) fail(addr string, limit int, now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	slot := f.slot(addr)
	if slot == overflowAddress && now.Sub(f.sweep) >= 10*time.Second {
		f.sweep = now
		f.forgetFull(limit, now)
		slot = f.slot(addr)
	}
	b, ok := f.buckets[slot]
	if !ok {
		b = store.NewBucket(limit, now)
		f.buckets[slot] = b
	}
	b.Take(limit, now)
}

// slot is the bucket addr counts in: its own, or the shared one when the
// map was full as it first failed.
func (f *failedKeys) slot(addr string) string {
	if _, ok := f.buckets[addr]; ok || len(f.buckets) < f.max {
		return addr
	}
	return overflowAddress
}

// forgetFull drops the buckets that have refilled completely.
func (f *failedKeys) forgetFull(limit int, now time.Time) {
	for k, b := range f.buckets {
		if b.Full(limit, now) {
			delete(f.buckets, k)
		}
	}
}

// clientAddress is what failed keys are counted by: the peer's IP
// address, an IPv6 one by its /64 (what one host is usually given).
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap()
	if ip.Is6() {
		if p, err := ip.Prefix(64); err == nil {
			return p.String()
		}
	}
	return ip.String()
}

// badKeysRefused is a call refused, before its key was looked up, for
// its address's failed keys.
type badKeysRefused struct{ wait time.Duration }

func (e *badKeysRefused) Error() string {
	return "too many keys that do not authenticate from this address"
}

// writeBadKeysRefused answers a badKeysRefused: 429 with Retry-After and
// the X-RateLimit-* headers of the address's budget.
func (s *Server) writeBadKeysRefused(w http.ResponseWriter, e *badKeysRefused) {
	secs := max(1, ceilSeconds(e.wait))
	h := w.Header()
	h.Set("Retry-After", strconv.Itoa(secs))
	h.Set(api.RateLimitLimitHeader, strconv.Itoa(s.rateLimit))
	h.Set(api.RateLimitRemainingHeader, "0")
	h.Set(api.RateLimitResetHeader, strconv.Itoa(secs))
	writeJSON(w, http.StatusTooManyRequests, &api.ErrorResponse{Code: api.CodeRateLimited,
		Params: map[string]any{"reason": reasonTooManyBadKeys, "retry_after": secs, "limit": s.rateLimit}})
}
