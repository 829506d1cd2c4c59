package server_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// TestIdempotencyKeyRace: many calls with one Idempotency-Key at once
// write once; the others replay the answer or are told the first is still
// running (409 idempotency_in_progress), never a second write.
func TestIdempotencyKeyRace(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	e := newEnv(t)
	r := e.as(t, "olivia-write").do(http.MethodDelete, "/api/v1/deals/"+e.deal("falcon"), nil).want(http.StatusMethodNotAllowed)
	if got := r.header.Get(api.ExtensionsHeader); got != api.ServerExtensions {
		t.Errorf("%s = %q on a 405", api.ExtensionsHeader, got)
	}
}

// TestInternalNoteLeavesNoTrace: the owning side's internal note changes
// nothing the counterparty can observe — not the row's updated_at, not
// the list's, the row's or the conversation's ETag — while the owner's
// own ETags do change.
func TestInternalNoteLeavesNoTrace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, row := e.deal("falcon"), e.row("falcon/2.1")
	ben, olivia := e.as(t, "ben-write"), e.as(t, "olivia-write")
	paths := []string{requestsPath(falcon), requestPath(falcon, row), messagesPath(falcon, row)}
	benTags, oliviaTags := map[string]string{}, map[string]string{}
	for _, p := range paths {
		benTags[p] = ben.get(p).want(http.StatusOK).header.Get("ETag")
		oliviaTags[p] = olivia.get(p).want(http.StatusOK).header.Get("ETag")
	}
	before := ben.get(requestPath(falcon, row)).want(http.StatusOK).request()
	e.clock.Advance(time.Minute)
	olivia.post(messagesPath(falcon, row), map[string]any{"text": "between us", "kind": "internal_note"}).want(http.StatusCreated)
	for _, p := range paths {
		ben.get(p, header("If-None-Match: "+benTags[p])).want(http.StatusNotModified)
		olivia.get(p, header("If-None-Match: "+oliviaTags[p])).want(http.StatusOK)
	}
	if after := ben.get(requestPath(falcon, row)).want(http.StatusOK).request(); !after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Errorf("updated_at moved from %v to %v for the counterparty", before.UpdatedAt, after.UpdatedAt)
	}
	since := before.UpdatedAt.Add(time.Second).Format(time.RFC3339Nano)
	for _, r := range ben.get(requestsPath(falcon) + "?updated_since=" + since).want(http.StatusOK).requests() {
		if r.ID == row {
			t.Errorf("updated_since lists %s to the counterparty after an internal note", r.Number)
		}
	}
}

// A file an administrator attaches to the owning side's internal note
// (dealctl admin files attach) leaves no trace for the counterparty
// either, while a file on a shared message does move its ETags.
func TestFileOnInternalNoteLeavesNoTrace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, row := e.deal("falcon"), e.row("falcon/1.1")
	ben, olivia := e.as(t, "ben-write"), e.as(t, "olivia-write")
	var internalNote, shared string
	for _, m := range olivia.get(messagesPath(falcon, row)).want(http.StatusOK).messages() {
		switch {
		case m.Kind == api.MessageInternalNote:
			internalNote = m.ID
		case !m.Internal && shared == "":
			shared = m.ID
		}
	}
	if internalNote == "" || shared == "" {
		t.Fatal("the world has no internal note and shared message on falcon/1.1")
	}
	paths := []string{requestsPath(falcon), requestPath(falcon, row), messagesPath(falcon, row)}
	tags := map[string]string{}
	for _, p := range paths {
		tags[p] = ben.get(p).want(http.StatusOK).header.Get("ETag")
	}
	attach := func(messageID string) {
		t.Helper()
		name := "attached.txt"
		if _, err := e.st.AttachFile(context.Background(), store.File{DealID: falcon, MessageID: messageID, Name: &name, Scanned: true}, []byte("notes")); err != nil {
			t.Fatal(err)
		}
	}
	e.clock.Advance(time.Minute)
	attach(internalNote)
	for _, p := range paths {
		ben.get(p, header("If-None-Match: "+tags[p])).want(http.StatusNotModified)
	}
	attach(shared)
	for _, p := range paths {
		ben.get(p, header("If-None-Match: "+tags[p])).want(http.StatusOK)
	}
}

// TestEveryWrongTypeIsNamed: one 422 names every field of the wrong JSON
// type, with the index of a bad link.
func TestEveryWrongTypeIsNamed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	r := olivia.post(requestsPath(falcon), map[string]any{"title": 5, "body": 6, "kind": true}).want(http.StatusUnprocessableEntity)
	for _, path := range []string{"title", "body", "kind"} {
		r.wantField(path, api.FieldInvalid)
	}
	row := e.row("falcon/2.1")
	olivia.post(messagesPath(falcon, row), map[string]any{"text": "x", "links": []any{map[string]any{"url": "https://a.example/"}, map[string]any{"url": 5}}}).
		want(http.StatusUnprocessableEntity).wantField("links[1].url", api.FieldInvalid)
}
