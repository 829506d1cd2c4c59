package server_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// TestInvalidTextIsRefused: invalid UTF-8 and lone surrogate escapes in
// any JSON string are 400 malformed_json, never replaced with U+FFFD and
// stored.
func TestInvalidTextIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, row := e.deal("falcon"), e.row("falcon/2.1")
	olivia := e.as(t, "olivia-write")
	before := len(olivia.get(requestsPath(falcon)).want(http.StatusOK).requests())
	msgsBefore := len(olivia.get(messagesPath(falcon, row)).want(http.StatusOK).messages())
	bodies := map[string]string{
		"invalid UTF-8":           "{\"title\": \"a\xff\xfeb\"}",
		"UTF-8 encoded surrogate": "{\"title\": \"a\xed\xa0\x80b\"}",
		"lone high surrogate":     `{"title": "a\ud800b"}`,
		"high surrogate at end":   `{"title": "a\ud800"}`,
		"lone low surrogate":      `{"title": "a\udc00b"}`,
		"two highs":               `{"title": "\ud800\ud800"}`,
		"in an unknown field":     `{"title": "ok", "x": ["\udfff"]}`,
		"in a field name":         "{\"ti\xfftle\": \"ok\"}",
		"a raw control character": "{\"title\": \"a\x01b\"}",
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			olivia.post(requestsPath(falcon), body).wantErr(http.StatusBadRequest, api.CodeBadRequest, "malformed_json")
			olivia.post(messagesPath(falcon, row), strings.Replace(body, "title", "text", 1)).wantErr(http.StatusBadRequest, api.CodeBadRequest, "malformed_json")
			olivia.patch(requestPath(falcon, row), body).wantErr(http.StatusBadRequest, api.CodeBadRequest, "malformed_json")
		})
	}
	if n := len(olivia.get(requestsPath(falcon)).want(http.StatusOK).requests()); n != before {
		t.Errorf("%d rows after refused bodies, want %d", n, before)
	}
	if n := len(olivia.get(messagesPath(falcon, row)).want(http.StatusOK).messages()); n != msgsBefore {
		t.Errorf("%d messages after refused bodies, want %d", n, msgsBefore)
	}
	// A proper pair is a character like any other.
	got := olivia.post(requestsPath(falcon), `{"title": "clef \ud834\udd1e"}`).want(http.StatusCreated).request()
	if got.Title != "clef 𝄞" {
		t.Errorf("title %q, want the surrogate pair decoded", got.Title)
	}
}

// TestDeepBodiesAreRefused: nesting is bounded, in unknown fields too.
func TestDeepBodiesAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	deep := `{"title": "x", "extra": ` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`
	e.as(t, "olivia-write").post(requestsPath(falcon), deep).wantErr(http.StatusBadRequest, api.CodeBadRequest, "nesting_too_deep")
	fine := `{"title": "x", "extra": ` + strings.Repeat("[", 10) + strings.Repeat("]", 10) + `}`
	e.as(t, "olivia-write").post(requestsPath(falcon), fine).want(http.StatusCreated)
}

// TestTooManyLinksAreCountedNotDecoded: a body of far more links than a
// message may carry is a 422 too_many for a caller who may post.
func TestTooManyLinksAreCountedNotDecoded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, row := e.deal("falcon"), e.row("falcon/2.1")
	e.as(t, "ben-write").unvalidated().post(messagesPath(falcon, row), hostileLinks(api.MaxRequestBody-64)).
		want(http.StatusUnprocessableEntity).wantField("links", api.FieldTooMany)
}

// hostileLinks is a body of about size bytes: {"links":[{},{},…]}.
func hostileLinks(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"links":[{}`)
	for b.Len() < size-4 {
		b.WriteString(`,{}`)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// TestUpperCaseIDsInBodies: ids in bodies name the same rows in either
// case, as ids in paths do.
func TestUpperCaseIDsInBodies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	section, bella := e.row("falcon/2"), e.person("falcon/bella")
	olivia := e.as(t, "olivia-write")
	created := olivia.post(requestsPath(falcon), map[string]any{
		"title": "Upper", "parent_id": strings.ToUpper(section), "assignee_id": strings.ToUpper(bella),
	}).want(http.StatusCreated).request()
	if created.ParentID == nil || *created.ParentID != section || created.AssigneeID == nil || *created.AssigneeID != bella {
		t.Fatalf("parent %v, assignee %v; want %s, %s in lower case", created.ParentID, created.AssigneeID, section, bella)
	}
	patched := olivia.patch(requestPath(falcon, created.ID), map[string]any{"assignee_id": strings.ToUpper(e.person("falcon/ben"))}).
		want(http.StatusOK).request()
	if patched.AssigneeID == nil || *patched.AssigneeID != e.person("falcon/ben") {
		t.Errorf("assignee after PATCH %v, want ben's id in lower case", patched.AssigneeID)
	}
	// The filter takes them too.
	rows := olivia.get(requestsPath(falcon) + "?assignee_id=" + strings.ToUpper(e.person("falcon/ben"))).want(http.StatusOK).requests()
	find(t, rows, created.Number)
}

