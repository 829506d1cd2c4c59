package server_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store"
)

// claimCounter counts the Idempotency-Key claims a call makes.
type claimCounter struct {
	store.Store
	claims atomic.Int64
}

func (s *claimCounter) wrap(c *server.Config) { s.Store, c.Store = c.Store, s }

func (s *claimCounter) ReserveResponse(ctx context.Context, keyID, idemKey string, r store.SavedResponse, expireBefore, staleBefore time.Time) (store.SavedResponse, bool, error) {
	s.claims.Add(1)
	return s.Store.ReserveResponse(ctx, keyID, idemKey, r, expireBefore, staleBefore)
}

// TestIdempotencyKeyAfterPermission: a caller who may not make the call
// gets the API's 404 or 403 whatever Idempotency-Key it sends, before its
// body is read and without a claim on the key; a caller who lost the right
// to post since a first post gets the 403, not a replay of it.
func TestIdempotencyKeyAfterPermission(t *testing.T) {
	t.Parallel() // it sends bodies of megabytes: alongside the others
	counter := &claimCounter{}
	e := newEnv(t, counter.wrap)
	falcon, heron, row := e.deal("falcon"), e.deal("heron"), e.row("falcon/2.1")
	idem := header("Idempotency-Key: retry-7")
	tooBig := `{"text":"` + strings.Repeat("a", 2<<20) + `"}`
	refused := []struct {
		name   string
		call   func() *resp
		status int
		code   api.ErrorCode
		reason string
	}{
		{"not on the deal", func() *resp { return e.as(t, "carl-write").post(messagesPath(falcon, row), tooBig, idem) }, http.StatusNotFound, api.CodeNotFound, ""},
		{"not joined", func() *resp { return e.as(t, "bruno-write").post(requestsPath(falcon), `{`, idem) }, http.StatusNotFound, api.CodeNotFound, ""},
		{"a viewer posting", func() *resp { return e.as(t, "owen-write").post(messagesPath(falcon, row), tooBig, idem) }, http.StatusForbidden, api.CodeForbidden, api.ReasonCannotPost},
		{"the other side creating", func() *resp { return e.as(t, "ben-write").post(requestsPath(falcon), `{"title":`, idem) }, http.StatusForbidden, api.CodeForbidden, api.ReasonCannotCreateRequest},
		{"a read key", func() *resp { return e.as(t, "olivia-read").post(requestsPath(falcon), tooBig, idem) }, http.StatusForbidden, api.CodeForbidden, api.ReasonReadOnlyKey},
		{"an archived deal", func() *resp { return e.as(t, "oscar-write").post(requestsPath(heron), `{"title":"x"}`, idem) }, http.StatusNotFound, api.CodeNotFound, ""},
		{"a key too long, not on the deal", func() *resp {
			return e.as(t, "carl-write").post(requestsPath(falcon), `{"title":"x"}`, header("Idempotency-Key: "+strings.Repeat("k", 300)))
		}, http.StatusNotFound, api.CodeNotFound, ""},
	}
	for _, c := range refused {
		counter.claims.Store(0)
		c.call().wantErr(c.status, c.code, c.reason)
		if n := counter.claims.Load(); n != 0 {
			t.Errorf("%s: %d claims on the Idempotency-Key, want none", c.name, n)
		}
	}

	// A caller who may post claims the key and a repeat replays.
	ben := e.as(t, "ben-write")
	counter.claims.Store(0)
	first := ben.post(messagesPath(falcon, row), map[string]any{"text": "first"}, idem).want(http.StatusCreated).message()
	if n := counter.claims.Load(); n != 1 {
		t.Fatalf("a post with an Idempotency-Key made %d claims, want 1", n)
	}
	if again := ben.post(messagesPath(falcon, row), map[string]any{"text": "first"}, idem).want(http.StatusCreated).message(); again.ID != first.ID {
		t.Fatalf("repeat answered message %s, want the replay of %s", again.ID, first.ID)
	}
	// Ben is made a viewer: the same repeat is now refused, not replayed.
	ctx := context.Background()
	seat, err := e.st.Seat(ctx, falcon, e.ids.Users["ben"])
	if err != nil {
		t.Fatal(err)
	}
	seat.Access = api.AccessViewer
	if err := e.st.Apply(ctx, func(tx store.AdminTx) error { _, err := tx.PutPerson(seat); return err }); err != nil {
		t.Fatal(err)
	}
	ben.post(messagesPath(falcon, row), map[string]any{"text": "first"}, idem).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonCannotPost)
}
