package server_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// TestConditionalReads: lists, conversations and single rows carry a
// strong ETag; a matching If-None-Match is 304 without a body; callers who
// see different content get different ETags; a write changes them.
func TestConditionalReads(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/1.1")
	reads := map[string]string{
		"list":     requestsPath(falcon),
		"messages": messagesPath(falcon, id),
		"request":  requestPath(falcon, id),
		"filtered": requestsPath(falcon) + "?status=open",
	}
	for name, path := range reads {
		t.Run(name, func(t *testing.T) {
			olivia, bella := e.as(t, "olivia-write"), e.as(t, "bella-write")
			first := olivia.get(path).want(http.StatusOK)
			etag := first.header.Get("ETag")
			if etag == "" || etag[0] != '"' {
				t.Fatalf("ETag %q, want a strong validator", etag)
			}
			again := olivia.get(path).want(http.StatusOK)
			if again.header.Get("ETag") != etag || string(again.body) != string(first.body) {
				t.Errorf("two reads of an unchanged resource differ")
			}
			nm := olivia.get(path, header("If-None-Match: "+etag)).want(http.StatusNotModified)
			if len(nm.body) != 0 || nm.header.Get("ETag") != etag {
				t.Errorf("304 has a %d-byte body and ETag %q", len(nm.body), nm.header.Get("ETag"))
			}
			olivia.get(path, header(`If-None-Match: "other", `+etag)).want(http.StatusNotModified)
			olivia.get(path, header(`If-None-Match: "stale"`)).want(http.StatusOK)

			// The other side sees other content, so another validator,
			// and the owner's ETag does not answer it 304.
			theirs := bella.get(path).want(http.StatusOK)
			if theirs.header.Get("ETag") == etag {
				t.Errorf("owner and counterparty share the ETag %s", etag)
			}
			bella.get(path, header("If-None-Match: "+etag)).want(http.StatusOK)
			// So do the owner's viewer (other can flags) and a read key.
			for _, key := range []string{"owen-write", "olivia-read"} {
				if r := e.as(t, key).get(path).want(http.StatusOK); r.header.Get("ETag") == etag {
					t.Errorf("%s shares olivia-write's ETag though its can flags differ", key)
				}
			}

			// A write the resource shows changes its ETag.
			e.clock.Advance(time.Minute)
			e.as(t, "ben-write").post(messagesPath(falcon, id), map[string]any{"text": "new answer " + name, "partial": true}).want(http.StatusCreated)
			after := olivia.get(path, header("If-None-Match: "+etag)).want(http.StatusOK)
			if after.header.Get("ETag") == etag {
				t.Errorf("ETag unchanged after a new message")
			}
			olivia.get(path, header("If-None-Match: "+after.header.Get("ETag"))).want(http.StatusNotModified)
		})
	}

	// Edits and creations change the list's and the row's ETags.
	olivia := e.as(t, "olivia-write")
	list := olivia.get(requestsPath(falcon)).want(http.StatusOK).header.Get("ETag")
	row := olivia.get(requestPath(falcon, e.row("falcon/2.1"))).want(http.StatusOK).header.Get("ETag")
	e.clock.Advance(time.Minute)
	olivia.patch(requestPath(falcon, e.row("falcon/2.1")), map[string]any{"title": "Renamed"}).want(http.StatusOK)
	if olivia.get(requestsPath(falcon), header("If-None-Match: "+list)).want(http.StatusOK).header.Get("ETag") == list {
		t.Error("list ETag unchanged after an edit")
	}
	olivia.get(requestPath(falcon, e.row("falcon/2.1")), header("If-None-Match: "+row)).want(http.StatusOK)
	list = olivia.get(requestsPath(falcon)).want(http.StatusOK).header.Get("ETag")
	olivia.post(requestsPath(falcon), map[string]any{"title": "New"}).want(http.StatusCreated)
	olivia.get(requestsPath(falcon), header("If-None-Match: "+list)).want(http.StatusOK)
}

// TestRowETagChangesWithEveryWriteItShows guards the single-row ETag,
// which is built from updated_at rather than the deal's version: a post
// at the same instant as the last write must still change it.
func TestRowETagChangesWithEveryWriteItShows(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	id := e.as(t, "olivia-write").post(requestsPath(falcon), map[string]any{"title": "Fresh"}).want(http.StatusCreated).request().ID
	bella := e.as(t, "bella-write")
	etag := bella.get(requestPath(falcon, id)).want(http.StatusOK).header.Get("ETag")
	// The clock does not move: the post lands in the same instant.
	bella.post(messagesPath(falcon, id), map[string]any{"text": "answer", "update_status": false}).want(http.StatusCreated)
	r := bella.get(requestPath(falcon, id), header("If-None-Match: "+etag))
	if r.status == http.StatusNotModified {
		t.Fatalf("a new answer left the row's ETag as it was: the caller would keep a row without its latest_answer")
	}
	if got := r.want(http.StatusOK).request(); got.LatestAnswer == nil {
		t.Errorf("latest_answer is null after an answer")
	}
}

