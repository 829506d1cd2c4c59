package cli

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/importplan"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

const aliceKey = "dlk_alice00000000000000000000000000000000"

// liveServer is a real dealctl server on a fresh database seeded with
// testdata/world.yaml, optionally behind a wrapper (a flaky proxy).
type liveServer struct {
	URL     string
	handler http.Handler
	calls   atomic.Int64 // API calls that reached the server
	limited atomic.Int64 // of which answered 429
}

func startLiveServer(t testing.TB, rateLimit int) *liveServer {
	t.Helper()
	db := filepath.Join(t.TempDir(), "dealctl.db")
	runAdminProcess(t, "apply", "-f", filepath.Join("testdata", "world.yaml"), "--db", db)
	store, err := sqlstore.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	srv, err := server.New(context.Background(), server.Config{Store: store, RateLimit: rateLimit,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ls := &liveServer{}
	ls.handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ls.calls.Add(1)
		rec := &statusRecorder{ResponseWriter: w}
		srv.ServeHTTP(rec, r)
		if rec.status == http.StatusTooManyRequests {
			ls.limited.Add(1)
		}
	})
	hs := httptest.NewServer(ls.handler)
	t.Cleanup(hs.Close)
	ls.URL = hs.URL
	return ls
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// runLive runs dealctl as alice on Falcon against url.
func runLive(t *testing.T, url string, args ...string) result {
	t.Helper()
	return run(t, nil, runOpts{env: map[string]string{"DEALCTL_SERVER": url, "DEALCTL_API_KEY": aliceKey}}, args...)
}

// liveRows reads Falcon's list straight from the server.
func liveRows(t *testing.T, url string) []api.DealRequest {
	t.Helper()
	r := runLive(t, url, "requests", "ls", "--json")
	if r.code != 0 {
		t.Fatalf("requests ls: %d %s", r.code, r.err)
	}
	var rows []api.DealRequest
	if err := json.Unmarshal([]byte(r.out), &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

// planOf runs import and decodes its -o json answer.
func planOf(t *testing.T, url string, args ...string) (*importplan.Plan, result) {
	t.Helper()
	r := runLive(t, url, append([]string{"import", "-o", "json"}, args...)...)
	var p importplan.Plan
	if r.out != "" {
		if err := json.Unmarshal([]byte(r.out), &p); err != nil {
			t.Fatalf("import -o json printed %q: %v", r.out, err)
		}
	}
	return &p, r
}

// assertNoDuplicates fails when a number or a title appears twice.
func assertNoDuplicates(t *testing.T, rows []api.DealRequest) {
	t.Helper()
	numbers, titles := map[string]int{}, map[string]int{}
	for _, r := range rows {
		numbers[r.Number]++
		titles[strings.ToLower(r.Title)]++
	}
	for n, c := range numbers {
		if c > 1 {
			t.Errorf("number %s is on the deal %d times", n, c)
		}
	}
	for n, c := range titles {
		if c > 1 {
			t.Errorf("title %q is on the deal %d times", n, c)
		}
	}
}
