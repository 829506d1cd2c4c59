package server

import (
	"testing"
	"time"
)

// TestListCacheAccounting: what the list cache counts follows what it
// holds: bytes of the values kept, never above the budget, the least
// recently read going first; a value replaced by its slot's newer one is
// no longer counted; values no call read for the idle time are dropped,
// so the cache falls back to nothing when the deals go quiet.
func TestListCacheAccounting(t *testing.T) {
	t.Parallel()
	now := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	c := newListCache[string](1000, time.Minute, func() time.Time { return now })
	usage := func(wantValues, wantBytes int) {
		t.Helper()
		if n, b := c.usage(); n != wantValues || b != wantBytes {
			t.Fatalf("usage: %d values, %d bytes; want %d and %d", n, b, wantValues, wantBytes)
		}
	}
	c.put("a", "a1", 300)
	c.put("b", "b1", 300)
	c.put("c", "c1", 300)
	usage(3, 900)
	c.put("a", "a2", 400) // a's newer value replaces its older one
	usage(3, 1000)
	if c.get("b") != "b1" { // b read: c is now the least recently read
		t.Fatal("b is not kept")
	}
	c.put("d", "d1", 300)
	usage(3, 1000)
	if c.get("c") != "" {
		t.Error("the least recently read value was kept over the budget")
	}
	c.put("e", "e1", 501) // over half the budget: not kept
	if c.get("e") != "" {
		t.Error("a value over half the budget was kept")
	}
	usage(3, 1000)

	now = now.Add(40 * time.Second)
	c.get("d") // d is read; a and b go quiet
	now = now.Add(40 * time.Second)
	usage(1, 300)
	if c.get("d") != "d1" {
		t.Error("a value read within the idle time was dropped")
	}
	now = now.Add(2 * time.Minute)
	usage(0, 0)
}
