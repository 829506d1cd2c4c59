package server_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store"
)

// TestIdempotencyKeyWithAnotherBody: the key is bound to the first body;
// the same key with another body is refused and writes nothing.
func TestIdempotencyKeyWithAnotherBody(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, row := e.deal("falcon"), e.row("falcon/2.1")
	ben := e.as(t, "ben-write")
	idem := header("Idempotency-Key: answer-7")
	first := ben.post(messagesPath(falcon, row), map[string]any{"text": "first"}, idem).want(http.StatusCreated)
	ben.post(messagesPath(falcon, row), map[string]any{"text": "second"}, idem).
		wantErr(http.StatusConflict, api.CodeConflict, api.ReasonIdempotencyKeyReused)
	again := ben.post(messagesPath(falcon, row), map[string]any{"text": "first"}, idem).want(http.StatusCreated)
	if again.header.Get("Idempotent-Replayed") != "true" || again.message().ID != first.message().ID {
		t.Errorf("the same body again: replayed %q, id %s; want a replay of %s", again.header.Get("Idempotent-Replayed"), again.message().ID, first.message().ID)
	}
	msgs := ben.get(messagesPath(falcon, row)).want(http.StatusOK).messages()
	if len(msgs) != 1 || msgs[0].Text != "first" {
		t.Errorf("messages %+v, want the first only", msgs)
	}
}

// crashingStore is a real store whose server "dies" right after a create
// commits: the create's answer is never written and the idempotent answer
// never saved, as when the process is killed between the two.
type crashingStore struct {
	store.Store
	crash bool
}

var errCrashed = errors.New("the server died after the write committed")

func (s *crashingStore) CreateRequest(ctx context.Context, r store.Request) (store.Request, error) {
	got, err := s.Store.CreateRequest(ctx, r)
	if err == nil && s.crash {
		panic(errCrashed)
	}
	return got, err
}

func (s *crashingStore) PostMessage(ctx context.Context, p store.PostMessage) (store.Message, store.Request, error) {
	m, r, err := s.Store.PostMessage(ctx, p)
	if err == nil && s.crash {
		panic(errCrashed)
	}
	return m, r, err
}

// TestIdempotentRetryAfterACrashReplays: a crash between the write's
// commit and saving its answer leaves the write recorded on the key (in
// the write's own transaction), so a retry long after the claim went
// stale replays the write instead of writing twice.
func TestIdempotentRetryAfterACrashReplays(t *testing.T) {
	t.Parallel()
	cs := &crashingStore{}
	e := newEnv(t, func(c *server.Config) { cs.Store = c.Store; c.Store = cs })
	falcon, row := e.deal("falcon"), e.row("falcon/2.1")
	olivia := e.as(t, "olivia-write")
	before := olivia.get(requestsPath(falcon)).want(http.StatusOK).requests()
	msgsBefore := olivia.get(messagesPath(falcon, row)).want(http.StatusOK).messages()

	cs.crash = true
	olivia.post(requestsPath(falcon), map[string]any{"title": "Once only"}, header("Idempotency-Key: crash-1")).want(http.StatusInternalServerError)
	olivia.post(messagesPath(falcon, row), map[string]any{"text": "once"}, header("Idempotency-Key: crash-2")).want(http.StatusInternalServerError)
	cs.crash = false
	e.clock.Advance(10 * time.Minute) // far past the claim's stale limit

	created := olivia.post(requestsPath(falcon), map[string]any{"title": "Once only"}, header("Idempotency-Key: crash-1")).want(http.StatusCreated)
	posted := olivia.post(messagesPath(falcon, row), map[string]any{"text": "once"}, header("Idempotency-Key: crash-2")).want(http.StatusCreated)
	for _, r := range []*resp{created, posted} {
		if r.header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("%s: the retry was not a replay", r.path)
		}
	}
	if got := created.request(); got.Title != "Once only" {
		t.Errorf("replayed request %+v", got)
	}
	if got := posted.message(); got.Text != "once" || got.Source != api.SourceAPI {
		t.Errorf("replayed message %+v", got)
	}
	if after := olivia.get(requestsPath(falcon)).want(http.StatusOK).requests(); len(after) != len(before)+1 {
		t.Errorf("%d rows after a crash and a retry, want %d: written twice or not at all", len(after), len(before)+1)
	}
	if after := olivia.get(messagesPath(falcon, row)).want(http.StatusOK).messages(); len(after) != len(msgsBefore)+1 {
		t.Errorf("%d messages after a crash and a retry, want %d", len(after), len(msgsBefore)+1)
	}
	// Once replayed, the same answer again (now from the saved body or
	// rebuilt, it is the same resource).
	again := olivia.post(requestsPath(falcon), map[string]any{"title": "Once only"}, header("Idempotency-Key: crash-1")).want(http.StatusCreated)
	if again.request().ID != created.request().ID {
		t.Errorf("second replay %s, want %s", again.request().ID, created.request().ID)
	}
}
