package server_test

import (
	"context"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store"
)

// outageStore is a real store whose writes fail while down is set, as
// while the database restarts: the post fails before it commits and the
// claim's release fails with it.
type outageStore struct {
	store.Store
	down atomic.Bool
}

// errConnRefused is what a driver returns while PostgreSQL restarts.
var errConnRefused error = &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}

func (s *outageStore) PostMessage(ctx context.Context, p store.PostMessage) (store.Message, store.Request, error) {
	if s.down.Load() {
		return store.Message{}, store.Request{}, errConnRefused
	}
	return s.Store.PostMessage(ctx, p)
}

func (s *outageStore) ReleaseResponse(ctx context.Context, keyID, idemKey string) error {
	if s.down.Load() {
		return errConnRefused
	}
	return s.Store.ReleaseResponse(ctx, keyID, idemKey)
}

// TestIdempotentRetryAfterAnOutageProceeds: a keyed post that failed
// before its write committed, while the database was away, does not hold
// its key once the database is back: the claim's release is retried, and
// a retry with the same key writes (once) within moments, not after the
// claim goes stale.
func TestIdempotentRetryAfterAnOutageProceeds(t *testing.T) {
	t.Parallel()
	st := &outageStore{}
	e := newEnv(t, func(c *server.Config) { st.Store = c.Store; c.Store = st })
	falcon, row := e.deal("falcon"), e.row("falcon/2.1")
	ben := e.as(t, "ben-write")
	idem := header("Idempotency-Key: outage-1")

	st.down.Store(true)
	if st := ben.post(messagesPath(falcon, row), map[string]any{"text": "once"}, idem).status; st < 500 {
		t.Fatalf("post during the outage answered %d, want a 5xx", st)
	}
	st.down.Store(false)
	// The clock stands still: the claim never goes stale in this test.
	deadline := time.Now().Add(2 * time.Second)
	for {
		r := ben.post(messagesPath(falcon, row), map[string]any{"text": "once"}, idem)
		if r.status == http.StatusCreated {
			break
		}
		if r.status != http.StatusConflict || time.Now().After(deadline) {
			t.Fatalf("retry once the database is back answered %d (%s); want 201 within 2 s", r.status, r.body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if msgs := ben.get(messagesPath(falcon, row)).want(http.StatusOK).messages(); len(msgs) != 1 {
		t.Errorf("%d messages, want 1", len(msgs))
	}
}

// TestDatabaseOutageIs503: a call that fails because the database is away
// answers 503 internal, reason database_unavailable, with Retry-After, not
// 500; the answer is one the OpenAPI document declares.
func TestDatabaseOutageIs503(t *testing.T) {
	t.Parallel()
	st := &outageStore{}
	e := newEnv(t, func(c *server.Config) { st.Store = c.Store; c.Store = st })
	falcon, row := e.deal("falcon"), e.row("falcon/2.1")
	st.down.Store(true)
	r := e.as(t, "ben-write").post(messagesPath(falcon, row), map[string]any{"text": "during the outage"})
	r.wantErr(http.StatusServiceUnavailable, api.CodeInternal, server.ReasonDatabaseUnavailable)
	if r.header.Get("Retry-After") == "" {
		t.Errorf("503 without Retry-After")
	}
}

// frozenStore is a real store whose request list never answers, as with
// PostgreSQL stopped (SIGSTOP) or a partition: only the call's context
// ends the wait.
type frozenStore struct{ store.Store }

func (s frozenStore) ListChanges(ctx context.Context, dealID string, since int64, shared bool, party string, previewLen int) (store.ListChanges, error) {
	<-ctx.Done()
	return store.ListChanges{}, ctx.Err()
}

// TestFrozenDatabaseAnswers503WithinTheDeadline: a call whose database
// does not answer is 503 database_unavailable once DBTimeout has passed,
// not held for as long as the database is frozen.
func TestFrozenDatabaseAnswers503WithinTheDeadline(t *testing.T) {
	t.Parallel()
	const deadline = 300 * time.Millisecond
	e := newEnv(t, func(c *server.Config) { c.Store = frozenStore{c.Store}; c.DBTimeout = deadline })
	start := time.Now()
	e.as(t, "olivia-write").get(requestsPath(e.deal("falcon"))).
		wantErr(http.StatusServiceUnavailable, api.CodeInternal, server.ReasonDatabaseUnavailable)
	if took := time.Since(start); took > deadline+2*time.Second {
		t.Errorf("answered after %v, want about %v", took, deadline)
	}
}
