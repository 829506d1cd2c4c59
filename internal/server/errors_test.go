package server_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// TestSpecErrorCases walks the error table of docs/api.md#errors with the code and
// reason docs/decisions.md gives each named condition. (429 has its own test in
// auth_test.go: it needs a small rate limit.)
func TestSpecErrorCases(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	open, complete, section := e.row("falcon/2.1"), e.row("falcon/1.3"), e.row("falcon/2")
	cases := []struct {
		name         string
		key          string
		method, path string
		body         any
		status       int
		code         api.ErrorCode
		reason       string
	}{
		{"counterparty admin creates", "bella-write", "POST", requestsPath(falcon), map[string]any{"title": "x"}, 403, api.CodeForbidden, api.ReasonCannotCreateRequest},
		{"owner viewer creates", "owen-write", "POST", requestsPath(falcon), map[string]any{"title": "x", "kind": "section"}, 403, api.CodeForbidden, api.ReasonCannotCreateRequest},
		{"counterparty edits", "ben-write", "PATCH", requestPath(falcon, open), map[string]any{"title": "x"}, 403, api.CodeForbidden, api.ReasonCannotEditRequest},
		{"counterparty renumbers", "bella-write", "PATCH", requestPath(falcon, open), map[string]any{"number": "2.2"}, 403, api.CodeForbidden, api.ReasonCannotEditRequest},
		// A viewer may change nothing: refused before the body is read.
		{"owner viewer edits", "owen-write", "PATCH", requestPath(falcon, open), map[string]any{"requester": nil}, 403, api.CodeForbidden, api.ReasonCannotChangeRequest},
		{"owner viewer moves the status", "owen-write", "PATCH", requestPath(falcon, open), map[string]any{"status": "complete"}, 403, api.CodeForbidden, api.ReasonCannotChangeRequest},
		{"counterparty viewer moves the status", "bianca-write", "PATCH", requestPath(falcon, open), map[string]any{"status": "partial"}, 403, api.CodeForbidden, api.ReasonCannotChangeRequest},
		{"viewer posts", "bianca-write", "POST", messagesPath(falcon, open), map[string]any{"text": "x"}, 403, api.CodeForbidden, api.ReasonCannotPost},
		{"post on a section", "olivia-write", "POST", messagesPath(falcon, section), map[string]any{"text": "x"}, 403, api.CodeForbidden, api.ReasonCannotPost},
		{"empty message", "ben-write", "POST", messagesPath(falcon, open), map[string]any{"text": ""}, 400, api.CodeBadRequest, api.ReasonEmptyMessage},
		{"blank message", "ben-write", "POST", messagesPath(falcon, open), map[string]any{"text": "\n  \t"}, 400, api.CodeBadRequest, api.ReasonEmptyMessage},
		{"unreachable status", "ben-write", "PATCH", requestPath(falcon, complete), map[string]any{"status": "open"}, 409, api.CodeConflict, api.ReasonStatusNotAllowed},
		{"status equal to the current", "olivia-write", "PATCH", requestPath(falcon, complete), map[string]any{"status": "complete"}, 409, api.CodeConflict, api.ReasonStatusNotAllowed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.as(t, c.key).do(c.method, c.path, c.body).wantErr(c.status, c.code, c.reason)
		})
	}
	// None of them wrote anything.
	olivia := e.as(t, "olivia-write")
	if rows := olivia.get(requestsPath(falcon)).want(http.StatusOK).requests(); len(rows) != 10 {
		t.Errorf("%d rows, want the 10 seeded", len(rows))
	}
	if r := olivia.get(requestPath(falcon, open)).want(http.StatusOK).request(); r.Title != "Management accounts" || r.Status != api.StatusOpen {
		t.Errorf("2.1 changed: %+v", r)
	}
	if msgs := olivia.get(messagesPath(falcon, open)).want(http.StatusOK).messages(); len(msgs) != 0 {
		t.Errorf("%d messages on 2.1", len(msgs))
	}
}

// TestListFilters covers the list's filter extension: rows of kind
// request are filtered and the sections above them kept.
func TestListFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	c := e.as(t, "ben-write")
	cases := []struct {
		query string
		want  []string
	}{
		{"status=partial", []string{"1", "1.2"}},
		{"status=partial,complete", []string{"1", "1.2", "1.3"}},
		{"category=accounting", []string{"2", "2.1", "2.9", "2.10"}},
		{"priority=high", []string{"1", "1.1"}},
		{"assignee_id=" + e.person("falcon/bella"), []string{"1", "1.1"}},
		{"category=tax&status=open", []string{"3"}},
		{"status=open&category=legal&priority=low", []string{}},
	}
	for _, cs := range cases {
		got := numbers(c.get(requestsPath(falcon) + "?" + cs.query).want(http.StatusOK).requests())
		if !slices.Equal(got, cs.want) && len(got)+len(cs.want) > 0 {
			t.Errorf("?%s: %v, want %v", cs.query, got, cs.want)
		}
	}
	c.get(requestsPath(falcon)+"?status=done").wantField("status", api.FieldUnknownValue)
	c.get(requestsPath(falcon)+"?updated_since=yesterday").wantField("updated_since", api.FieldInvalid)
}
