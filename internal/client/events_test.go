package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// eventsServer serves a growing list of events in pages of at most
// pageCap (whatever limit asks), with an ETag per (after, count) and a
// 304 when If-None-Match matches, as the events extension does. It
// records each call's query and validator.
type eventsServer struct {
	mu      sync.Mutex
	events  []api.Event
	pageCap int
	calls   []string // "after=…|inm=…"
}

func (s *eventsServer) add(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		id := strconv.Itoa(len(s.events) + 1)
		s.events = append(s.events, api.Event{ID: "e" + id, Type: api.EventStatusMoved, Data: json.RawMessage(`{}`)})
	}
}

func (s *eventsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	after, inm := r.URL.Query().Get("after"), r.Header.Get("If-None-Match")
	s.calls = append(s.calls, "after="+after+"|inm="+inm)
	start := 0
	for i, e := range s.events {
		if e.ID == after {
			start = i + 1
		}
	}
	page := s.events[start:]
	if len(page) > s.pageCap {
		page = page[:s.pageCap]
	}
	etag := fmt.Sprintf(`"%s-%d"`, after, len(s.events))
	if inm == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(append([]api.Event{}, page...))
}

func TestEventsCursorPagesToTheEndAndPollsWith304(t *testing.T) {
	es := &eventsServer{pageCap: 2} // a server that caps pages below what is asked
	es.add(5)
	srv := httptest.NewServer(es)
	defer srv.Close()
	c, _ := newTestClient(t, srv, nil)
	cur := c.NewEventsCursor("d1")
	ctx := context.Background()

	got, err := cur.Next(ctx, nil)
	if err != nil || len(got) != 5 || got[4].ID != "e5" || cur.After() != "e5" {
		t.Fatalf("first read: %d events, after %q, %v", len(got), cur.After(), err)
	}
	// Pages of 2, 2, 1, then an empty page whose ETag is kept.
	if len(es.calls) != 4 || es.calls[3] != "after=e5|inm=" {
		t.Fatalf("calls: %v", es.calls)
	}
	// Nothing new: one call, conditional, answered 304.
	got, err = cur.Next(ctx, nil)
	if err != nil || len(got) != 0 || len(es.calls) != 5 || es.calls[4] != `after=e5|inm="e5-5"` {
		t.Fatalf("idle poll: %d events, %v, calls %v", len(got), err, es.calls)
	}
	// Three written between two polls: all three, none twice.
	es.add(3)
	var seen []string
	_, err = cur.Next(ctx, func(page []api.Event) error {
		for _, e := range page {
			seen = append(seen, e.ID)
		}
		return nil
	})
	if err != nil || fmt.Sprint(seen) != "[e6 e7 e8]" {
		t.Fatalf("after three writes: %v, %v", seen, err)
	}
}

func TestEventsPageErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("after") == "bad" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(api.ErrorResponse{Code: api.CodeBadRequest, Params: map[string]any{"reason": api.ReasonInvalidCursor}})
			return
		}
		_, _ = w.Write([]byte(`{"not":"a list"}`))
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv, nil)
	if _, _, _, err := c.EventsPage(context.Background(), "d1", "bad", 10, ""); StatusOf(err) != http.StatusBadRequest {
		t.Errorf("a refused cursor: %v", err)
	}
	if _, _, _, err := c.EventsPage(context.Background(), "d1", "", 10, ""); err == nil {
		t.Errorf("an answer that is not a list was taken")
	}
}
