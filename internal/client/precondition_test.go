package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// TestListRowPrecondition: a change to a row read from a list carries the
// row's updated_at where the server takes it (if-updated-at), If-Match: *
// where it only takes If-Match, and nothing where it takes neither; a
// move with it makes one call, no read only to fetch an ETag.
func TestListRowPrecondition(t *testing.T) {
	updated := time.Date(2027, 3, 1, 9, 0, 0, 123456000, time.UTC)
	row := &api.DealRequest{ID: "r", Number: "1.1", Kind: api.KindRequest, Status: api.StatusOpen,
		AllowedStatuses: []api.RequestStatus{api.StatusPartial, api.StatusComplete}, UpdatedAt: updated}
	for _, c := range []struct {
		advertised         string
		ifMatch, updatedAt string
	}{
		{"list-filters, if-match, if-updated-at, idempotency-key", "", "2027-03-01T09:00:00.123456Z"},
		{"list-filters, if-match, idempotency-key", "*", ""},
		{"", "", ""},
	} {
		var mu sync.Mutex
		var seen []*http.Request
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen = append(seen, r.Clone(context.Background()))
			mu.Unlock()
			if c.advertised != "" {
				w.Header().Set(api.ExtensionsHeader, c.advertised)
			}
			w.Write([]byte(`{"id":"r","number":"1.1","status":"complete"}`))
		}))
		t.Cleanup(srv.Close)
		cl, _ := newTestClient(t, srv, nil)
		ctx := context.Background()
		if _, err := cl.Me(ctx); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		seen = nil
		mu.Unlock()
		if _, changed, err := cl.MoveStatus(ctx, "d", row, ListRowPrecondition(row), api.StatusComplete); err != nil || !changed {
			t.Fatalf("%q: MoveStatus: changed %v, %v", c.advertised, changed, err)
		}
		mu.Lock()
		if len(seen) != 1 || seen[0].Method != http.MethodPatch {
			t.Fatalf("%q: %d calls, want the PATCH alone", c.advertised, len(seen))
		}
		if got := seen[0].Header.Get("If-Match"); got != c.ifMatch {
			t.Errorf("%q: If-Match %q, want %q", c.advertised, got, c.ifMatch)
		}
		if got := seen[0].Header.Get("X-Dealctl-If-Updated-At"); got != c.updatedAt {
			t.Errorf("%q: X-Dealctl-If-Updated-At %q, want %q", c.advertised, got, c.updatedAt)
		}
		mu.Unlock()
	}
}
