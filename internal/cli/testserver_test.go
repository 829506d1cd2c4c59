package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/world"
	"github.com/dealctl/dealctl/internal/world/worldtest"
)

// The keys of testdata/falcon.yaml.
const (
	testKey      = "dlk_test0000000000000000000000000000"  // alice, write
	aliceReadKey = "dlk_aliceread000000000000000000000000" // alice, read only
	bobFalconKey = "dlk_bobfalcon000000000000000000000000" // bob, the counterparty's editor
)

// fixedTime is noon UTC on 5 March 2026: already 6 March in Auckland,
// Falcon's time zone (UTC+13). It is the commands' clock and, moving on
// with real time from the start of each test, the server's.
var fixedTime = time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)

// falconAppliedAt is when testdata/falcon.yaml was applied: every row's
// creation and update time.
var falconAppliedAt = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

// seeds are the world files this test binary applied, kept as database
// files each test copies.
var seeds worldtest.Seeds

// packageDir is the folder the tests start in, which relative world files
// are read from: a test that changes the working folder (t.Chdir) must not
// make the world it seeds, and so every later test's, unreadable.
var packageDir = func() string {
	d, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return d
}()

// seededDB writes a copy of the world file applied at appliedAt (the
// zero time: now, once) to a temporary folder of t and returns its path
// and the world's ids.
func seededDB(t testing.TB, worldFile string, appliedAt time.Time) (string, *world.Result) {
	t.Helper()
	if !filepath.IsAbs(worldFile) {
		worldFile = filepath.Join(packageDir, worldFile)
	}
	path := filepath.Join(t.TempDir(), "dealctl.db")
	ids, err := seeds.Copy(path, worldFile, appliedAt, nil)
	if err != nil {
		t.Fatal(err)
	}
	return path, ids
}

// liveAPI is the real dealctl server on its own copy of a seeded
// database, in-process on loopback. It records every call that reaches
// it and can inject the faults a real network or an older server would
// bring; handler is the server alone (counting calls), for proxies of
// their own.
type liveAPI struct {
	URL     string
	ids     *world.Result
	deal    string // the world's first deal key
	hs      *httptest.Server
	srv     http.Handler
	handler http.Handler
	calls   atomic.Int64 // API calls that reached the server
	limited atomic.Int64 // of which answered 429
	ahead   atomic.Int64 // how far the server's clock was moved on, in ns

	mu   sync.Mutex
	sent []*sentCall

	// Faults, set before a command runs; each counter counts down.
	hideExt  bool   // answer without X-Dealctl-Extensions, as a server without them
	failPOS  int    // answer this many API POSTs with 503, unserved
	outage   int    // answer this many API writes with 503 database_unavailable and Retry-After, unserved
	dropPOS  int    // close the connection on this many API POSTs, unserved
	expireDL int    // let this many download links expire before they are fetched
	meddler  string // a row id someone else changes right after each GET of it
}

// sentCall is a call the server got: the request (without its body),
// and the status and ETag it was answered with.
type sentCall struct {
	*http.Request
	status int
	etag   string
}

// newFalcon starts the real server on testdata/falcon.yaml, with the
// clock at fixedTime.
func newFalcon(t testing.TB) *liveAPI {
	t.Helper()
	db, ids := seededDB(t, filepath.Join("testdata", "falcon.yaml"), falconAppliedAt)
	return startServerOn(t, db, ids, "falcon", fixedTime, server.Config{})
}

