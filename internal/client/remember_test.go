package client

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestRememberedDeals(t *testing.T) {
	ls := startLive(t)
	c, err := New(Options{BaseURL: ls.URL, Key: aliceKey, Cache: NewCache(t.TempDir())})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.RememberedDeals(); ok {
		t.Fatal("deals remembered before any was read")
	}
	deals, err := c.Deals(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Deal(context.Background(), deals[0].ID); err != nil {
		t.Fatal(err)
	}
	ls.reset()
	got, ok := c.RememberedDeals()
	if !ok || len(got) != 1 || got[0].ID != deals[0].ID || got[0].Codename != "Falcon" {
		t.Fatalf("RememberedDeals = %+v, %v", got, ok)
	}
	if d, ok := c.RememberedDeal(deals[0].ID); !ok || d.Codename != "Falcon" {
		t.Fatalf("RememberedDeal = %+v, %v", d, ok)
	}
	if calls := ls.recorded(); len(calls) != 0 {
		t.Errorf("remembering made calls %v", methods(calls))
	}

	// Past DealMemory a list of deals is not trusted; a deal by id still is.
	old := time.Now().Add(-DealMemory - time.Minute)
	for _, path := range []string{"/deals", dealPath(deals[0].ID)} {
		if err := os.Chtimes(c.cache.path(c.memoryKey(path)), old, old); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := c.RememberedDeals(); ok {
		t.Error("a /deals answer older than DealMemory is still trusted")
	}
	if _, ok := c.RememberedDeal(deals[0].ID); !ok {
		t.Error("a deal by id is forgotten with age")
	}
	// Another key remembers nothing of this one's.
	other, err := New(Options{BaseURL: ls.URL, Key: bobKey, Cache: c.cache})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := other.RememberedDeal(deals[0].ID); ok {
		t.Error("a deal remembered for one key is given to another")
	}
}
