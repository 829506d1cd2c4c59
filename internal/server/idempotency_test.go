package server_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// TestIdempotencyKeyReplaysTheFirstAnswer covers the Idempotency-Key
// extension: a repeated POST within 24 h replays the first answer and
// writes nothing; the key is the caller's own and bound to its path.
func TestIdempotencyKeyReplaysTheFirstAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, row := e.deal("falcon"), e.row("falcon/2.1")
	olivia := e.as(t, "olivia-write")
	idem := header("Idempotency-Key: import-42")

	first := olivia.post(requestsPath(falcon), map[string]any{"title": "Once"}, idem).want(http.StatusCreated)
	e.clock.Advance(time.Hour)
	again := olivia.post(requestsPath(falcon), map[string]any{"title": "Once"}, idem).want(http.StatusCreated)
	if string(again.body) != string(first.body) {
		t.Errorf("replay differs:\n%s\n%s", first.body, again.body)
	}
	// The ETag too, which the document declares on every 201 of a row,
	// and which still validates the row, unchanged since.
	if tag := again.header.Get("ETag"); tag == "" || tag != first.header.Get("ETag") {
		t.Errorf("replay's ETag %q, want the first answer's %q", tag, first.header.Get("ETag"))
	}
	olivia.get(requestPath(falcon, first.request().ID), header("If-None-Match: "+again.header.Get("ETag"))).want(http.StatusNotModified)
	if rows := olivia.get(requestsPath(falcon)).want(http.StatusOK).requests(); len(rows) != 11 {
		t.Errorf("%d rows after a replayed create, want 11", len(rows))
	}
	// The same key on another path is a mistake, not a replay.
	olivia.post(messagesPath(falcon, row), map[string]any{"text": "x"}, idem).wantErr(http.StatusConflict, api.CodeConflict, "")
	// Another key's Idempotency-Key space is its own.
	e.as(t, "oscar-write").post(requestsPath(falcon), map[string]any{"title": "Twice"}, idem).want(http.StatusCreated)
	// Failures are not kept.
	msgIdem := header("Idempotency-Key: answer-1")
	e.as(t, "ben-write").post(messagesPath(falcon, row), map[string]any{"text": " "}, msgIdem).wantErr(http.StatusBadRequest, api.CodeBadRequest, api.ReasonEmptyMessage)
	m := e.as(t, "ben-write").post(messagesPath(falcon, row), map[string]any{"text": "real"}, msgIdem).want(http.StatusCreated).message()
	if r := e.as(t, "ben-write").post(messagesPath(falcon, row), map[string]any{"text": "real"}, msgIdem).want(http.StatusCreated).message(); r.ID != m.ID {
		t.Errorf("replayed message %s, want %s", r.ID, m.ID)
	}
	if msgs := olivia.get(messagesPath(falcon, row)).want(http.StatusOK).messages(); len(msgs) != 1 {
		t.Errorf("%d messages, want 1", len(msgs))
	}
	// After 24 hours the key is forgotten.
	e.clock.Advance(24 * time.Hour)
	later := olivia.post(requestsPath(falcon), map[string]any{"title": "Once"}, idem).want(http.StatusCreated).request()
	if later.ID == first.request().ID {
		t.Error("a key older than 24 hours was replayed")
	}
}
