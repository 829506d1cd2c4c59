package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// flakyProxy forwards to a live server. After `after` creates it drops
// connections: the create reaches the server and its answer is lost,
// the worst case for a client. dropAll keeps dropping every later write
// (the network is gone); otherwise only that one answer is lost.
// stripExtensions hides the server's extensions, to exercise the
// fallback without idempotency keys.
func flakyProxy(t *testing.T, ls *liveServer, after int64, dropAll, stripExtensions bool) string {
	t.Helper()
	var creates atomic.Int64
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		isCreate := r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/requests")
		n := int64(0)
		if isCreate {
			n = creates.Add(1)
		}
		if dropAll && n > after+1 || dropAll && r.Method == http.MethodPatch && creates.Load() > after {
			hijackClose(w)
			return
		}
		rec := httptest.NewRecorder()
		ls.handler.ServeHTTP(rec, r)
		if n == after+1 {
			hijackClose(w) // the server acted; the answer never arrives
			return
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		if stripExtensions {
			w.Header().Del("X-Dealctl-Extensions")
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(hs.Close)
	return hs.URL
}

func hijackClose(w http.ResponseWriter) {
	if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
		c.Close()
	}
}

// bigSheet writes a csv of sections and requests: n requests in sections
// of ten.
func bigSheet(t testing.TB, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("Number,Kind,Title,Priority,Due date\n")
	for i := 0; i < n; i++ {
		sec := 10 + i/10
		if i%10 == 0 {
			fmt.Fprintf(&b, "%d,section,Workstream %d,,\n", sec, sec)
		}
		fmt.Fprintf(&b, "%d.%d,request,Request %d about topic %d,high,2026-06-30\n", sec, i%10+1, i, i)
	}
	path := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestImportInterruptedThenReRun: the network goes away after some
// creates (one of them answered never); the import fails saying how far
// it got; run again, it finishes, and nothing is on the deal twice. Run
// with and without the server's idempotency extension.
func TestImportInterruptedThenReRun(t *testing.T) {
	t.Parallel()
	for _, strip := range []bool{false, true} {
		t.Run(fmt.Sprintf("extensions-hidden=%v", strip), func(t *testing.T) {
			ls := startLiveServer(t, 0)
			sheet := bigSheet(t, 40) // 4 sections + 40 requests
			r := runFlaky(t, flakyProxy(t, ls, 15, true, strip), "import", sheet)
			if r.code == 0 || !strings.Contains(r.err, "run the same command again to finish") {
				t.Fatalf("interrupted import: exit %d\n%s", r.code, r.err)
			}
			partial := len(liveRows(t, ls.URL))
			if partial <= 5 || partial >= 49 {
				t.Fatalf("after the interruption the deal has %d rows: the test did not interrupt midway", partial)
			}
			r = runFlaky(t, flakyProxy(t, ls, 1<<40, false, strip), "import", sheet)
			if r.code != 0 {
				t.Fatalf("re-run: exit %d\n%s", r.code, r.err)
			}
			rows := liveRows(t, ls.URL)
			assertNoDuplicates(t, rows)
			if len(rows) != 5+44 {
				t.Errorf("the deal has %d rows, want 49", len(rows))
			}
		})
	}
}

// TestImportSurvivesALostAnswer: one create's answer is lost and the
// network stays up; the same run retries (replay with an idempotency key,
// or a look at the list without one) and finishes with no duplicate.
func TestImportSurvivesALostAnswer(t *testing.T) {
	t.Parallel()
	for _, strip := range []bool{false, true} {
		t.Run(fmt.Sprintf("extensions-hidden=%v", strip), func(t *testing.T) {
			ls := startLiveServer(t, 0)
			r := runFlaky(t, flakyProxy(t, ls, 7, false, strip), "import", bigSheet(t, 20))
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.err)
			}
			rows := liveRows(t, ls.URL)
			assertNoDuplicates(t, rows)
			if len(rows) != 5+22 {
				t.Errorf("the deal has %d rows, want 27", len(rows))
			}
		})
	}
}

// lostPatchProxy forwards to a live server; the PATCH numbered lose
// (from 1) reaches the server and acts, and then its answer is lost as
// fault says: "drop" closes the connection, "outage" answers a database
// outage's 503. It counts the PATCHes sent.
func lostPatchProxy(t *testing.T, ls *liveServer, fault string, lose int64, patches *atomic.Int64) string {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		ls.handler.ServeHTTP(rec, r)
		if r.Method == http.MethodPatch && patches.Add(1) == lose {
			if fault == "drop" {
				hijackClose(w)
				return
			}
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"code":"internal","message":"the database is unavailable","params":{"reason":"database_unavailable"}}`))
			return
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(hs.Close)
	return hs.URL
}

// TestImportSurvivesALostPatchAnswer: an update's PATCH of fields, or
// its status move, acts on the server and its answer is lost (the
// connection drops, or a database outage answers 503 after the commit).
// The client sends it again by itself (client.RepeatSafe for the fields;
// the move names its version), a repeated move that finds itself made is
// success, and the run finishes with the fields and the status as the
// sheet says.
func TestImportSurvivesALostPatchAnswer(t *testing.T) {
	t.Parallel()
	for _, fault := range []string{"drop", "outage"} {
		for _, lose := range []int64{1, 2} {
			t.Run(fmt.Sprintf("%s-patch-%d", fault, lose), func(t *testing.T) {
				testLostPatchAnswer(t, fault, lose)
			})
		}
	}
}

func testLostPatchAnswer(t *testing.T, fault string, lose int64) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	var patches atomic.Int64
	sheet := writeSheet(t, "Number,Kind,Title,Priority,Status\n1.2,request,Board minutes,low,complete\n")
	r := runFlaky(t, lostPatchProxy(t, ls, fault, lose, &patches), "import", sheet, "--match", "number", "--yes", "--apply-status")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
	if n := patches.Load(); n != 3 {
		t.Errorf("%d PATCHes sent; want 3: the fields, the move, and the lost one again", n)
	}
	got := byNumber(liveRows(t, ls.URL))["1.2"]
	if got.Status != api.StatusComplete || got.Priority != api.PriorityLow {
		t.Errorf("1.2 is %s, %s; want complete, low", got.Status, got.Priority)
	}
}
