package storetest

import (
	"bytes"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// testIdempotency: the first answer is kept and found again; a second
// save does not replace it while it is fresh, does once it has expired;
// expired answers are dropped.
func testIdempotency(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	first := store.SavedResponse{Method: "POST", Path: "/api/v1/x", Status: 201, Body: []byte(`{"id":"1"}`), CreatedAt: t0}
	must(t, s.SaveResponse(ctx, "key-1", "idem-a", first, t0.Add(-24*time.Hour)))

	got, err := s.SavedResponse(ctx, "key-1", "idem-a", t0.Add(-time.Hour))
	must(t, err)
	if got.Status != 201 || !bytes.Equal(got.Body, first.Body) || got.Path != first.Path || !got.CreatedAt.Equal(t0) {
		t.Fatalf("SavedResponse = %+v, want %+v", got, first)
	}
	_, err = s.SavedResponse(ctx, "key-2", "idem-a", t0.Add(-time.Hour))
	wantErr(t, "another key's idempotency key", err, store.ErrNotFound)
	_, err = s.SavedResponse(ctx, "key-1", "idem-a", t0.Add(time.Minute))
	wantErr(t, "an answer older than the window", err, store.ErrNotFound)

	second := store.SavedResponse{Method: "POST", Path: "/api/v1/x", Status: 201, Body: []byte(`{"id":"2"}`), CreatedAt: t0.Add(time.Minute)}
	must(t, s.SaveResponse(ctx, "key-1", "idem-a", second, t0.Add(-24*time.Hour)))
	got, err = s.SavedResponse(ctx, "key-1", "idem-a", t0.Add(-time.Hour))
	must(t, err)
	if !bytes.Equal(got.Body, first.Body) {
		t.Fatalf("a fresh answer was replaced: %s", got.Body)
	}

	later := t0.Add(25 * time.Hour)
	third := store.SavedResponse{Method: "POST", Path: "/api/v1/y", Status: 200, Body: []byte(`{"id":"3"}`), CreatedAt: later}
	must(t, s.SaveResponse(ctx, "key-1", "idem-a", third, later.Add(-24*time.Hour)))
	got, err = s.SavedResponse(ctx, "key-1", "idem-a", later.Add(-24*time.Hour))
	must(t, err)
	if !bytes.Equal(got.Body, third.Body) || got.Path != "/api/v1/y" {
		t.Fatalf("an expired answer was not replaced: %+v", got)
	}

	must(t, s.SaveResponse(ctx, "key-1", "idem-old", store.SavedResponse{Method: "POST", Path: "/p", Status: 201, Body: []byte("{}"), CreatedAt: t0}, t0.Add(-24*time.Hour)))
	must(t, s.SaveResponse(ctx, "key-1", "idem-new", store.SavedResponse{Method: "POST", Path: "/p", Status: 201, Body: []byte("{}"), CreatedAt: later}, later.Add(-24*time.Hour)))
	_, err = s.SavedResponse(ctx, "key-1", "idem-old", time.Time{})
	wantErr(t, "an answer past the window after a later save", err, store.ErrNotFound)
}
