package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// newTestClient returns a client of srv that never really sleeps and
// records the waits it would have made.
func newTestClient(t *testing.T, srv *httptest.Server, mod func(*Options)) (*Client, *[]time.Duration) {
	t.Helper()
	var waits []time.Duration
	o := Options{
		BaseURL:   srv.URL,
		Key:       "dlk_secret",
		UserAgent: "dealctl/test",
		Sleep: func(_ context.Context, d time.Duration) error {
			waits = append(waits, d)
			return nil
		},
	}
	if mod != nil {
		mod(&o)
	}
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c, &waits
}

func TestHeadersAndDecode(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got := r.Header.Get("Authorization"); got != "Bearer dlk_secret" {
			t.Errorf("Authorization = %q", got)
		}
		if got := r.Header.Get("User-Agent"); got != "dealctl/test" {
			t.Errorf("User-Agent = %q", got)
		}
		if r.URL.Path != "/api/v1/me" {
			t.Errorf("path = %q", r.URL.Path)
		}
		w.Write([]byte(`{"user":{"id":"u1","name":"Alice","email":"a@x"},"organization":{"id":"o1","name":"Acme"},"key":{"id":"k1","name":"CI","prefix":"dlk_abc","access":"write","deal_ids":null,"expires_at":"2030-01-01T00:00:00Z"}}`))
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv, func(o *Options) { o.BaseURL = srv.URL + "/api/v1/" })
	me, err := c.Me(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if me.User.ID != "u1" || me.Key.Access != api.KeyWrite {
		t.Errorf("me = %+v", me)
	}
}

func TestErrorDecoded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusConflict)
		w.Write([]byte(`{"code":"conflict","params":{"from":"open","to":"open","allowed":["partial","complete"]}}`))
	}))
	defer srv.Close()
	c, waits := newTestClient(t, srv, nil)
	_, err := c.UpdateRequest(context.Background(), "d", "r", api.DealRequestUpdate{Status: api.Some(api.StatusOpen)})
	var e *Error
	if !errors.As(err, &e) || e.StatusCode != 409 || !e.Decoded {
		t.Fatalf("err = %#v", err)
	}
	var er *api.ErrorResponse
	if !errors.As(err, &er) || er.Code != api.CodeConflict || er.Params["from"] != "open" {
		t.Errorf("ErrorResponse = %+v", er)
	}
	if len(*waits) != 0 {
		t.Errorf("a 409 was retried: %v", *waits)
	}
}

func TestErrorNotJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "<html>nope</html>", http.StatusForbidden)
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv, nil)
	_, err := c.Deals(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.Decoded || e.Response.Code != api.CodeForbidden {
		t.Fatalf("err = %#v", err)
	}
}

func TestGetRetries5xxThenSucceeds(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) < 3 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.Write([]byte(`[]`))
	}))
	defer srv.Close()
	c, waits := newTestClient(t, srv, nil)
	if _, err := c.Deals(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 3 || len(*waits) != 2 {
		t.Errorf("calls = %d, waits = %v", n.Load(), *waits)
	}
	for i, w := range *waits {
		if w <= 0 || w > 4*time.Second {
			t.Errorf("wait %d = %s, want within (0, 4s]", i, w)
		}
	}
}

func TestGetGivesUpAfterRetries(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"code":"internal"}`))
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv, func(o *Options) { o.MaxRetries = 2 })
	_, err := c.Deals(context.Background())
	if StatusOf(err) != 500 || n.Load() != 3 {
		t.Errorf("err = %v, calls = %d", err, n.Load())
	}
}

func TestPostNotRetriedOn5xx(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv, nil)
	_, err := c.PostMessage(context.Background(), "d", "r", api.MessageCreate{Text: api.Some("hi")})
	if StatusOf(err) != 500 || n.Load() != 1 {
		t.Errorf("err = %v, calls = %d (a POST must not be sent twice)", err, n.Load())
	}
}

func TestNetworkErrorRetriedForGet(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close() // nothing listens: every dial fails
	c, waits := newTestClient(t, srv, func(o *Options) { o.MaxRetries = 2 })
	_, err := c.Deals(context.Background())
	var ne *NetworkError
	if !errors.As(err, &ne) || len(*waits) != 2 {
		t.Errorf("err = %v, waits = %v", err, *waits)
	}
}

func TestRateLimitHonoursRetryAfter(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"code":"rate_limited"}`))
			return
		}
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(`{"id":"m1"}`))
	}))
	defer srv.Close()
	c, waits := newTestClient(t, srv, nil)
	m, err := c.PostMessage(context.Background(), "d", "r", api.MessageCreate{})
	if err != nil || m.ID != "m1" {
		t.Fatalf("m = %+v, err = %v", m, err)
	}
	if len(*waits) != 1 || (*waits)[0] != 2*time.Second {
		t.Errorf("waits = %v, want [2s]", *waits)
	}
}

