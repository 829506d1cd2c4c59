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

// TestListCacheSweepsWhenNoCallComes: once something is kept, a sweep is
// armed that drops idle values without any call; it is armed again while
// values are left, and not once the cache is empty. (The timer's firing
// is not waited for: the test runs the sweep itself.)
func TestListCacheSweepsWhenNoCallComes(t *testing.T) {
	t.Parallel()
	now := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	c := newListCache[string](1000, time.Hour, func() time.Time { return now })
	if c.sweep != nil {
		t.Fatal("a sweep armed with nothing kept")
	}
	c.put("a", "a1", 100)
	c.put("b", "b1", 100)
	if c.sweep == nil {
		t.Fatal("no sweep armed once values are kept")
	}
	c.sweep.Stop()
	now = now.Add(30 * time.Minute)
	c.get("b")
	now = now.Add(40 * time.Minute) // a idle 70 minutes, b 40
	c.sweepIdle()
	if len(c.slots) != 1 || c.used != 100 || c.sweep == nil {
		t.Fatalf("after a sweep: %d values, %d bytes, armed %v; want b alone and the next sweep armed", len(c.slots), c.used, c.sweep != nil)
	}
	// The next sweep is due when b turns idle, an hour after its read
	// (20 minutes from now), not an hour from now.
	if want := now.Add(20 * time.Minute); !c.sweepAt.Equal(want) {
		t.Errorf("the next sweep is due at %s, want %s (b's last read and the idle time)", c.sweepAt, want)
	}
	c.sweep.Stop()
	now = now.Add(2 * time.Hour)
	c.sweepIdle()
	if len(c.slots) != 0 || c.used != 0 || c.sweep != nil {
		t.Fatalf("after the last sweep: %d values, %d bytes, armed %v; want nothing and no sweep", len(c.slots), c.used, c.sweep != nil)
	}
}

// TestListCacheGivesMemoryBackOnceSweepsDropEnough: memory goes back to
// the system (released), by a sweep, once idle values dropped (by sweeps
// or calls) come to an eighth of the budget, or the cache is empty; not
// for a sweep after less was dropped, nor for one after nothing was.
func TestListCacheGivesMemoryBackOnceSweepsDropEnough(t *testing.T) {
	t.Parallel()
	now := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	c := newListCache[string](1000, time.Minute, func() time.Time { return now })
	releases := 0
	c.released = func() { releases++ }
	sweep := func(wantReleases int) {
		t.Helper()
		if c.sweep != nil {
			c.sweep.Stop()
		}
		c.sweepIdle()
		if releases != wantReleases {
			t.Fatalf("%d releases, want %d (%d values, %d bytes kept)", releases, wantReleases, len(c.slots), c.used)
		}
	}
	c.put("a", "a", 60)
	c.put("b", "b", 60)
	c.put("c", "c", 60)
	c.put("d", "d", 300)
	now = now.Add(50 * time.Second)
	c.get("b")
	c.get("c")
	c.get("d")
	now = now.Add(20 * time.Second) // a idle: 60 bytes, under an eighth
	sweep(0)
	sweep(0) // nothing more dropped
	now = now.Add(30 * time.Second)
	c.get("d")
	now = now.Add(15 * time.Second)
	c.get("d")                     // b and c idle, dropped by the call: 180 bytes in all
	sweep(1)                       // given back by the sweep, not on the call
	now = now.Add(2 * time.Minute) // d idle: the cache empties
	sweep(2)
	if c.sweep != nil {
		t.Error("a sweep armed with nothing kept")
	}
}