// TestListFilterCacheIsKeyedOnTheParsedFilter: a query whose raw text
// would collide with another filter's gets its own ETag and body.
func TestListFilterCacheIsKeyedOnTheParsedFilter(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	olivia.post(requestsPath(falcon), map[string]any{"title": "Unassigned legal", "category": "legal"}).want(http.StatusCreated)
	// One bad value in a single assignee_id parameter: 422, not a filter.
	olivia.get(requestsPath(falcon)+"?assignee_id="+url.QueryEscape("none&category=legal")).
		want(http.StatusUnprocessableEntity).wantField("assignee_id", api.FieldUnknownValue)
	legal := olivia.get(requestsPath(falcon) + "?assignee_id=none&category=legal").want(http.StatusOK)
	if n := countRequests(legal.requests()); n == 0 {
		t.Fatal("no unassigned legal request listed")
	}
	// Spellings of one filter share an ETag; other filters do not.
	same := olivia.get(requestsPath(falcon) + "?category=legal&assignee_id=none,none").want(http.StatusOK)
	if same.header.Get("ETag") != legal.header.Get("ETag") {
		t.Errorf("one filter, two ETags: %s, %s", legal.header.Get("ETag"), same.header.Get("ETag"))
	}
	other := olivia.get(requestsPath(falcon) + "?assignee_id=none").want(http.StatusOK)
	if other.header.Get("ETag") == legal.header.Get("ETag") {
		t.Error("two filters share an ETag")
	}
}

func countRequests(rows []api.DealRequest) int {
	n := 0
	for _, r := range rows {
		if r.Kind == api.KindRequest {
			n++
		}
	}
	return n
}

// TestBadAssigneeFilterIs422: like every other bad filter value.
func TestBadAssigneeFilterIs422(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	for _, q := range []string{"bogus", "none,bogus", "0190a6e2-0000-7000-8000-00000000000"} {
		e.as(t, "olivia-write").get(requestsPath(falcon)+"?assignee_id="+q).
			want(http.StatusUnprocessableEntity).wantField("assignee_id", api.FieldUnknownValue)
	}
}

// TestUnjoinedPeopleReachNothing: a person invited to a deal who has not
// joined it is listed among its people, but their key does not reach it.
func TestUnjoinedPeopleReachNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, row := e.deal("falcon"), e.row("falcon/2.1")
	bruno := e.as(t, "bruno-write")
	var deals []api.Deal
	bruno.get("/api/v1/deals").want(http.StatusOK).into(&deals)
	if len(deals) != 0 {
		t.Errorf("bruno, who never joined, lists %d deals", len(deals))
	}
	bruno.get(dealPath(falcon)).wantErr(http.StatusNotFound, api.CodeNotFound, "")
	bruno.get(requestsPath(falcon)).wantErr(http.StatusNotFound, api.CodeNotFound, "")
	bruno.get(messagesPath(falcon, row)).wantErr(http.StatusNotFound, api.CodeNotFound, "")
	bruno.post(messagesPath(falcon, row), map[string]any{"text": "hello"}).wantErr(http.StatusNotFound, api.CodeNotFound, "")
	bruno.patch(requestPath(falcon, row), map[string]any{"status": "complete"}).wantErr(http.StatusNotFound, api.CodeNotFound, "")
	bruno.post(linkPath(falcon, e.fileID("falcon/1.1/0/file/0")), nil).wantErr(http.StatusNotFound, api.CodeNotFound, "")
	// Still one of the deal's people, and assignable: invitations are
	// worked on before they are accepted.
	brunoID := e.person("falcon/bruno")
	e.as(t, "olivia-write").patch(requestPath(falcon, row), map[string]any{"assignee_id": brunoID}).want(http.StatusOK)
	// /me still answers: the key is valid.
	bruno.get("/api/v1/me").want(http.StatusOK)
}
