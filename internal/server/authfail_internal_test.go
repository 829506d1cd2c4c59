package server

import (
	"net/http/httptest"
	"testing"
	"time"
)

// The map of addresses is bounded: once full, new addresses share one
// bucket, and buckets that have refilled make room again.
func TestFailedKeysMapIsBounded(t *testing.T) {
	f := newFailedKeys(2)
	now := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	for _, a := range []string{"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5"} {
		f.fail(a, 2, now)
	}
	if len(f.buckets) != 3 {
		t.Errorf("%d buckets after 5 addresses with room for 2, want 2 and the shared one", len(f.buckets))
	}
	// 10.0.0.3, .4 and .5 share one bucket of 2: it is spent.
	if spent, _ := f.spent("10.0.0.9", 2, now); !spent {
		t.Error("a new address is not counted in the shared bucket")
	}
	if spent, _ := f.spent("10.0.0.1", 2, now); spent {
		t.Error("10.0.0.1, with one failure of 2, counts as spent")
	}
	// A minute on, every bucket is full again and is dropped.
	now = now.Add(time.Minute)
	f.fail("10.0.0.6", 2, now)
	if _, ok := f.buckets["10.0.0.6"]; !ok || len(f.buckets) != 1 {
		t.Errorf("after the buckets refilled: %d buckets, want only 10.0.0.6's", len(f.buckets))
	}
}

func TestClientAddress(t *testing.T) {
	for remote, want := range map[string]string{
		"192.0.2.7:5123":             "192.0.2.7",
		"[2001:db8:1:2:3:4:5:6]:443": "2001:db8:1:2::/64",
		"[::ffff:192.0.2.7]:80":      "192.0.2.7",
		"not an address":             "not an address",
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = remote
		if got := clientAddress(r); got != want {
			t.Errorf("clientAddress(%q) = %q, want %q", remote, got, want)
		}
	}
}
