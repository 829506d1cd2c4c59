package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// blockingHandler holds each call until told to answer, and says which
// calls are inside it.
type blockingHandler struct {
	entered chan string   // the path of each call that reached the handler
	answer  chan struct{} // one answer per receive
}

func newBlockingHandler() *blockingHandler {
	return &blockingHandler{entered: make(chan string, 16), answer: make(chan struct{})}
}

func (h *blockingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.entered <- r.Method + " " + r.URL.Path
	<-h.answer
	w.WriteHeader(http.StatusNoContent)
	// After its answer started, a read no longer holds a slot: this
	// wait stands for sending a large body to a slow reader.
	<-h.answer
}

func serveAsync(h http.Handler, r *http.Request) chan *httptest.ResponseRecorder {
	done := make(chan *httptest.ResponseRecorder, 1)
	go func() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		done <- w
	}()
	return done
}

func wantEntered(t *testing.T, h *blockingHandler, want string) {
	t.Helper()
	select {
	case got := <-h.entered:
		if got != want {
			t.Fatalf("%s reached the handler, want %s", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s never reached the handler", want)
	}
}

func wantWaiting(t *testing.T, h *blockingHandler) {
	t.Helper()
	select {
	case got := <-h.entered:
		t.Fatalf("%s reached the handler while every read slot was held", got)
	case <-time.After(100 * time.Millisecond):
	}
}

func TestReadsWaitForASlotAndWritesDoNot(t *testing.T) {
	s := &Server{reads: newReadSlots(1), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	h := newBlockingHandler()
	gated := s.admitted(h)

	first := serveAsync(gated, httptest.NewRequest(http.MethodGet, "/api/v1/deals/a/requests", nil))
	wantEntered(t, h, "GET /api/v1/deals/a/requests")
	second := serveAsync(gated, httptest.NewRequest(http.MethodGet, "/api/v1/deals/b/requests", nil))
	wantWaiting(t, h)

	// A write goes in beside the read holding the only slot, and so does
	// a call outside the API.
	write := serveAsync(gated, httptest.NewRequest(http.MethodPost, "/api/v1/deals/a/requests/r/messages", nil))
	wantEntered(t, h, "POST /api/v1/deals/a/requests/r/messages")
	page := serveAsync(gated, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	wantEntered(t, h, "GET /healthz")

	// The first read starts its answer: its slot goes to the second
	// while the first is still sending.
	h.answer <- struct{}{}
	wantEntered(t, h, "GET /api/v1/deals/b/requests")
	for range 7 { // the rest of the four calls' two waits
		h.answer <- struct{}{}
	}
	for _, done := range []chan *httptest.ResponseRecorder{first, second, write, page} {
		if w := <-done; w.Code != http.StatusNoContent {
			t.Errorf("status %d, want 204", w.Code)
		}
	}
}

func TestAReadThatWaitsPastItsDeadlineIsTold(t *testing.T) {
	s := &Server{reads: newReadSlots(1), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	h := newBlockingHandler()
	gated := s.admitted(h)
	first := serveAsync(gated, httptest.NewRequest(http.MethodGet, "/api/v1/deals/a/requests", nil))
	wantEntered(t, h, "GET /api/v1/deals/a/requests")

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	w := httptest.NewRecorder()
	gated.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/v1/deals/b/requests", nil).WithContext(ctx))
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Fatalf("status %d, Retry-After %q: want 503 with Retry-After", w.Code, w.Header().Get("Retry-After"))
	}
	var body struct {
		Params map[string]any `json:"params"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Params["reason"] != ReasonServerBusy {
		t.Fatalf("body %s: want reason %s", w.Body, ReasonServerBusy)
	}
	h.answer <- struct{}{}
	h.answer <- struct{}{}
	<-first
	// The slot came back: a later read goes in at once.
	next := serveAsync(gated, httptest.NewRequest(http.MethodGet, "/api/v1/deals/c/requests", nil))
	wantEntered(t, h, "GET /api/v1/deals/c/requests")
	h.answer <- struct{}{}
	h.answer <- struct{}{}
	<-next
}

func TestAReadThatNeverAnswersGivesItsSlotBack(t *testing.T) {
	s := &Server{reads: newReadSlots(1)}
	silent := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	gated := s.admitted(silent)
	for range 3 { // with the slot kept, the second would wait for ever
		w := httptest.NewRecorder()
		gated.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/v1/deals/a/requests", nil))
	}
	if len(s.reads) != 0 {
		t.Fatalf("%d slots held after every read returned", len(s.reads))
	}
}
