package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// extServer is a stub API that records what each call sent, and
// advertises extensions only when advertise is true.
type extServer struct {
	*httptest.Server
	mu        sync.Mutex
	advertise bool
	seen      []*http.Request
	fail      int // answer this many POSTs with 503 first
}

func newExtServer(t *testing.T, advertise bool) *extServer {
	s := &extServer{advertise: advertise}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.seen = append(s.seen, r.Clone(context.Background()))
		if s.advertise {
			w.Header().Set(api.ExtensionsHeader, "list-filters, if-match, idempotency-key")
		}
		if r.Method == http.MethodPost && s.fail > 0 {
			s.fail--
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		switch {
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/requests"):
			w.Write([]byte(`[]`))
		case r.Method == http.MethodGet:
			w.Header().Set("ETag", `"r1"`)
			w.Write([]byte(`{"id":"r","number":"1.1"}`))
		case r.Method == http.MethodPatch && r.Header.Get("If-Match") == `"old"`:
			w.WriteHeader(http.StatusConflict)
			w.Write([]byte(`{"code":"conflict_stale","params":{"reason":"if_match_failed"}}`))
		default:
			w.Header().Set("ETag", `"w1"`)
			w.Write([]byte(`{"id":"r","number":"1.1"}`))
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *extServer) last() *http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[len(s.seen)-1]
}

func (s *extServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen)
}

var allFilters = RequestsQuery{
	Statuses:   []api.RequestStatus{api.StatusOpen, api.StatusPartial},
	Priorities: []api.Priority{api.PriorityHigh},
	Categories: []api.RequestCategory{api.CategoryLegal},
	AssigneeID: "none",
}

func TestExtensionsUsedOnlyWhenAdvertised(t *testing.T) {
	ctx := context.Background()
	for _, advertise := range []bool{false, true} {
		srv := newExtServer(t, advertise)
		c, _ := newTestClient(t, srv.Server, nil)
		if c.Supports(api.ExtListFilters) {
			t.Fatalf("advertise=%v: an extension is assumed before any answer", advertise)
		}
		if _, err := c.Me(ctx); err != nil {
			t.Fatal(err)
		}

		_, filtered, err := c.RequestsFiltered(ctx, "d", allFilters)
		if err != nil {
			t.Fatal(err)
		}
		q := srv.last().URL.RawQuery
		if advertise {
			if !filtered || q != "assignee_id=none&category=legal&priority=high&status=open%2Cpartial" {
				t.Errorf("filtered=%v, query %q", filtered, q)
			}
		} else if filtered || q != "" {
			t.Errorf("no extension: filtered=%v, query %q sent anyway", filtered, q)
		}

		_, etag, err := c.RequestWithETag(ctx, "d", "r")
		if err != nil || etag != `"r1"` {
			t.Fatalf("RequestWithETag: etag %q, %v", etag, err)
		}
		if _, err := c.UpdateRequestIfMatch(ctx, "d", "r", api.DealRequestUpdate{Title: api.Some("T")}, etag); err != nil {
			t.Fatal(err)
		}
		if got, want := srv.last().Header.Get("If-Match"), map[bool]string{true: `"r1"`}[advertise]; got != want {
			t.Errorf("advertise=%v: If-Match %q, want %q", advertise, got, want)
		}

		if _, err := c.CreateRequest(ctx, "d", api.DealRequestCreate{Title: api.Some("T")}); err != nil {
			t.Fatal(err)
		}
		if got := srv.last().Header.Get("Idempotency-Key"); (got != "") != advertise {
			t.Errorf("advertise=%v: Idempotency-Key %q", advertise, got)
		}
	}
}

