package store

import (
	"math"
	"time"
)

// The arithmetic of the rate limit's token buckets, written once: a
// bucket holds at most limit tokens and refills at limit a minute
// (docs/api.md, "Limits"). The server's in-memory limiter and its count of
// failed keys hold Buckets; the database's limiter keeps the level in
// rate_buckets (its upsert adds the refill in SQL, in the same order of
// operations) and sizes its leases with RefilledLevel and UntilTokens.

// RefilledLevel is a bucket's level elapsed after it held tokens, capped
// at limit. The refill is multiplied before it is divided, so that whole
// tokens come out exact (no 0.99999 after exactly a minute/limit).
func RefilledLevel(tokens float64, elapsed time.Duration, limit int) float64 {
	return min(float64(limit), tokens+float64(max(elapsed, 0))*float64(limit)/float64(time.Minute))
}

// UntilTokens is how long a bucket takes to gain n tokens, rounded up to
// the microsecond so that waiting that long is enough. The slack keeps
// float noise (0.01 tokens computed as 0.010000000000000009) from adding
// a microsecond.
func UntilTokens(n float64, limit int) time.Duration {
	if n <= 0 {
		return 0
	}
	const perMinute = float64(time.Minute / time.Microsecond)
	return time.Duration(math.Ceil(n*perMinute/float64(limit)-1e-6)) * time.Microsecond
}

// Bucket is one token bucket held in memory.
type Bucket struct {
	Tokens float64
	At     time.Time // when Tokens was last brought up to date
}

// NewBucket is a full bucket of limit tokens.
func NewBucket(limit int, now time.Time) *Bucket { return &Bucket{Tokens: float64(limit), At: now} }

// Refill adds the tokens earned since b.At (a clock read earlier by
// another call changes nothing).
func (b *Bucket) Refill(limit int, now time.Time) {
	if now.After(b.At) {
		b.Tokens, b.At = RefilledLevel(b.Tokens, now.Sub(b.At), limit), now
	}
}

// Full reports whether b holds limit tokens at now: it holds nothing a
// new bucket would not, so it may be forgotten.
func (b *Bucket) Full(limit int, now time.Time) bool {
	b.Refill(limit, now)
	return b.Tokens >= float64(limit)
}

// Take refills b and spends one token if there is one.
func (b *Bucket) Take(limit int, now time.Time) RateDecision {
	b.Refill(limit, now)
	d := RateDecision{}
	if b.Tokens >= 1 {
		b.Tokens--
		d.Allowed = true
	} else {
		d.RetryAfter = UntilTokens(1-b.Tokens, limit)
	}
	d.Remaining = int(b.Tokens)
	d.Reset = UntilTokens(float64(limit)-b.Tokens, limit)
	return d
}
