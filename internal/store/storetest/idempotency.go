package storetest

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// testIdempotency: a claim is held by one caller; while it runs others see
// Status 0; once saved they see the answer; a released claim can be taken
// again; expired answers and stale claims no longer count.
func testIdempotency(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	day, minute := 24*time.Hour, time.Minute
	reserve := func(key string, at time.Time, path string) (store.SavedResponse, bool) {
		t.Helper()
		kept, ok, err := s.ReserveResponse(ctx, "key-1", key, store.SavedResponse{Method: "POST", Path: path, CreatedAt: at}, at.Add(-day), at.Add(-minute))
		must(t, err)
		return kept, ok
	}
	if _, ok := reserve("a", t0, "/x"); !ok {
		t.Fatal("the first claim was not granted")
	}
	if kept, ok := reserve("a", t0.Add(time.Second), "/x"); ok || kept.Status != 0 || kept.Path != "/x" {
		t.Fatalf("a second claim while the first runs = %+v, %v; want the running claim", kept, ok)
	}
	if _, ok, err := s.ReserveResponse(ctx, "key-2", "a", store.SavedResponse{Method: "POST", Path: "/x", CreatedAt: t0}, t0.Add(-day), t0.Add(-minute)); err != nil || !ok {
		t.Fatalf("another API key's claim with the same idempotency key: %v, %v", ok, err)
	}
	answer := store.SavedResponse{Method: "POST", Path: "/x", Status: 201, Body: []byte(`{"id":"1"}`), CreatedAt: t0}
	must(t, s.SaveResponse(ctx, "key-1", "a", answer))
	if kept, ok := reserve("a", t0.Add(time.Hour), "/x"); ok || kept.Status != 201 || !bytes.Equal(kept.Body, answer.Body) {
		t.Fatalf("after saving: %+v, %v; want the saved answer", kept, ok)
	}
	if _, ok := reserve("a", t0.Add(day+time.Second), "/x"); !ok {
		t.Fatal("an answer older than a day still holds its key")
	}

	if _, ok := reserve("b", t0, "/y"); !ok {
		t.Fatal("claim b")
	}
	must(t, s.ReleaseResponse(ctx, "key-1", "b"))
	if _, ok := reserve("b", t0.Add(time.Second), "/y"); !ok {
		t.Fatal("a released claim was not granted again")
	}
	if _, ok := reserve("b", t0.Add(2*minute), "/y"); !ok {
		t.Fatal("a claim left running past the stale limit still holds its key")
	}

	// Racing claims: exactly one wins.
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ok, err := s.ReserveResponse(ctx, "key-1", "race", store.SavedResponse{Method: "POST", Path: "/z", CreatedAt: t0}, t0.Add(-day), t0.Add(-minute))
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d of 20 racing claims were granted, want 1", wins)
	}
}
