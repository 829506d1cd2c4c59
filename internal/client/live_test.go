package client

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/world"
)

const (
	aliceKey = "dlk_alice00000000000000000000000000000000"
	bobKey   = "dlk_bob0000000000000000000000000000000000"
)

// liveServer is the real server on a fresh SQLite file seeded with
// testdata/world.yaml; it records every call that reaches it.
type liveServer struct {
	URL   string
	mu    sync.Mutex
	calls []*http.Request
	// lostPATCH serves this many PATCHes for real and then answers 503
	// database_unavailable, as a commit whose answer was lost.
	lostPATCH int
}

func startLive(t *testing.T) *liveServer {
	t.Helper()
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, filepath.Join(t.TempDir(), "client.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if _, err := world.ApplyFile(ctx, st, filepath.Join("testdata", "world.yaml"), time.Now()); err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(ctx, server.Config{Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ls := &liveServer{}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ls.mu.Lock()
		ls.calls = append(ls.calls, r.Clone(context.Background()))
		lose := r.Method == http.MethodPatch && ls.lostPATCH > 0
		if lose {
			ls.lostPATCH--
		}
		ls.mu.Unlock()
		if lose {
			srv.ServeHTTP(httptest.NewRecorder(), r)
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `{"code":"internal","params":{"reason":"database_unavailable"}}`)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	ls.URL = hs.URL
	return ls
}

// reset forgets the calls recorded so far.
func (ls *liveServer) reset() {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.calls = nil
}

// recorded returns the calls since the last reset, as "METHOD path".
func (ls *liveServer) recorded() []*http.Request {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return append([]*http.Request(nil), ls.calls...)
}

func (ls *liveServer) client(t *testing.T, key string) *Client {
	t.Helper()
	c, err := New(Options{BaseURL: ls.URL, Key: key, MaxRetries: -1, MaxRateWait: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// falconRow finds the deal and the row numbered number, as key sees it;
// the extensions are learnt on the way.
func (ls *liveServer) falconRow(t *testing.T, c *Client, number string) (dealID string, row *api.DealRequest) {
	t.Helper()
	ctx := context.Background()
	deals, err := c.Deals(ctx)
	if err != nil || len(deals) != 1 {
		t.Fatalf("deals: %v %v", deals, err)
	}
	rows, err := c.Requests(ctx, deals[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if rows[i].Number == number {
			return deals[0].ID, &rows[i]
		}
	}
	t.Fatalf("no row %s", number)
	return "", nil
}
