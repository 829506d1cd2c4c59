package store

import (
	"testing"
	"time"
)

// TestBucketRefillsAtLimitAMinute: the one bucket arithmetic the server's
// limiters and the database's leases share.
func TestBucketRefillsAtLimitAMinute(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	b := NewBucket(60, t0)
	for i := 0; i < 60; i++ {
		if d := b.Take(60, t0); !d.Allowed {
			t.Fatalf("call %d of a full bucket of 60 refused", i+1)
		}
	}
	d := b.Take(60, t0)
	if d.Allowed || d.RetryAfter != time.Second || d.Reset != time.Minute {
		t.Errorf("the 61st call: %+v; want refused, retry after 1s, full after 1m", d)
	}
	if d := b.Take(60, t0.Add(time.Second)); !d.Allowed || d.Remaining != 0 {
		t.Errorf("a second later: %+v; want one call allowed, none left", d)
	}
	if b.Full(60, t0.Add(30*time.Second)) || !b.Full(60, t0.Add(61*time.Second)) {
		t.Errorf("Full: the bucket refills in a minute from empty")
	}
	if got := RefilledLevel(0, 7*time.Minute/60, 60); got != 7 {
		t.Errorf("RefilledLevel after exactly 7 tokens' time = %v, want 7 exactly", got)
	}
	if got := UntilTokens(0.01, 600); got != time.Millisecond {
		t.Errorf("UntilTokens(0.01, 600) = %v, want 1ms (no microsecond of float noise)", got)
	}
}
