package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
)

// TestWithWriteObserverSeesWritesMade: the observer hears of the calls
// that wrote and succeeded, by their API path, on a server under a path
// of its own too; not of reads, a download link, or a write refused.
func TestWithWriteObserverSeesWritesMade(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/dealroom/api/v1/deals/d/requests/r/messages":
			w.WriteHeader(http.StatusConflict)
			_, _ = w.Write([]byte(`{"code":"conflict"}`))
		case r.Method == http.MethodPost:
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{}`))
		default:
			_, _ = w.Write([]byte(`{}`))
		}
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv, func(o *Options) { o.BaseURL += "/dealroom"; o.MaxRetries = -1 })
	var mu sync.Mutex
	var writes []string
	observed := c.WithWriteObserver(func(method, path string) {
		mu.Lock()
		defer mu.Unlock()
		writes = append(writes, method+" "+path)
	})
	ctx := context.Background()
	for _, call := range []struct{ method, path string }{
		{http.MethodGet, "/deals/d"},
		{http.MethodPost, "/deals/d/files/v/download-link"},
		{http.MethodPost, "/deals/d/requests/r/messages"},
		{http.MethodPost, "/deals/d/requests"},
		{http.MethodPatch, "/deals/d/requests/r"},
	} {
		_, _ = observed.Do(ctx, call.method, call.path, []byte(`{}`), nil)
	}
	want := []string{"POST /deals/d/requests", "PATCH /deals/d/requests/r"}
	if !slices.Equal(writes, want) {
		t.Errorf("writes seen %q, want %q", writes, want)
	}
}
