package storetest

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
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

// testIdempotencyClaims: a create run under a claim (store.WithClaim)
// records what it wrote on the claim in its own transaction, so the key
// then holds a committed write that neither a stale limit nor a release
// drops; a create whose claim is no longer held writes nothing.
func testIdempotencyClaims(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	day, minute := 24*time.Hour, time.Minute
	reserve := func(key string, at time.Time) (store.SavedResponse, bool) {
		t.Helper()
		kept, ok, err := s.ReserveResponse(ctx, "key-1", key, store.SavedResponse{Method: "POST", Path: "/p", Fingerprint: "f1", CreatedAt: at}, at.Add(-day), at.Add(-minute))
		must(t, err)
		return kept, ok
	}
	if _, ok := reserve("create", t0); !ok {
		t.Fatal("claim not granted")
	}
	claimed := store.WithClaim(ctx, &store.Claim{KeyID: "key-1", IdemKey: "create", CreatedAt: t0})
	created := mustGet[store.Request](t)(s.CreateRequest(claimed, w.row("", &w.sec1, api.KindRequest, "", "Under a claim")))
	// No answer was saved (the server "died"): long past the stale limit
	// the key still holds the write, with its fingerprint.
	kept, ok := reserve("create", t0.Add(time.Hour))
	if ok || kept.ResourceID != created.ID || kept.Status != 0 || kept.Fingerprint != "f1" {
		t.Fatalf("after a committed create: %+v, %v; want the write's id %s kept", kept, ok, created.ID)
	}
	must(t, s.ReleaseResponse(ctx, "key-1", "create"))
	if kept, ok := reserve("create", t0.Add(2*time.Hour)); ok || kept.ResourceID != created.ID {
		t.Fatalf("a release dropped a committed write's claim: %+v, %v", kept, ok)
	}

	// A message, likewise.
	if _, ok := reserve("post", t0); !ok {
		t.Fatal("claim not granted")
	}
	posted, _, err := s.PostMessage(store.WithClaim(ctx, &store.Claim{KeyID: "key-1", IdemKey: "post", CreatedAt: t0}), store.PostMessage{Message: w.message(w.req21)})
	must(t, err)
	if kept, _ := reserve("post", t0.Add(time.Hour)); kept.ResourceID != posted.ID {
		t.Fatalf("after a committed post: %+v; want the message id %s kept", kept, posted.ID)
	}

	// A claim taken over after it went stale: the late create of the first
	// claimant is rolled back.
	if _, ok := reserve("late", t0); !ok {
		t.Fatal("claim not granted")
	}
	if _, ok := reserve("late", t0.Add(2*minute)); !ok {
		t.Fatal("a stale claim was not taken over")
	}
	before := len(mustGet[[]store.Request](t)(s.Requests(ctx, w.deal)))
	_, err = s.CreateRequest(store.WithClaim(ctx, &store.Claim{KeyID: "key-1", IdemKey: "late", CreatedAt: t0}), w.row("", &w.sec1, api.KindRequest, "", "Late"))
	wantErr(t, "a create under a lost claim", err, store.ErrClaimLost)
	if after := len(mustGet[[]store.Request](t)(s.Requests(ctx, w.deal))); after != before {
		t.Errorf("%d rows after a create under a lost claim, want %d", after, before)
	}
}