// startServerOn serves the database db (holding the world ids) with cfg,
// its store, logger and base URL filled in, and the clock at clock,
// moving on with real time (the zero time: the real clock).
func startServerOn(t testing.TB, db string, ids *world.Result, deal string, clock time.Time, cfg server.Config) *liveAPI {
	t.Helper()
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ts := &liveAPI{ids: ids, deal: deal, hs: httptest.NewUnstartedServer(nil)}
	ts.URL = "http://" + ts.hs.Listener.Addr().String()
	start := time.Now()
	if clock.IsZero() {
		clock = start
	}
	cfg.Now = func() time.Time { return clock.Add(time.Since(start) + time.Duration(ts.ahead.Load())) }
	cfg.Store, cfg.BaseURL = st, ts.URL
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := server.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts.srv = srv
	ts.handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ts.calls.Add(1)
		rec := &statusRecorder{ResponseWriter: w}
		srv.ServeHTTP(rec, r)
		if rec.status == http.StatusTooManyRequests {
			ts.limited.Add(1)
		}
	})
	ts.hs.Config.Handler = http.HandlerFunc(ts.serve)
	ts.hs.Start()
	t.Cleanup(ts.hs.Close)
	return ts
}

// serve records the call, injects the fault due, if any, and otherwise
// lets the real server answer.
func (ts *liveAPI) serve(w http.ResponseWriter, r *http.Request) {
	call := &sentCall{Request: r.Clone(context.Background())}
	ts.mu.Lock()
	ts.sent = append(ts.sent, call)
	isAPI := strings.HasPrefix(r.URL.Path, "/api/")
	drop := r.Method == http.MethodPost && isAPI && ts.dropPOS > 0
	if drop {
		ts.dropPOS--
	}
	fail := !drop && r.Method == http.MethodPost && isAPI && ts.failPOS > 0
	if fail {
		ts.failPOS--
	}
	away := !drop && !fail && (r.Method == http.MethodPost || r.Method == http.MethodPatch) && isAPI && ts.outage > 0
	if away {
		ts.outage--
	}
	expire := r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/dl/") && ts.expireDL > 0
	if expire {
		ts.expireDL--
	}
	hideExt, meddler := ts.hideExt, ts.meddler
	ts.mu.Unlock()

	switch {
	case drop:
		hijackClose(w)
		return
	case fail:
		ts.mu.Lock()
		call.status = http.StatusServiceUnavailable
		ts.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_ = json.NewEncoder(w).Encode(api.NewError(api.CodeInternal, ""))
		return
	case away:
		ts.mu.Lock()
		call.status = http.StatusServiceUnavailable
		ts.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
		_ = json.NewEncoder(w).Encode(&api.ErrorResponse{Code: api.CodeInternal, Params: map[string]any{"reason": "database_unavailable"}})
		return
	case expire:
		// Two lifetimes of a link pass between handing it out and its use.
		ts.ahead.Add(int64(2 * time.Minute))
	}
	rec := &callRecorder{ResponseWriter: w, ts: ts, call: call, hideExt: hideExt}
	if meddler != "" && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/requests/"+meddler) {
		// The answer is held until someone else has changed the row, so
		// the change lands between this read and whatever follows it.
		held := httptest.NewRecorder()
		ts.handler.ServeHTTP(held, r)
		if held.Code == http.StatusOK {
			ts.meddle(r.URL.Path)
		}
		for k, v := range held.Header() {
			rec.Header()[k] = v
		}
		rec.WriteHeader(held.Code)
		_, _ = rec.Write(held.Body.Bytes())
		return
	}
	ts.handler.ServeHTTP(rec, r)
}

// meddle is someone else's write to the row at path: its requester
// changes, and so its ETag.
func (ts *liveAPI) meddle(path string) {
	other := httptest.NewRequest(http.MethodPatch, path, strings.NewReader(`{"requester":"Someone else"}`))
	other.Header.Set("Authorization", "Bearer "+testKey)
	other.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	ts.srv.ServeHTTP(rec, other)
	if rec.Code != http.StatusOK {
		panic(fmt.Sprintf("the meddling write got %d: %s", rec.Code, rec.Body))
	}
}

// callRecorder notes the call's status and ETag as the header is
// written, before the client can have the answer, and can hide the
// extensions header.
type callRecorder struct {
	http.ResponseWriter
	ts      *liveAPI
	call    *sentCall
	status  int
	hideExt bool
}

