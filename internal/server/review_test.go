package server_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/dealctl/dealctl/internal/server"
)

// TestIdempotencyKeyRace: many calls with one Idempotency-Key at once
// write once; the others replay the answer or are told the first is still
// running (409 idempotency_in_progress), never a second write.
func TestIdempotencyKeyRace(t *testing.T) {
	e := newEnv(t)
	falcon, row := e.deal("falcon"), e.row("falcon/2.1")
	idem := header("Idempotency-Key: race-1")
	var wg sync.WaitGroup
	statuses := make(chan int, 30)
	for range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses <- e.as(t, "ben-write").post(messagesPath(falcon, row), map[string]any{"text": "once", "partial": true}, idem).status
		}()
	}
	wg.Wait()
	close(statuses)
	for st := range statuses {
		if st != http.StatusCreated && st != http.StatusConflict {
			t.Errorf("a racing call answered %d", st)
		}
	}
	if msgs := e.as(t, "olivia-write").get(messagesPath(falcon, row)).want(http.StatusOK).messages(); len(msgs) != 1 {
		t.Fatalf("%d messages written by 30 calls with one Idempotency-Key, want 1", len(msgs))
	}
}

// TestUpperCaseIDs: a UUID in upper case names the same deal and request.
func TestUpperCaseIDs(t *testing.T) {
	e := newEnv(t)
	falcon, row := e.deal("falcon"), e.row("falcon/2.1")
	got := e.as(t, "olivia-write").get(requestPath(strings.ToUpper(falcon), strings.ToUpper(row))).want(http.StatusOK).request()
	if got.ID != row {
		t.Errorf("got %s, want %s", got.ID, row)
	}
}

// TestMethodNotAllowedAdvertisesExtensions: every API answer names the
// extensions, the 405 too.
func TestMethodNotAllowedAdvertisesExtensions(t *testing.T) {
	e := newEnv(t)
	r := e.as(t, "olivia-write").do(http.MethodDelete, "/api/v1/deals/"+e.deal("falcon"), nil).want(http.StatusMethodNotAllowed)
	if got := r.header.Get(server.ExtensionsHeader); got != server.Extensions {
		t.Errorf("%s = %q on a 405", server.ExtensionsHeader, got)
	}
}
