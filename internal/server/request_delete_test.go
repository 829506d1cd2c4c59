package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

func (c *client) delete(path string, headers ...header) *resp {
	c.t.Helper()
	return c.do(http.MethodDelete, path, nil, headers...)
}

// TestDeleteRequestPermissions: only the owning side's admins and editors
// delete, only what has no messages and nothing under it; everyone else
// gets the contract's answer and the row stays. The API suite runs again
// on PostgreSQL (TestAPISuiteOnPostgres).
func TestDeleteRequestPermissions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	r12 := requestPath(falcon, e.row("falcon/1.2"))
	for _, tc := range []struct {
		key    string
		path   string
		status int
		code   api.ErrorCode
		reason string
	}{
		{"bella-write", r12, 403, api.CodeForbidden, api.ReasonCannotDeleteRequest},                              // counterparty admin
		{"ben-write", r12, 403, api.CodeForbidden, api.ReasonCannotDeleteRequest},                                // counterparty editor
		{"owen-write", r12, 403, api.CodeForbidden, api.ReasonCannotDeleteRequest},                               // owning side's viewer
		{"olivia-read", r12, 403, api.CodeForbidden, api.ReasonReadOnlyKey},                                      // read key
		{"carl-write", r12, 404, api.CodeNotFound, ""},                                                           // not on the deal
		{"olivia-write", requestPath(falcon, e.row("falcon/1.1")), 409, api.CodeConflict, api.ReasonHasMessages}, // answered
		{"olivia-write", requestPath(falcon, e.row("falcon/2")), 409, api.CodeConflict, api.ReasonHasChildren},   // section with rows
		{"olivia-write", requestPath(e.deal("heron"), e.row("heron/1.1")), 403, api.CodeForbidden, api.ReasonDealArchived},
		{"olivia-write", requestPath(falcon, "00000000-0000-7000-8000-000000000000"), 404, api.CodeNotFound, ""},
	} {
		e.as(t, tc.key).delete(tc.path).wantErr(tc.status, tc.code, tc.reason)
	}
	olivia := e.as(t, "olivia-write")
	olivia.get(r12).want(http.StatusOK)
	olivia.get(requestPath(falcon, e.row("falcon/1.1"))).want(http.StatusOK)
	olivia.get(requestPath(falcon, e.row("falcon/2"))).want(http.StatusOK)
}

// TestDeleteRequest: a deletion removes the row from every read, moves
// the list's ETag, honours If-Match, and leaves a request.deleted event
// that carries every field of the row.
func TestDeleteRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	r12 := requestPath(falcon, e.row("falcon/1.2"))
	before := olivia.get(r12).want(http.StatusOK)
	olivia.patch(r12, map[string]any{"body": "Certified copy.", "requester": "Lex & Co", "due_date": "2027-05-01"}).want(http.StatusOK)
	olivia.delete(r12, header("If-Match: "+before.header.Get("ETag"))).wantErr(409, api.CodeConflictStale, "if_match_failed")

	list := olivia.get(requestsPath(falcon)).want(http.StatusOK)
	row := olivia.get(r12).want(http.StatusOK)
	olivia.delete(r12, header("If-Match: "+row.header.Get("ETag"))).want(http.StatusNoContent)
	olivia.get(r12).wantErr(404, api.CodeNotFound, "")
	olivia.get(requestsPath(falcon), header("If-None-Match: "+list.header.Get("ETag"))).want(http.StatusOK)
	for _, r := range olivia.get(requestsPath(falcon)).requests() {
		if r.Number == "1.2" {
			t.Fatalf("1.2 is still listed after its deletion: %+v", r)
		}
	}
	// An empty section goes too, by an editor.
	e.as(t, "oscar-write").delete(requestPath(falcon, e.row("falcon/10"))).want(http.StatusNoContent)

	evs := olivia.get(eventsPath(falcon, "limit=1000")).want(http.StatusOK).events()
	var got *api.RequestDeletedData
	for _, ev := range evs {
		if ev.Type == api.EventRequestDeleted && ev.RequestID != nil && *ev.RequestID == e.row("falcon/1.2") {
			got = new(api.RequestDeletedData)
			if err := json.Unmarshal(ev.Data, got); err != nil {
				t.Fatal(err)
			}
			if ev.Actor == nil || ev.Actor.Email != "olivia@target.example" {
				t.Errorf("deletion's actor %+v, want Olivia", ev.Actor)
			}
		}
	}
	if got == nil {
		t.Fatal("no request.deleted event for 1.2")
	}
	want := api.RequestDeletedData{Number: "1.2", Kind: api.KindRequest, Title: "Articles of association", Body: "Certified copy.",
		Status: api.StatusPartial, Priority: got.Priority, Category: got.Category, Requester: ptr("Lex & Co"), DueDate: ptr("2027-05-01")}
	if got.Number != want.Number || got.Kind != want.Kind || got.Title != want.Title || got.Body != want.Body || got.Status != want.Status ||
		got.Requester == nil || *got.Requester != *want.Requester || got.DueDate == nil || *got.DueDate != *want.DueDate ||
		got.ParentID == nil || *got.ParentID != e.row("falcon/1") || got.Priority == "" || got.Category == "" {
		t.Errorf("request.deleted data %+v, want %+v under section 1", got, want)
	}
}

