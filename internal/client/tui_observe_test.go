package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

func TestWithResponseObserverSeesEveryAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Remaining", "42")
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[]`))
	}))
	defer srv.Close()
	c, err := New(Options{BaseURL: srv.URL, Key: "k"})
	if err != nil {
		t.Fatal(err)
	}
	var seen atomic.Int64
	var remaining atomic.Value
	observed := c.WithResponseObserver(func(resp *http.Response) {
		seen.Add(1)
		remaining.Store(resp.Header.Get("X-RateLimit-Remaining"))
	})
	if _, err := observed.Deals(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := observed.RequestsIfChanged(context.Background(), "d", ""); err != nil {
		t.Fatal(err)
	}
	if seen.Load() != 2 || remaining.Load() != "42" {
		t.Errorf("observer saw %d answers (remaining %v), want 2 with 42", seen.Load(), remaining.Load())
	}
	// The original client is left as it was.
	if _, err := c.Deals(context.Background()); err != nil {
		t.Fatal(err)
	}
	if seen.Load() != 2 {
		t.Errorf("the original client's answers reached the observer")
	}
}
