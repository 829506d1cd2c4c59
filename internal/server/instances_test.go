package server_test

// Two server instances on one database, as two `dealctl serve` processes
// would be: each with its own pool, caches and limiter. On SQLite they
// share the file; the PostgreSQL run of the suite (TestAPISuiteOnPostgres)
// puts them on one PostgreSQL database.

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/openapitest"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// secondInstance serves e's database from another server on the same
// injected clock.
func (e *env) secondInstance(t *testing.T, opts ...func(*server.Config)) *env {
	t.Helper()
	ctx := context.Background()
	st, err := sqlstore.OpenWith(ctx, e.dsn, sqlstore.OpenOptions{Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	cfg := server.Config{Store: st, BaseURL: e.ts.URL, Now: e.clock.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, o := range opts {
		o(&cfg)
	}
	srv, err := server.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &env{dsn: e.dsn, st: st, srv: srv, ts: ts, ids: e.ids, clock: e.clock, v: openapitest.New(t)}
}

// TestNo304AfterAnotherInstancesWrite: a write through either instance
// changes the list's and the request's ETags on both at once, for the
// owning side and for the counterparty; the old ETag gets a 200.
func TestNo304AfterAnotherInstancesWrite(t *testing.T) {
	t.Parallel()
	a := newEnv(t)
	b := a.secondInstance(t)
	instances := []*env{a, b}
	falcon, row := a.deal("falcon"), a.row("falcon/1.1")
	for i := range 6 {
		writer := instances[i%2]
		// Both sides, on both instances, hold the current ETags and get
		// 304s with them.
		type held struct{ list, request string }
		etags := map[string]held{}
		for _, key := range []string{"olivia-write", "bella-write"} {
			list := a.as(t, key).get(requestsPath(falcon)).want(http.StatusOK).header.Get("ETag")
			req := b.as(t, key).get(requestPath(falcon, row)).want(http.StatusOK).header.Get("ETag")
			for _, in := range instances {
				in.as(t, key).get(requestsPath(falcon), header("If-None-Match: "+list)).want(http.StatusNotModified)
				in.as(t, key).get(requestPath(falcon, row), header("If-None-Match: "+req)).want(http.StatusNotModified)
			}
			etags[key] = held{list, req}
		}
		// A shared answer through one instance, or a status move.
		if i%3 == 2 {
			writer.as(t, "olivia-write").patch(requestPath(falcon, row), map[string]any{"title": "Renamed " + string(rune('A'+i))}).want(http.StatusOK)
		} else {
			writer.as(t, "bella-write").post(messagesPath(falcon, row), map[string]any{"text": "More to come", "partial": true}).want(http.StatusCreated)
		}
		for _, in := range instances {
			for key, h := range etags {
				got := in.as(t, key).get(requestsPath(falcon), header("If-None-Match: "+h.list)).want(http.StatusOK)
				if got.header.Get("ETag") == h.list {
					t.Fatalf("write %d: %s's list ETag unchanged after a write on the other instance", i, key)
				}
				in.as(t, key).get(requestPath(falcon, row), header("If-None-Match: "+h.request)).want(http.StatusOK)
			}
		}
	}
}

// TestRevokedKeyRefusedOnEveryInstance: a revoked key's writes are
// refused at once, and its reads on every instance within
// server.DefaultAccessCacheTTL, however warm their caches.
func TestRevokedKeyRefusedOnEveryInstance(t *testing.T) {
	t.Parallel()
	a := newEnv(t)
	b := a.secondInstance(t)
	falcon, row := a.deal("falcon"), a.row("falcon/1.1")
	for _, in := range []*env{a, b} {
		c := in.as(t, "oscar-write")
		c.get("/api/v1/me").want(http.StatusOK)
		c.get(requestsPath(falcon)).want(http.StatusOK)
	}
	if err := a.st.RevokeAPIKey(context.Background(), a.ids.Keys["oscar-write"].ID, a.clock.Now()); err != nil {
		t.Fatal(err)
	}
	b.as(t, "oscar-write").post(messagesPath(falcon, row), map[string]any{"text": "after revocation"}).
		wantErr(http.StatusUnauthorized, "unauthenticated", "")
	// The caches expire on the injected clock: moving it past their
	// lifetime stands for waiting it out on every instance.
	a.clock.Advance(server.DefaultAccessCacheTTL)
	for _, in := range []*env{a, b} {
		c := in.as(t, "oscar-write")
		c.get("/api/v1/me").wantErr(http.StatusUnauthorized, "unauthenticated", "")
		c.get(requestsPath(falcon)).wantErr(http.StatusUnauthorized, "unauthenticated", "")
	}
}

// sharedLimiter makes an instance use the database's shared limiter.
func sharedLimiter(limit int) func(*server.Config) {
	return func(c *server.Config) {
		c.RateLimit = limit
		c.Limiter = c.Store.(interface{ RateLimiter() store.RateLimiter }).RateLimiter()
	}
}

// TestRateLimitSharedByInstances: a key calling two instances at ten
// times its limit for a minute of the injected clock is allowed what one
// bucket holds over that minute (full, then refilled), within ±10 %.
func TestRateLimitSharedByInstances(t *testing.T) {
	t.Parallel()
	const limit = 60
	a := newEnv(t, sharedLimiter(limit))
	b := a.secondInstance(t, sharedLimiter(limit))
	clients := []*client{a.as(t, "owen-write"), b.as(t, "owen-write")}
	rng := rand.New(rand.NewPCG(3, 4))
	allowed := 0
	for range 600 {
		switch r := clients[rng.IntN(2)].get("/api/v1/me"); r.status {
		case http.StatusOK:
			allowed++
		case http.StatusTooManyRequests:
			if r.header.Get("Retry-After") == "" {
				t.Fatalf("%s: no Retry-After", r)
			}
		default:
			t.Fatalf("%s: want 200 or 429", r)
		}
		a.clock.Advance(100 * time.Millisecond)
	}
	const want = 2 * limit
	if allowed < want*9/10 || allowed > want*11/10 {
		t.Errorf("two instances allowed %d calls in a minute, want %d ± 10 %%", allowed, want)
	}
}

// readCounter counts the store reads an authenticated call may make
// before its own work.
type readCounter struct {
	store.Store
	n atomic.Int64
}

func (s *readCounter) wrap(c *server.Config) { s.Store, c.Store = c.Store, s }

func (s *readCounter) APIKeyByPrefix(ctx context.Context, prefix string) (store.APIKey, error) {
	s.n.Add(1)
	return s.Store.APIKeyByPrefix(ctx, prefix)
}

func (s *readCounter) User(ctx context.Context, id string) (store.User, error) {
	s.n.Add(1)
	return s.Store.User(ctx, id)
}

func (s *readCounter) Organization(ctx context.Context, id string) (store.Organization, error) {
	s.n.Add(1)
	return s.Store.Organization(ctx, id)
}

func (s *readCounter) Deal(ctx context.Context, id string) (store.Deal, error) {
	s.n.Add(1)
	return s.Store.Deal(ctx, id)
}

func (s *readCounter) Parties(ctx context.Context, ids ...string) ([]store.Party, error) {
	s.n.Add(1)
	return s.Store.Parties(ctx, ids...)
}

func (s *readCounter) People(ctx context.Context, id string) ([]store.Person, error) {
	s.n.Add(1)
	return s.Store.People(ctx, id)
}

func (s *readCounter) Seat(ctx context.Context, dealID, userID string) (store.Person, error) {
	s.n.Add(1)
	return s.Store.Seat(ctx, dealID, userID)
}

func (s *readCounter) KeyHolder(ctx context.Context, prefix string) (store.APIKey, store.User, error) {
	s.n.Add(1)
	return s.Store.KeyHolder(ctx, prefix)
}

func (s *readCounter) Members(ctx context.Context, dealID string) ([]store.Party, []store.Person, error) {
	s.n.Add(1)
	return s.Store.Members(ctx, dealID)
}

func (s *readCounter) DealRequest(ctx context.Context, dealID, id string) (store.Deal, store.Request, error) {
	s.n.Add(1)
	return s.Store.DealRequest(ctx, dealID, id)
}

// TestWarmCallsReadOnlyTheDeal: once an instance has seen a key and a
// deal, a list 304 reads one row (the deal, for its version) and GET /me
// none; a write reads the key and the seat again.
func TestWarmCallsReadOnlyTheDeal(t *testing.T) {
	t.Parallel()
	var reads readCounter
	e := newEnv(t, reads.wrap)
	falcon, row := e.deal("falcon"), e.row("falcon/1.1")
	c := e.as(t, "olivia-write")
	etag := c.get(requestsPath(falcon)).want(http.StatusOK).header.Get("ETag")
	c.get("/api/v1/me").want(http.StatusOK)
	reads.n.Store(0)
	c.get(requestsPath(falcon), header("If-None-Match: "+etag)).want(http.StatusNotModified)
	if n := reads.n.Load(); n != 1 {
		t.Errorf("a warm list 304 made %d reads of keys, users, deals and people, want 1 (the deal)", n)
	}
	reads.n.Store(0)
	c.get("/api/v1/me").want(http.StatusOK)
	if n := reads.n.Load(); n != 0 {
		t.Errorf("a warm GET /me made %d reads, want none", n)
	}
	reads.n.Store(0)
	c.post(messagesPath(falcon, row), map[string]any{"text": "note", "internal": true}).want(http.StatusCreated)
	if n := reads.n.Load(); n < 3 {
		t.Errorf("a write made %d reads of the key with its user, the deal's members and the deal's row; it must read them afresh", n)
	}
}

// TestDealWriteSeesSeatChangeAtOnce: a write on the deal itself (a new
// request) after the owner's access was lowered is refused on every
// instance, though each kept the deal's members from an earlier one; once
// she is off the deal, it is 404.
func TestDealWriteSeesSeatChangeAtOnce(t *testing.T) {
	t.Parallel()
	a := newEnv(t)
	b := a.secondInstance(t)
	falcon := a.deal("falcon")
	for _, in := range []*env{a, b} {
		in.as(t, "olivia-write").post(requestsPath(falcon), map[string]any{"title": "Kept members"}).want(http.StatusCreated)
	}
	ctx := context.Background()
	_, people, err := a.st.Members(ctx, falcon)
	if err != nil {
		t.Fatal(err)
	}
	olivia := slices.IndexFunc(people, func(p store.Person) bool { return p.UserID == a.ids.Users["olivia"] })
	if olivia < 0 {
		t.Fatal("olivia is not on falcon")
	}
	people[olivia].Access = api.AccessViewer
	if err := a.st.Apply(ctx, func(tx store.AdminTx) error { _, err := tx.PutPerson(people[olivia]); return err }); err != nil {
		t.Fatal(err)
	}
	for _, in := range []*env{a, b} {
		in.as(t, "olivia-write").post(requestsPath(falcon), map[string]any{"title": "After the change"}).
			wantErr(http.StatusForbidden, "forbidden", "")
	}
	// Taken off the deal (not joined): the deal is out of reach, 404.
	people[olivia].Joined = false
	if err := a.st.Apply(ctx, func(tx store.AdminTx) error { _, err := tx.PutPerson(people[olivia]); return err }); err != nil {
		t.Fatal(err)
	}
	for _, in := range []*env{a, b} {
		in.as(t, "olivia-write").post(requestsPath(falcon), map[string]any{"title": "After leaving"}).
			wantErr(http.StatusNotFound, api.CodeNotFound, "")
	}
}

// TestSeatChangeRefusedByWritesAtOnce: a person whose access is lowered
// is refused by the next write on every instance, though each kept the
// deal's members from an earlier write (the members version moved).
func TestSeatChangeRefusedByWritesAtOnce(t *testing.T) {
	t.Parallel()
	a := newEnv(t)
	b := a.secondInstance(t)
	falcon, row := a.deal("falcon"), a.row("falcon/1.1")
	for _, in := range []*env{a, b} {
		in.as(t, "ben-write").post(messagesPath(falcon, row), map[string]any{"text": "More to come", "partial": true}).want(http.StatusCreated)
	}
	ctx := context.Background()
	_, people, err := a.st.Members(ctx, falcon)
	if err != nil {
		t.Fatal(err)
	}
	var ben store.Person
	for _, p := range people {
		if p.Email == "ben@acme.example" {
			ben = p
		}
	}
	ben.Access = api.AccessViewer
	if err := a.st.Apply(ctx, func(tx store.AdminTx) error { _, err := tx.PutPerson(ben); return err }); err != nil {
		t.Fatal(err)
	}
	for _, in := range []*env{a, b} {
		in.as(t, "ben-write").post(messagesPath(falcon, row), map[string]any{"text": "After the change"}).
			wantErr(http.StatusForbidden, "forbidden", "cannot_post")
	}
}