// TestEditEventsCarryOldValues: request.edited says what each changed
// field held before and after, in full; the other events their from and
// to.
func TestEditEventsCarryOldValues(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	r12 := requestPath(falcon, e.row("falcon/1.2"))
	long := "Line one\n\nLine two — with ünïcode and a long tail " + strings.Repeat("x", 5000)
	olivia.patch(r12, map[string]any{"title": "Articles, as amended", "body": long, "priority": "high", "requester": "Lex & Co"}).want(http.StatusOK)
	olivia.patch(r12, map[string]any{"requester": nil, "title": "Articles of association"}).want(http.StatusOK)

	var edits []api.RequestEditedData
	for _, ev := range olivia.get(eventsPath(falcon, "limit=1000")).want(http.StatusOK).events() {
		if ev.Type == api.EventRequestEdited && *ev.RequestID == e.row("falcon/1.2") {
			var d api.RequestEditedData
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				t.Fatal(err)
			}
			edits = append(edits, d)
		}
	}
	if len(edits) != 2 {
		t.Fatalf("%d edit events, want 2", len(edits))
	}
	first, second := edits[0].Changes, edits[1].Changes
	check := func(c map[string]api.FieldChange, field string, from, to *string) {
		t.Helper()
		got, ok := c[field]
		if !ok {
			t.Errorf("changes has no %s: %+v", field, c)
			return
		}
		if !samePtr(got.From, from) || !samePtr(got.To, to) {
			t.Errorf("%s: from %v to %v, want from %v to %v", field, str(got.From), str(got.To), str(from), str(to))
		}
	}
	check(first, "title", ptr("Articles of association"), ptr("Articles, as amended"))
	check(first, "body", ptr(""), ptr(long))
	check(first, "priority", ptr("medium"), ptr("high"))
	check(first, "requester", nil, ptr("Lex & Co"))
	check(second, "requester", ptr("Lex & Co"), nil)
	check(second, "title", ptr("Articles, as amended"), ptr("Articles of association"))
	if len(first) != len(edits[0].Fields) {
		t.Errorf("changes %v and fields %v name different fields", first, edits[0].Fields)
	}
}

// TestBatchHeaderMarksEvents: the events of a write that names a batch
// carry it; a malformed batch is refused before anything is written.
func TestBatchHeaderMarksEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	created := olivia.post(requestsPath(falcon), map[string]any{"title": "From the sheet"}, header(api.BatchHeader+": run-1.a_B")).want(http.StatusCreated).request()
	olivia.patch(requestPath(falcon, created.ID), map[string]any{"title": "Edited by hand"}).want(http.StatusOK)
	olivia.post(requestsPath(falcon), map[string]any{"title": "Refused"}, header(api.BatchHeader+": no spaces")).wantErr(400, api.CodeBadRequest, api.ReasonInvalidBatch)

	var batches []string
	for _, ev := range olivia.get(eventsPath(falcon, "limit=1000")).want(http.StatusOK).events() {
		if ev.RequestID == nil || *ev.RequestID != created.ID {
			continue
		}
		var d struct {
			Batch string `json:"batch"`
			Title string `json:"title"`
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatal(err)
		}
		batches = append(batches, string(ev.Type)+":"+d.Batch)
	}
	want := []string{"request.created:run-1.a_B", "request.edited:"}
	if len(batches) != len(want) || batches[0] != want[0] || batches[1] != want[1] {
		t.Errorf("events %v, want %v", batches, want)
	}
	for _, r := range olivia.get(requestsPath(falcon)).requests() {
		if r.Title == "Refused" {
			t.Error("a write with a malformed batch was made")
		}
	}
}

func ptr(s string) *string { return &s }

func str(p *string) string {
	if p == nil {
		return "null"
	}
	return "\"" + *p + "\""
}

func samePtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