// A PATCH that sets no field changes nothing, so it writes nothing: no new
// updated_at, no new deal version for every cache to miss on. Its If-Match
// is still answered.
func TestEmptyPatchWithIfMatchWritesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/2.1")
	olivia := e.as(t, "olivia-write")
	read := olivia.get(requestPath(falcon, id)).want(http.StatusOK)
	etag, before := read.header.Get("ETag"), read.request()
	listETag := olivia.get(requestsPath(falcon)).want(http.StatusOK).header.Get("ETag")

	e.clock.Advance(time.Minute)
	for _, ifMatch := range []string{etag, "*"} {
		r := olivia.patch(requestPath(falcon, id), map[string]any{}, header("If-Match: "+ifMatch)).want(http.StatusOK)
		if got := r.request(); !got.UpdatedAt.Equal(before.UpdatedAt) || got.Title != before.Title {
			t.Errorf("If-Match %s: empty PATCH answered %+v, want the row as it was", ifMatch, got)
		}
		if r.header.Get("ETag") != etag {
			t.Errorf("If-Match %s: empty PATCH answered ETag %q, want the unchanged %q", ifMatch, r.header.Get("ETag"), etag)
		}
	}
	olivia.get(requestPath(falcon, id), header("If-None-Match: "+etag)).want(http.StatusNotModified)
	olivia.get(requestsPath(falcon), header("If-None-Match: "+listETag)).want(http.StatusNotModified)

	// A stale If-Match is refused as it would be with a field set.
	e.clock.Advance(time.Minute)
	olivia.patch(requestPath(falcon, id), map[string]any{"title": "Changed"}).want(http.StatusOK)
	olivia.patch(requestPath(falcon, id), map[string]any{}, header("If-Match: "+etag)).
		wantErr(http.StatusConflict, api.CodeConflictStale, "if_match_failed")
}

func TestIfMatchStaleIs409(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/2.1")
	olivia, oscar := e.as(t, "olivia-write"), e.as(t, "oscar-write")
	read := olivia.get(requestPath(falcon, id)).want(http.StatusOK)
	etag := read.header.Get("ETag")

	e.clock.Advance(time.Minute)
	ok := olivia.patch(requestPath(falcon, id), map[string]any{"title": "First"}, header("If-Match: "+etag)).want(http.StatusOK)
	if ok.header.Get("ETag") == "" || ok.header.Get("ETag") == etag {
		t.Errorf("PATCH answered ETag %q, want the row's new one", ok.header.Get("ETag"))
	}
	e.clock.Advance(time.Minute)
	// A second writer with the old ETag is refused and changes nothing.
	olivia.patch(requestPath(falcon, id), map[string]any{"title": "Second"}, header("If-Match: "+etag)).
		wantErr(http.StatusConflict, api.CodeConflictStale, "")
	olivia.patch(requestPath(falcon, id), map[string]any{"status": "complete"}, header("If-Match: "+etag)).
		wantErr(http.StatusConflict, api.CodeConflictStale, "")
	got := olivia.get(requestPath(falcon, id)).want(http.StatusOK).request()
	if got.Title != "First" || got.Status != api.StatusOpen {
		t.Errorf("a stale PATCH changed the row: %+v", got)
	}
	// The ETag the PATCH answered is good for the next one.
	olivia.patch(requestPath(falcon, id), map[string]any{"title": "Third"}, header("If-Match: "+ok.header.Get("ETag"))).want(http.StatusOK)
	// A change by someone else (a message) makes an ETag stale too.
	cur := oscar.get(requestPath(falcon, id)).want(http.StatusOK).header.Get("ETag")
	e.clock.Advance(time.Minute)
	e.as(t, "ben-write").post(messagesPath(falcon, id), map[string]any{"text": "x", "kind": "question"}).want(http.StatusCreated)
	oscar.patch(requestPath(falcon, id), map[string]any{"priority": "high"}, header("If-Match: "+cur)).
		wantErr(http.StatusConflict, api.CodeConflictStale, "")
}
