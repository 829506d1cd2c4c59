package server_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store"
)

// keyLookups counts the reads of keys by prefix.
type keyLookups struct {
	store.Store
	n atomic.Int64
}

func (k *keyLookups) KeyHolder(ctx context.Context, prefix string) (store.APIKey, store.User, error) {
	k.n.Add(1)
	return k.Store.KeyHolder(ctx, prefix)
}

// Calls with keys that do not authenticate are limited by the caller's
// address: past the budget they are refused before any key is looked up,
// while keys this server knows already go on.
func TestBadKeysAreLimitedByAddress(t *testing.T) {
	t.Parallel()
	lookups := &keyLookups{}
	e := newEnv(t, func(c *server.Config) {
		c.RateLimit = 3
		lookups.Store, c.Store = c.Store, lookups
	})
	unknown := e.withSecret(t, "dlk_unknownK000000000000000000000000")
	wrong := e.withSecret(t, "dlk_oliviaWr111111111111111111111111") // a real prefix, a wrong secret
	unknown.get("/api/v1/me").wantErr(http.StatusUnauthorized, api.CodeUnauthenticated, "")
	wrong.get("/api/v1/me").wantErr(http.StatusUnauthorized, api.CodeUnauthenticated, "")
	e.withSecret(t, "dlk_short").get("/api/v1/me").wantErr(http.StatusUnauthorized, api.CodeUnauthenticated, "")
	before := lookups.n.Load()
	for range 5 {
		r := unknown.get("/api/v1/me")
		r.wantErr(http.StatusTooManyRequests, api.CodeRateLimited, "too_many_bad_keys")
		if r.header.Get("Retry-After") != "20" {
			t.Errorf("Retry-After %q, want 20 (3 a minute)", r.header.Get("Retry-After"))
		}
	}
	if n := lookups.n.Load() - before; n != 0 {
		t.Errorf("refused calls looked up %d keys, want none", n)
	}
	// A call without a key is not a bad key: it is told to bring one.
	e.anon(t).get("/api/v1/me").wantErr(http.StatusUnauthorized, api.CodeUnauthenticated, "missing_key")

	// The budget refills at the key rate: one failure more every 20 s.
	e.clock.Advance(20 * time.Second)
	unknown.get("/api/v1/me").wantErr(http.StatusUnauthorized, api.CodeUnauthenticated, "")
	unknown.get("/api/v1/me").wantErr(http.StatusTooManyRequests, api.CodeRateLimited, "too_many_bad_keys")
}

// A key this server knows already is not held up by bad keys from the
// same address; one it would have to look up waits with them. The access
// cache keeps the known key: it expires on the injected clock, which
// stands still here however slow the machine.
func TestBadKeysDoNotHoldUpAKnownKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *server.Config) { c.RateLimit = 2 })
	olivia := e.as(t, "olivia-write")
	olivia.get("/api/v1/me").want(http.StatusOK)
	bad := e.withSecret(t, "dlk_unknownK000000000000000000000000")
	bad.get("/api/v1/me").wantErr(http.StatusUnauthorized, api.CodeUnauthenticated, "")
	bad.get("/api/v1/me").wantErr(http.StatusUnauthorized, api.CodeUnauthenticated, "")
	bad.get("/api/v1/me").wantErr(http.StatusTooManyRequests, api.CodeRateLimited, "too_many_bad_keys")
	olivia.get("/api/v1/me").want(http.StatusOK)
	e.as(t, "bella-read").get("/api/v1/me").wantErr(http.StatusTooManyRequests, api.CodeRateLimited, "too_many_bad_keys")
}