func (c *callRecorder) WriteHeader(code int) {
	if c.hideExt {
		c.Header().Del("X-Dealctl-Extensions")
	}
	c.status = code
	c.ts.mu.Lock()
	c.call.status, c.call.etag = code, c.Header().Get("ETag")
	c.ts.mu.Unlock()
	c.ResponseWriter.WriteHeader(code)
}

func (c *callRecorder) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.WriteHeader(http.StatusOK)
	}
	return c.ResponseWriter.Write(b)
}

func (c *callRecorder) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// set changes the faults under the lock.
func (ts *liveAPI) set(f func(ts *liveAPI)) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	f(ts)
}

// sentTo returns the calls whose "METHOD path" starts with prefix.
func (ts *liveAPI) sentTo(prefix string) []*sentCall {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	var out []*sentCall
	for _, c := range ts.sent {
		if strings.HasPrefix(c.Method+" "+c.URL.Path, prefix) {
			out = append(out, c)
		}
	}
	return out
}

// callsTo counts the calls whose "METHOD path" starts with prefix.
func (ts *liveAPI) callsTo(prefix string) int { return len(ts.sentTo(prefix)) }

// callList is "METHOD path" of every call so far.
func (ts *liveAPI) callList() []string {
	var out []string
	for _, c := range ts.sentTo("") {
		out = append(out, c.Method+" "+c.URL.Path)
	}
	return out
}

// dealID is the id of the world's deal.
func (ts *liveAPI) dealID() string { return ts.ids.Deals[ts.deal] }

// id is the id of the row numbered number.
func (ts *liveAPI) id(number string) string {
	id := ts.ids.Requests[ts.deal+"/"+number]
	if id == "" {
		panic("no row " + number + " in the world file")
	}
	return id
}

// person is the person id of the user key on the deal.
func (ts *liveAPI) person(user string) string {
	id := ts.ids.People[ts.deal+"/"+user]
	if id == "" {
		panic("no person " + user + " in the world file")
	}
	return id
}

// read GETs path (under /api/v1) as key straight from the server,
// neither recorded nor faulted, into v.
func (ts *liveAPI) read(t testing.TB, key, path string, v any) {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "/api/v1"+path, nil)
	r.Header.Set("Authorization", "Bearer "+key)
	rec := httptest.NewRecorder()
	ts.srv.ServeHTTP(rec, r)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

// row reads the row numbered number as alice sees it.
func (ts *liveAPI) row(t testing.TB, number string) api.DealRequest {
	t.Helper()
	var row api.DealRequest
	ts.read(t, testKey, "/deals/"+ts.dealID()+"/requests/"+ts.id(number), &row)
	return row
}

// rows reads the whole list as alice sees it.
func (ts *liveAPI) rows(t testing.TB) []api.DealRequest {
	t.Helper()
	var rows []api.DealRequest
	ts.read(t, testKey, "/deals/"+ts.dealID()+"/requests", &rows)
	return rows
}

// messages reads the conversation on the row numbered number.
func (ts *liveAPI) messages(t testing.TB, number string) []api.Message {
	t.Helper()
	var msgs []api.Message
	ts.read(t, testKey, "/deals/"+ts.dealID()+"/requests/"+ts.id(number)+"/messages", &msgs)
	return msgs
}

// file is the file named name on the row numbered number.
func (ts *liveAPI) file(t testing.TB, number, name string) api.File {
	t.Helper()
	for _, f := range ts.row(t, number).Files {
		if f.Name != nil && *f.Name == name {
			return f
		}
	}
	t.Fatalf("no file %s on %s", name, number)
	return api.File{}
}

// freshConnections makes the server close every connection after its
// answer: net/http itself resends a request with an Idempotency-Key once
// when a reused connection drops, which would blur the count of the
// client's attempts.
func freshConnections(ts *liveAPI) { ts.hs.Config.SetKeepAlivesEnabled(false) }