func TestRateLimitBudgetExhausted(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"code":"rate_limited"}`))
	}))
	defer srv.Close()
	c, waits := newTestClient(t, srv, func(o *Options) { o.MaxRateWait = 7 * time.Second })
	_, err := c.Deals(context.Background())
	var rl *RateLimitedError
	if !errors.As(err, &rl) {
		t.Fatalf("err = %v, want *RateLimitedError", err)
	}
	if rl.Waited != 6*time.Second || len(*waits) != 2 || n.Load() != 3 {
		t.Errorf("waited %s, waits %v, calls %d", rl.Waited, *waits, n.Load())
	}
}

func TestRedirectToOtherHostRefused(t *testing.T) {
	var leaked atomic.Bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			leaked.Store(true)
		}
		w.Write([]byte(`[]`))
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/api/v1/deals", http.StatusFound)
	}))
	defer srv.Close()
	c, waits := newTestClient(t, srv, nil)
	_, err := c.Deals(context.Background())
	if err == nil || !strings.Contains(err.Error(), "refusing to follow a redirect") {
		t.Errorf("err = %v", err)
	}
	if leaked.Load() {
		t.Error("the key was sent to another host")
	}
	if len(*waits) != 0 {
		t.Errorf("a refused redirect was retried: %v", *waits)
	}
}

func TestFetchLinkSendsNoKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			t.Error("download link fetched with the key")
		}
		if r.URL.Path == "/dl/expired" {
			w.WriteHeader(http.StatusGone)
			w.Write([]byte(`{"code":"gone"}`))
			return
		}
		w.Write([]byte("file-bytes"))
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv, nil)
	var b strings.Builder
	n, err := c.FetchLink(context.Background(), srv.URL+"/dl/tok", &b)
	if err != nil || n != 10 || b.String() != "file-bytes" {
		t.Errorf("n = %d, body = %q, err = %v", n, b.String(), err)
	}
	_, err = c.FetchLink(context.Background(), srv.URL+"/dl/expired", &b)
	if StatusOf(err) != http.StatusGone || strings.Contains(err.Error(), "expired") {
		t.Errorf("err = %v (want 410 with the token redacted)", err)
	}
}

func TestETagCache(t *testing.T) {
	var full, notModified atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` {
			notModified.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		full.Add(1)
		w.Header().Set("ETag", `"v1"`)
		w.Write([]byte(`[{"id":"r1","number":"1","title":"T"}]`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	c, _ := newTestClient(t, srv, func(o *Options) { o.Cache = NewCache(dir) })
	for range 3 {
		rows, err := c.Requests(context.Background(), "d")
		if err != nil || len(rows) != 1 || rows[0].Number != "1" {
			t.Fatalf("rows = %+v, err = %v", rows, err)
		}
	}
	if full.Load() != 1 || notModified.Load() != 2 {
		t.Errorf("full = %d, 304s = %d", full.Load(), notModified.Load())
	}
	// Another key must not read this key's entries.
	c2, _ := newTestClient(t, srv, func(o *Options) { o.Cache = NewCache(dir); o.Key = "dlk_other" })
	if _, err := c2.Requests(context.Background(), "d"); err != nil {
		t.Fatal(err)
	}
	if full.Load() != 2 {
		t.Errorf("a second key was answered from the first key's cache")
	}
}

func TestRequestsIfChanged(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Write([]byte(`[]`))
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv, nil)
	_, etag, changed, err := c.RequestsIfChanged(context.Background(), "d", "")
	if err != nil || !changed || etag != `"v1"` {
		t.Fatalf("etag %q changed %v err %v", etag, changed, err)
	}
	_, etag, changed, err = c.RequestsIfChanged(context.Background(), "d", etag)
	if err != nil || changed || etag != `"v1"` {
		t.Errorf("etag %q changed %v err %v", etag, changed, err)
	}
}

func TestParseBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://h:1":          "http://h:1",
		"http://h:1/":         "http://h:1",
		"https://h/api/v1":    "https://h",
		"https://h/x/api/v1/": "https://h/x",
	} {
		u, err := ParseBaseURL(in)
		if err != nil || u.String() != want {
			t.Errorf("ParseBaseURL(%q) = %v, %v; want %s", in, u, err, want)
		}
	}
	for _, bad := range []string{"", "h:1", "ftp://h", "http://", "https://h/api/v2", "https://h/x/api", "https://h/api/v1.1"} {
		if _, err := ParseBaseURL(bad); err == nil {
			t.Errorf("ParseBaseURL(%q) accepted", bad)
		}
	}
}

// An entry is stored as its header line, then the body as it came, and
// reads back the same.
func TestCacheEntryOnDisk(t *testing.T) {
	c := NewCache(t.TempDir())
	key := strings.Repeat("ab", 32)
	c.put(key, &cacheEntry{ETag: `"v1"`, Body: []byte("[1,\n2]")})
	data, err := os.ReadFile(c.path(key))
	if err != nil || string(data) != "\"v1\"\n[1,\n2]" {
		t.Fatalf("on disk: %q (%v)", data, err)
	}
	if e := c.get(key); e == nil || e.ETag != `"v1"` || string(e.Body) != "[1,\n2]" {
		t.Errorf("read back %+v", e)
	}
}

// A fetch spends a call of the key's budget on a dealctl server: a 429
// is waited out within MaxRateWait, then given up as a RateLimitedError.
func TestFetchLinkWaitsOutA429(t *testing.T) {
	var refusals atomic.Int32
	refusals.Store(2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/dl/always" || refusals.Add(-1) >= 0 {
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"code":"rate_limited"}`))
			return
		}
		w.Write([]byte("file-bytes"))
	}))
	defer srv.Close()
	c, waits := newTestClient(t, srv, func(o *Options) { o.MaxRateWait = 10 * time.Second })
	var b strings.Builder
	n, err := c.FetchLink(context.Background(), srv.URL+"/dl/tok", &b)
	if err != nil || n != 10 || b.String() != "file-bytes" {
		t.Errorf("n = %d, body = %q, err = %v", n, b.String(), err)
	}
	if want := []time.Duration{3 * time.Second, 3 * time.Second}; !slices.Equal(*waits, want) {
		t.Errorf("waits %v, want %v", *waits, want)
	}
	_, err = c.FetchLink(context.Background(), srv.URL+"/dl/always", &b)
	var rl *RateLimitedError
	if !errors.As(err, &rl) || rl.Waited != 9*time.Second {
		t.Errorf("err = %v, want a RateLimitedError after waiting 9 s of the 10 allowed", err)
	}
}
