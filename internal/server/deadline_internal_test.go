package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestWritesOutliveTheirClient: an API write whose client went away goes
// on, bounded by the database deadline alone: a write begun is finished
// on every store (a queued SQLite write and a PostgreSQL one included),
// so its client, back with its Idempotency-Key, finds it made or not
// made, never half-way; a read stops.
func TestWritesOutliveTheirClient(t *testing.T) {
	s := &Server{dbTimeout: time.Minute}
	for method, wantCancelled := range map[string]bool{http.MethodPost: false, http.MethodPatch: false, http.MethodGet: true} {
		var err error
		var deadline bool
		h := s.bounded(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
			err = r.Context().Err()
			_, deadline = r.Context().Deadline()
		}))
		gone, cancel := context.WithCancel(context.Background())
		cancel() // the client went away
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(method, "/api/v1/deals/d/requests", nil).WithContext(gone))
		if (err != nil) != wantCancelled || !deadline {
			t.Errorf("%s after the client left: context error %v, deadline %v; want cancelled %v, a deadline", method, err, deadline, wantCancelled)
		}
	}
}
