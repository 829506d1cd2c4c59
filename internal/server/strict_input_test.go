package server_test

import (
	"net/http"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// TestNullOnlyWhereNullable: a field the document does not declare
// nullable answers 422 naming it when sent as null, on create, edit and
// post alike, instead of being taken as absent; the nullable ones clear
// or take their default.
func TestNullOnlyWhereNullable(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	row := olivia.post(requestsPath(falcon), map[string]any{"title": "strict inputs"}).want(http.StatusCreated).request()

	for _, field := range []string{"title", "body", "kind", "priority", "category"} {
		olivia.post(requestsPath(falcon), map[string]any{"title": "t", field: nil}).want(http.StatusUnprocessableEntity).wantField(field, fieldCodeForNull(field))
	}
	olivia.post(requestsPath(falcon), map[string]any{"title": "nulls where nullable", "number": nil, "parent_id": nil, "requester": nil, "due_date": nil, "assignee_id": nil}).
		want(http.StatusCreated)

	for _, field := range []string{"title", "body", "number", "priority", "category", "status"} {
		olivia.patch(requestPath(falcon, row.ID), map[string]any{field: nil}).want(http.StatusUnprocessableEntity).wantField(field, fieldCodeForNull(field))
	}
	olivia.patch(requestPath(falcon, row.ID), map[string]any{"requester": nil, "due_date": nil, "assignee_id": nil}).want(http.StatusOK)

	for _, field := range []string{"text", "kind", "partial", "internal", "update_status", "links"} {
		olivia.post(messagesPath(falcon, row.ID), map[string]any{"text": "x", field: nil}).want(http.StatusUnprocessableEntity).wantField(field, fieldCodeForNull(field))
	}
	olivia.post(messagesPath(falcon, row.ID), map[string]any{"text": "x", "links": []any{nil}}).wantField("links[0].url", api.FieldRequired)
	olivia.post(messagesPath(falcon, row.ID), map[string]any{"links": []any{map[string]any{"url": nil}}}).wantField("links[0].url", api.FieldRequired)
	olivia.post(messagesPath(falcon, row.ID), map[string]any{"links": []any{map[string]any{"url": "https://a.example/", "label": nil}}}).want(http.StatusCreated)
	if msgs := olivia.get(messagesPath(falcon, row.ID)).want(http.StatusOK).messages(); len(msgs) != 1 {
		t.Errorf("%d messages stored, want the one valid post", len(msgs))
	}
}

// fieldCodeForNull is the code a null answers for a non-nullable field:
// unknown_value for an enumeration (null is none of its values), required
// for the title, invalid (expected a type) for the rest.
func fieldCodeForNull(field string) string {
	switch field {
	case "kind", "priority", "category", "status":
		return api.FieldUnknownValue
	case "title":
		return api.FieldRequired
	}
	return api.FieldInvalid
}

// TestDuplicateKeysAreMalformed: a body naming a field twice is refused as
// malformed JSON and stores nothing, since readers differ on which one
// counts (encoding/json the last, a proxy or validator in front perhaps
// the first).
func TestDuplicateKeysAreMalformed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	before := len(olivia.get(requestsPath(falcon)).want(http.StatusOK).requests())
	row := olivia.post(requestsPath(falcon), map[string]any{"title": "duplicates"}).want(http.StatusCreated).request()

	olivia.post(requestsPath(falcon), `{"title":"a","title":"b"}`).wantErr(http.StatusBadRequest, api.CodeBadRequest, "malformed_json")
	olivia.post(requestsPath(falcon), `{"title":"a","ti\u0074le":"b"}`).wantErr(http.StatusBadRequest, api.CodeBadRequest, "malformed_json")
	olivia.patch(requestPath(falcon, row.ID), `{"status":"partial","status":"complete"}`).wantErr(http.StatusBadRequest, api.CodeBadRequest, "malformed_json")
	olivia.post(messagesPath(falcon, row.ID), `{"text":"note","internal":false,"internal":true}`).wantErr(http.StatusBadRequest, api.CodeBadRequest, "malformed_json")
	olivia.post(messagesPath(falcon, row.ID), `{"links":[{"url":"https://a.example/","url":"https://b.example/"}]}`).
		wantErr(http.StatusBadRequest, api.CodeBadRequest, "malformed_json")

	if got := len(olivia.get(requestsPath(falcon)).want(http.StatusOK).requests()); got != before+1 {
		t.Errorf("%d rows, want %d: a refused body was stored", got, before+1)
	}
	if got := olivia.get(requestPath(falcon, row.ID)).want(http.StatusOK).request(); got.Status != api.StatusOpen {
		t.Errorf("status %s after a refused PATCH, want open", got.Status)
	}
	if msgs := olivia.get(messagesPath(falcon, row.ID)).want(http.StatusOK).messages(); len(msgs) != 0 {
		t.Errorf("%d messages stored from refused bodies", len(msgs))
	}
}

// TestSectionRefusesAssigneeAndDueDate: a section is a heading without an
// assignee or a due date; one created with either answers 422 naming it,
// instead of 201 with the value dropped. Null, what a section has, is
// taken; a PATCH assigning a section is 403 cannot_assign (can.assign is
// false on a section).
func TestSectionRefusesAssigneeAndDueDate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	before := len(olivia.get(requestsPath(falcon)).want(http.StatusOK).requests())
	bella := e.person("falcon/bella")

	res := olivia.post(requestsPath(falcon), map[string]any{"title": "Heading", "kind": "section", "assignee_id": bella, "due_date": "2026-12-01"}).
		wantErr(http.StatusUnprocessableEntity, api.CodeValidationFailed, "")
	for _, path := range []string{"assignee_id", "due_date"} {
		f, ok := res.field(path)
		if !ok || f.Code != api.FieldInvalid || f.Params["reason"] != "not_on_a_section" {
			t.Errorf("%s: %+v, want invalid, reason not_on_a_section", path, f)
		}
	}
	olivia.post(requestsPath(falcon), map[string]any{"title": "Heading", "kind": "section", "due_date": "2026-12-01"}).wantField("due_date", api.FieldInvalid)
	if got := len(olivia.get(requestsPath(falcon)).want(http.StatusOK).requests()); got != before {
		t.Errorf("%d rows, want %d: a refused section was stored", got, before)
	}
	section := olivia.post(requestsPath(falcon), map[string]any{"title": "Heading", "kind": "section", "assignee_id": nil, "due_date": nil}).
		want(http.StatusCreated).request()
	olivia.patch(requestPath(falcon, section.ID), map[string]any{"assignee_id": bella}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonCannotAssign)
	olivia.patch(requestPath(falcon, section.ID), map[string]any{"due_date": "2026-12-01"}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonCannotAssign)
}