func TestConflictStale(t *testing.T) {
	srv := newExtServer(t, true)
	c, _ := newTestClient(t, srv.Server, nil)
	ctx := context.Background()
	if _, err := c.Me(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := c.UpdateRequestIfMatch(ctx, "d", "r", api.DealRequestUpdate{Title: api.Some("T")}, `"old"`)
	if !IsConflictStale(err) || StatusOf(err) != http.StatusConflict {
		t.Errorf("err = %v, want a 409 conflict_stale", err)
	}
}

// With idempotency-key advertised a POST is retried after a 5xx, with the
// same key each time; two POSTs get different keys.
func TestIdempotentPostRetried(t *testing.T) {
	srv := newExtServer(t, true)
	c, waits := newTestClient(t, srv.Server, nil)
	ctx := context.Background()
	if _, err := c.Me(ctx); err != nil {
		t.Fatal(err)
	}
	srv.fail = 2
	if _, err := c.PostMessage(ctx, "d", "r", api.MessageCreate{Text: api.Some("hi")}); err != nil {
		t.Fatalf("PostMessage after two 503s: %v", err)
	}
	srv.mu.Lock()
	posts := srv.seen[1:]
	srv.mu.Unlock()
	if len(posts) != 3 || len(*waits) != 2 {
		t.Fatalf("%d POSTs and %d waits, want 3 and 2", len(posts), len(*waits))
	}
	key := posts[0].Header.Get("Idempotency-Key")
	for _, p := range posts {
		if p.Header.Get("Idempotency-Key") != key || key == "" {
			t.Errorf("retry sent key %q, first %q", p.Header.Get("Idempotency-Key"), key)
		}
	}
	if _, err := c.PostMessage(ctx, "d", "r", api.MessageCreate{Text: api.Some("again")}); err != nil {
		t.Fatal(err)
	}
	if srv.last().Header.Get("Idempotency-Key") == key {
		t.Error("a second answer reused the first one's Idempotency-Key")
	}
}

// Without the extension a failed POST is never sent twice.
func TestPlainPostNotRetried(t *testing.T) {
	srv := newExtServer(t, false)
	c, _ := newTestClient(t, srv.Server, nil)
	ctx := context.Background()
	if _, err := c.Me(ctx); err != nil {
		t.Fatal(err)
	}
	srv.fail = 1
	before := srv.count()
	if _, err := c.CreateRequest(ctx, "d", api.DealRequestCreate{Title: api.Some("T")}); StatusOf(err) != http.StatusServiceUnavailable {
		t.Fatalf("err = %v, want the 503", err)
	}
	if n := srv.count() - before; n != 1 {
		t.Errorf("the POST was sent %d times, want once", n)
	}
}

// What a server advertised is remembered in the cache directory for the
// next process, for that server only, and forgotten when it stops.
func TestExtensionsRemembered(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	srv := newExtServer(t, true)
	other := newExtServer(t, false)
	cache := NewCache(dir)

	c1, _ := newTestClient(t, srv.Server, func(o *Options) { o.Cache = cache })
	if _, err := c1.Me(ctx); err != nil {
		t.Fatal(err)
	}
	c2, _ := newTestClient(t, srv.Server, func(o *Options) { o.Cache = cache })
	if got := strings.Join(c2.Extensions(), ","); got != "idempotency-key,if-match,list-filters" {
		t.Errorf("a new client of the same server knows %q before any call", got)
	}
	c3, _ := newTestClient(t, other.Server, func(o *Options) { o.Cache = cache })
	if c3.Supports(api.ExtIfMatch) {
		t.Error("another server's extensions were assumed")
	}
	off, _ := newTestClient(t, srv.Server, func(o *Options) { o.Cache = cache; o.NoExtensions = true })
	if off.Supports(api.ExtIfMatch) {
		t.Error("NoExtensions still uses them")
	}

	srv.mu.Lock()
	srv.advertise = false
	srv.mu.Unlock()
	if _, err := c2.Me(ctx); err != nil {
		t.Fatal(err)
	}
	if c2.Supports(api.ExtListFilters) {
		t.Error("still used after the server stopped advertising it")
	}
	c4, _ := newTestClient(t, srv.Server, func(o *Options) { o.Cache = cache })
	if len(c4.Extensions()) != 0 {
		t.Errorf("the next process still assumes %v", c4.Extensions())
	}
}

// A POST sent with WithIdempotencyKey carries the caller's key, not a
// fresh one, and the writes that return the row's ETag return the one the
// server sent.
func TestCallersIdempotencyKeyAndETags(t *testing.T) {
	srv := newExtServer(t, true)
	c, _ := newTestClient(t, srv.Server, nil)
	ctx := context.Background()
	if _, err := c.Me(ctx); err != nil {
		t.Fatal(err)
	}
	row, etag, err := c.CreateRequestWithETag(WithIdempotencyKey(ctx, "dealctl-import-abc"), "d", api.DealRequestCreate{Title: api.Some("T")})
	if err != nil || row.ID != "r" || etag != `"w1"` {
		t.Fatalf("CreateRequestWithETag: %v %+v %q", err, row, etag)
	}
	if got := srv.last().Header.Get("Idempotency-Key"); got != "dealctl-import-abc" {
		t.Errorf("Idempotency-Key %q, want the caller's", got)
	}
	if _, etag, err = c.UpdateRequestWithETag(ctx, "d", "r", api.DealRequestUpdate{Title: api.Some("U")}, ""); err != nil || etag != `"w1"` {
		t.Errorf("UpdateRequestWithETag: %v %q", err, etag)
	}
	if _, err := c.CreateRequest(ctx, "d", api.DealRequestCreate{Title: api.Some("T")}); err != nil {
		t.Fatal(err)
	}
	if got := srv.last().Header.Get("Idempotency-Key"); got == "dealctl-import-abc" || got == "" {
		t.Errorf("a POST without the caller's key sent %q, want a fresh one", got)
	}
}
