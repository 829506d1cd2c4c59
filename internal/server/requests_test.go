package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

func TestNewRequestIsOpenWithDefaults(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	r := e.as(t, "oscar-write").post(requestsPath(falcon), map[string]any{"title": "Cap table"}).want(http.StatusCreated)
	got := r.request()
	now := e.clock.Now()
	if got.Status != api.StatusOpen || got.Kind != api.KindRequest || got.Priority != api.PriorityMedium ||
		got.Category != api.CategoryBusiness || got.Body != "" || got.Requester != nil || got.DueDate != nil ||
		got.AssigneeID != nil || got.ParentID != nil || got.LatestAnswer != nil || len(got.Files) != 0 {
		t.Errorf("new request = %+v, want an open request with the documented defaults", got)
	}
	if got.StatusChangedAt != nil {
		t.Errorf("status_changed_at = %v on a new request, want null", got.StatusChangedAt)
	}
	if !got.CreatedAt.Equal(now) || !got.UpdatedAt.Equal(now) {
		t.Errorf("created_at %v, updated_at %v, want the clock's %v", got.CreatedAt, got.UpdatedAt, now)
	}
	// Top-level numbers are 1, 2, 3 and 10: the next one is 11.
	if got.Number != "11" {
		t.Errorf("number = %q, want 11", got.Number)
	}
	if !slices.Equal(got.AllowedStatuses, statuses(api.StatusPartial, api.StatusComplete)) {
		t.Errorf("allowed_statuses = %v", got.AllowedStatuses)
	}
	if got.Can != (api.RequestCan{Edit: true, Assign: true, ChangeStatus: true, Answer: true}) {
		t.Errorf("can = %+v", got.Can)
	}
	if r.header.Get("ETag") == "" {
		t.Error("201 carries no ETag")
	}
	// What was answered is what is stored.
	again := e.as(t, "oscar-write").get(requestPath(falcon, got.ID)).want(http.StatusOK).request()
	if again.Number != got.Number || again.Title != "Cap table" || again.Status != api.StatusOpen {
		t.Errorf("read back %+v", again)
	}
}

func TestSectionRows(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	// A section has no assignee or due date: one sent is refused
	// (TestSectionRefusesAssigneeAndDueDate), null is taken.
	created := olivia.post(requestsPath(falcon), map[string]any{"title": "Tax", "kind": "section",
		"assignee_id": nil, "due_date": nil}).want(http.StatusCreated).request()
	if created.AssigneeID != nil || created.DueDate != nil {
		t.Errorf("a section kept an assignee or due date: %+v", created)
	}
	for _, key := range []string{"olivia-write", "oscar-write", "bella-write", "ben-write", "owen-write"} {
		c := e.as(t, key)
		for _, id := range []string{e.row("falcon/1"), created.ID} {
			s := c.get(requestPath(falcon, id)).want(http.StatusOK).request()
			if s.Kind != api.KindSection || s.Status != api.StatusOpen {
				t.Errorf("%s: section %s has kind %s status %s, want section open", key, s.Number, s.Kind, s.Status)
			}
			if s.AllowedStatuses == nil || len(s.AllowedStatuses) != 0 {
				t.Errorf("%s: section allowed_statuses = %#v, want []", key, s.AllowedStatuses)
			}
			if s.Can.ChangeStatus || s.Can.Answer || s.Can.Assign {
				t.Errorf("%s: section can = %+v, want change_status, answer and assign false", key, s.Can)
			}
		}
	}
	// A section has no status to move and no conversation.
	olivia.patch(requestPath(falcon, created.ID), map[string]any{"status": "complete"}).wantErr(http.StatusConflict, api.CodeConflict, "")
	olivia.post(messagesPath(falcon, created.ID), map[string]any{"text": "x"}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonCannotPost)
	olivia.patch(requestPath(falcon, created.ID), map[string]any{"assignee_id": e.person("falcon/ben")}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonCannotAssign)
	// Its title is edited like a request's.
	if got := olivia.patch(requestPath(falcon, created.ID), map[string]any{"title": "Tax and VAT"}).want(http.StatusOK).request(); got.Title != "Tax and VAT" {
		t.Errorf("title = %q", got.Title)
	}
}

func TestListIsInNaturalTreeOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	c := e.as(t, "bella-write")
	want := []string{"1", "1.1", "1.2", "1.3", "2", "2.1", "2.9", "2.10", "3", "10"}
	if got := numbers(c.get(requestsPath(falcon)).want(http.StatusOK).requests()); !slices.Equal(got, want) {
		t.Fatalf("list order %v, want %v", got, want)
	}
	olivia := e.as(t, "olivia-write")
	olivia.post(requestsPath(falcon), map[string]any{"title": "a", "number": "2.2", "parent_id": e.row("falcon/2")}).want(http.StatusCreated)
	olivia.post(requestsPath(falcon), map[string]any{"title": "b", "number": "1.10", "parent_id": e.row("falcon/1")}).want(http.StatusCreated)
	olivia.post(requestsPath(falcon), map[string]any{"title": "c", "number": "4"}).want(http.StatusCreated)
	olivia.post(requestsPath(falcon), map[string]any{"title": "d", "parent_id": e.row("falcon/10")}).want(http.StatusCreated)
	want = []string{"1", "1.1", "1.2", "1.3", "1.10", "2", "2.1", "2.2", "2.9", "2.10", "3", "4", "10", "10.1"}
	rows := c.get(requestsPath(falcon)).want(http.StatusOK).requests()
	if got := numbers(rows); !slices.Equal(got, want) {
		t.Errorf("list order %v, want %v", got, want)
	}
	// Each row sits under the section before it.
	for _, r := range rows {
		if strings.Contains(r.Number, ".") {
			parent := find(t, rows, r.Number[:strings.LastIndex(r.Number, ".")])
			if r.ParentID == nil || *r.ParentID != parent.ID {
				t.Errorf("%s: parent_id %v, want section %s", r.Number, r.ParentID, parent.Number)
			}
		} else if r.ParentID != nil {
			t.Errorf("%s: top-level row has parent_id %v", r.Number, *r.ParentID)
		}
	}
}

func TestNextNumber(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	create := func(body map[string]any) string {
		t.Helper()
		return olivia.post(requestsPath(falcon), body).want(http.StatusCreated).request().Number
	}
	if got := create(map[string]any{"title": "x", "parent_id": e.row("falcon/2")}); got != "2.11" {
		t.Errorf("next under 2 (2.1, 2.9, 2.10) = %q, want 2.11", got)
	}
	if got := create(map[string]any{"title": "x", "parent_id": e.row("falcon/1"), "number": nil}); got != "1.4" {
		t.Errorf("next under 1 with number null = %q, want 1.4", got)
	}
	section := olivia.post(requestsPath(falcon), map[string]any{"title": "New", "kind": "section"}).want(http.StatusCreated).request()
	if section.Number != "11" {
		t.Errorf("next top-level = %q, want 11", section.Number)
	}
	for i := 1; i <= 10; i++ {
		if got, want := create(map[string]any{"title": "x", "parent_id": section.ID}), fmt.Sprintf("11.%d", i); got != want {
			t.Errorf("child %d of 11 = %q, want %q", i, got, want)
		}
	}
}

func TestDuplicateNumberIs409(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	er := olivia.post(requestsPath(falcon), map[string]any{"title": "x", "number": "2.9", "parent_id": e.row("falcon/2")}).
		wantErr(http.StatusConflict, api.CodeConflict, "")
	if er.Params["number"] != "2.9" {
		t.Errorf("params = %v, want number 2.9", er.Params)
	}
	er = olivia.patch(requestPath(falcon, e.row("falcon/2.1")), map[string]any{"number": "2.10"}).wantErr(http.StatusConflict, api.CodeConflict, "")
	if er.Params["number"] != "2.10" {
		t.Errorf("params = %v, want number 2.10", er.Params)
	}
	// The same number on another deal is fine.
	olivia.post(requestsPath(e.deal("osprey")), map[string]any{"title": "x", "number": "2.9"}).want(http.StatusCreated)
	if got := olivia.get(requestPath(falcon, e.row("falcon/2.1"))).want(http.StatusOK).request(); got.Number != "2.1" {
		t.Errorf("the refused edit changed the number to %q", got.Number)
	}
}

func TestParentMustBeASectionOfTheDeal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	cases := []struct {
		name, parent string
		codes        []string
	}{
		{"a request", e.row("falcon/1.1"), []string{api.FieldInvalid, api.FieldNotFound}},
		{"another deal's section", e.row("osprey/1"), []string{api.FieldNotFound, api.FieldInvalid}},
		{"an unknown id", "0190a6e2-0000-7000-8000-000000000000", []string{api.FieldNotFound}},
		{"not a uuid", "section-1", []string{api.FieldInvalid}},
	}
	for _, c := range cases {
		er := olivia.post(requestsPath(falcon), map[string]any{"title": "x", "parent_id": c.parent}).
			wantErr(http.StatusUnprocessableEntity, api.CodeValidationFailed, "")
		f, ok := er.field("parent_id")
		if !ok || !slices.Contains(c.codes, f.Code) {
			t.Errorf("%s: fields %+v, want parent_id with one of %v", c.name, er.Fields, c.codes)
		}
	}
}

func TestAssigneeMustBeAPersonOnTheDeal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	ben := e.person("falcon/ben")
	got := olivia.post(requestsPath(falcon), map[string]any{"title": "x", "assignee_id": ben}).want(http.StatusCreated).request()
	if got.AssigneeID == nil || *got.AssigneeID != ben {
		t.Errorf("assignee_id = %v, want %s", got.AssigneeID, ben)
	}
	for _, id := range []string{
		e.person("osprey/carl"),                // a person of another deal
		e.ids.Users["ben"],                     // a user id, not a person id
		"0190a6e2-0000-7000-8000-000000000000", // nobody
	} {
		olivia.post(requestsPath(falcon), map[string]any{"title": "x", "assignee_id": id}).wantField("assignee_id", api.FieldNotFound)
		olivia.patch(requestPath(falcon, got.ID), map[string]any{"assignee_id": id}).wantField("assignee_id", api.FieldNotFound)
	}
	// The counterparty's editors may assign too (docs/decisions.md).
	bella := e.person("falcon/bella")
	if r := e.as(t, "ben-write").patch(requestPath(falcon, got.ID), map[string]any{"assignee_id": bella, "due_date": "2027-06-30"}).want(http.StatusOK).request(); r.AssigneeID == nil || *r.AssigneeID != bella || r.DueDate == nil || *r.DueDate != "2027-06-30" {
		t.Errorf("after ben assigned: assignee %v, due %v", r.AssigneeID, r.DueDate)
	}
	// A viewer may change nothing, and is told so before its body is read.
	e.as(t, "bianca-write").patch(requestPath(falcon, got.ID), map[string]any{"assignee_id": ben}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonCannotChangeRequest)
}

func TestPatchChangesOnlyWhatIsSent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/1.1")
	olivia := e.as(t, "olivia-write")
	before := olivia.get(requestPath(falcon, id)).want(http.StatusOK).request()
	e.clock.Advance(time.Minute)
	after := olivia.patch(requestPath(falcon, id), map[string]any{"body": "New body", "priority": "low"}).want(http.StatusOK).request()
	if after.Body != "New body" || after.Priority != api.PriorityLow {
		t.Errorf("edit not applied: %+v", after)
	}
	if after.Title != before.Title || after.Category != before.Category || *after.Requester != *before.Requester ||
		*after.DueDate != *before.DueDate || *after.AssigneeID != *before.AssigneeID || after.Status != before.Status {
		t.Errorf("fields not sent changed: before %+v, after %+v", before, after)
	}
	if !after.UpdatedAt.Equal(e.clock.Now()) {
		t.Errorf("updated_at = %v, want %v", after.UpdatedAt, e.clock.Now())
	}
	if !eqTime(after.StatusChangedAt, before.StatusChangedAt) {
		t.Errorf("an edit moved status_changed_at from %v to %v", before.StatusChangedAt, after.StatusChangedAt)
	}
	cleared := olivia.patch(requestPath(falcon, id), map[string]any{"requester": nil, "due_date": nil, "assignee_id": nil}).want(http.StatusOK).request()
	if cleared.Requester != nil || cleared.DueDate != nil || cleared.AssigneeID != nil {
		t.Errorf("null did not clear: %+v", cleared)
	}
	if same := olivia.patch(requestPath(falcon, id), map[string]any{}).want(http.StatusOK).request(); !same.UpdatedAt.Equal(cleared.UpdatedAt) {
		t.Errorf("an empty PATCH moved updated_at")
	}
}

func eqTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

func TestValidationNamesEveryBadField(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	cases := []struct {
		name   string
		body   map[string]any
		path   string
		code   string
		params map[string]any
	}{
		{"title missing", map[string]any{"body": "x"}, "title", api.FieldRequired, nil},
		{"title null", map[string]any{"title": nil}, "title", api.FieldRequired, nil},
		{"title empty", map[string]any{"title": ""}, "title", api.FieldTooShort, nil},
		{"title blank", map[string]any{"title": " \t\n "}, "title", api.FieldBlank, nil},
		{"title too long", map[string]any{"title": strings.Repeat("é", 501)}, "title", api.FieldTooLong, map[string]any{"max": 500.0}},
		{"body too long", map[string]any{"title": "x", "body": strings.Repeat("b", 20001)}, "body", api.FieldTooLong, map[string]any{"max": 20000.0}},
		{"number too long", map[string]any{"title": "x", "number": strings.Repeat("9", 65)}, "number", api.FieldTooLong, map[string]any{"max": 64.0}},
		{"number empty", map[string]any{"title": "x", "number": ""}, "number", api.FieldTooShort, nil},
		{"number with spaces", map[string]any{"title": "x", "number": " 4"}, "number", api.FieldInvalid, nil},
		{"unknown kind", map[string]any{"title": "x", "kind": "folder"}, "kind", api.FieldUnknownValue, nil},
		{"unknown priority", map[string]any{"title": "x", "priority": "urgent"}, "priority", api.FieldUnknownValue, nil},
		{"unknown category", map[string]any{"title": "x", "category": "marketing"}, "category", api.FieldUnknownValue, nil},
		{"requester too long", map[string]any{"title": "x", "requester": strings.Repeat("r", 201)}, "requester", api.FieldTooLong, map[string]any{"max": 200.0}},
		{"due date not a date", map[string]any{"title": "x", "due_date": "next week"}, "due_date", api.FieldInvalid, nil},
		{"due date a date-time", map[string]any{"title": "x", "due_date": "2027-05-01T00:00:00Z"}, "due_date", api.FieldInvalid, nil},
		{"assignee not a uuid", map[string]any{"title": "x", "assignee_id": "ben"}, "assignee_id", api.FieldInvalid, nil},
		{"title of the wrong type", map[string]any{"title": 5}, "title", api.FieldInvalid, nil},
		{"priority of the wrong type", map[string]any{"title": "x", "priority": 1}, "priority", api.FieldInvalid, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := e.as(t, "olivia-write").post(requestsPath(falcon), c.body).wantField(c.path, c.code)
			for k, v := range c.params {
				if f.Params[k] != v {
					t.Errorf("params = %v, want %s: %v", f.Params, k, v)
				}
			}
		})
	}
	// Bounds are inclusive.
	olivia.post(requestsPath(falcon), map[string]any{"title": strings.Repeat("é", 500), "number": strings.Repeat("9", 64),
		"requester": strings.Repeat("r", 200), "body": strings.Repeat("b", 20000)}).want(http.StatusCreated)
	// Several bad fields are all named at once.
	er := olivia.post(requestsPath(falcon), map[string]any{"title": "", "priority": "urgent", "due_date": "soon"}).
		wantErr(http.StatusUnprocessableEntity, api.CodeValidationFailed, "")
	for _, p := range []string{"title", "priority", "due_date"} {
		if _, ok := er.field(p); !ok {
			t.Errorf("fields %+v do not name %s", er.Fields, p)
		}
	}
	// PATCH validates the same way.
	id := e.row("falcon/2.1")
	olivia.patch(requestPath(falcon, id), map[string]any{"title": strings.Repeat("t", 501)}).wantField("title", api.FieldTooLong)
	olivia.patch(requestPath(falcon, id), map[string]any{"status": "done"}).wantField("status", api.FieldUnknownValue)
	olivia.patch(requestPath(falcon, id), map[string]any{"due_date": true}).wantField("due_date", api.FieldInvalid)
	olivia.patch(requestPath(falcon, id), map[string]any{"title": nil}).wantField("title", api.FieldRequired)
	if got := olivia.get(requestPath(falcon, id)).want(http.StatusOK).request(); got.Title != "Management accounts" {
		t.Errorf("a refused PATCH changed the title to %q", got.Title)
	}
}

func TestMalformedBodies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/2.1")
	olivia := e.as(t, "olivia-write")
	for _, body := range []string{`{"title":`, `{"title":"x"}}`, `[]`, `"title"`, `null`, ``, `{'title':'x'}`} {
		olivia.post(requestsPath(falcon), body).wantErr(http.StatusBadRequest, api.CodeBadRequest, "")
		olivia.patch(requestPath(falcon, id), body).wantErr(http.StatusBadRequest, api.CodeBadRequest, "")
		olivia.post(messagesPath(falcon, id), body).wantErr(http.StatusBadRequest, api.CodeBadRequest, "")
	}
	// Unknown fields are ignored.
	got := olivia.post(requestsPath(falcon), `{"title":"x","colour":"red","status":"complete","id":"mine"}`).want(http.StatusCreated).request()
	if got.Status != api.StatusOpen || got.ID == "mine" {
		t.Errorf("unknown or read-only fields were applied: %+v", got)
	}
	olivia.patch(requestPath(falcon, id), `{"title":"y","colour":"red"}`).want(http.StatusOK)
	// Names are case-sensitive: "Title" is an unknown field, not the title.
	olivia.post(requestsPath(falcon), `{"Title":"x"}`).wantField("title", api.FieldRequired)
	if got := olivia.post(requestsPath(falcon), `{"title":"lower","TITLE":"upper","Priority":"high"}`).want(http.StatusCreated).request(); got.Title != "lower" || got.Priority != api.PriorityMedium {
		t.Errorf("differently cased keys were taken for fields: %+v", got)
	}
	if got := olivia.patch(requestPath(falcon, id), `{"Status":"complete","tItle":"z"}`).want(http.StatusOK).request(); got.Status != api.StatusOpen || got.Title != "y" {
		t.Errorf("differently cased keys were applied by PATCH: %+v", got)
	}
}

func TestBodyOverOneMiBIs413(t *testing.T) {
	t.Parallel() // it sends bodies of megabytes: alongside the others
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/2.1")
	olivia := e.as(t, "olivia-write")
	big := `{"title":"x","padding":"` + strings.Repeat("a", 1<<20) + `"}`
	olivia.post(requestsPath(falcon), big).wantErr(http.StatusRequestEntityTooLarge, api.CodePayloadTooLarge, "")
	olivia.patch(requestPath(falcon, id), big).wantErr(http.StatusRequestEntityTooLarge, api.CodePayloadTooLarge, "")
	olivia.post(messagesPath(falcon, id), `{"text":"x","padding":"`+strings.Repeat("a", 1<<20)+`"}`).
		wantErr(http.StatusRequestEntityTooLarge, api.CodePayloadTooLarge, "")
	// Just under the limit is read (and then found too long a title).
	justUnder := `{"title":"x","padding":"` + strings.Repeat("a", 1<<20-len(`{"title":"x","padding":""}`)) + `"}`
	if len(justUnder) != 1<<20 {
		t.Fatalf("len %d", len(justUnder))
	}
	olivia.post(requestsPath(falcon), justUnder).want(http.StatusCreated)
}

// A call reads what it needs once: the row it resolved or wrote is the one
// it answers, and one read of the deal's people serves both the assignee
// check and the answer's authors. A write reads them only when the deal's
// members version moved since the last write kept them.
func TestRequestCallsReadRowAndPeopleOnce(t *testing.T) {
	t.Parallel()
	counter := &countingStore{}
	e := newEnv(t, counter.wrap)
	falcon, id := e.deal("falcon"), e.row("falcon/1.1")
	olivia := e.as(t, "olivia-write")
	bella := e.person("falcon/bella")
	calls := []struct {
		name string
		call func()
		// The parent of a new row is read to check it; a PATCH reads the
		// row, then, after the write, its answers and files (in one
		// statement with the row, which the answer does not use).
		requests int64
		people   int64 // the POST's members are the PATCH's: same version
	}{
		{"GET", func() { olivia.get(requestPath(falcon, id)).want(http.StatusOK) }, 1, 1},
		{"PATCH", func() {
			olivia.patch(requestPath(falcon, id), map[string]any{"assignee_id": bella, "title": "Renamed"}).want(http.StatusOK)
		}, 2, 1},
		{"POST", func() {
			olivia.post(requestsPath(falcon), map[string]any{"title": "New", "parent_id": e.row("falcon/1"), "assignee_id": bella}).
				want(http.StatusCreated)
		}, 1, 0},
	}
	for _, c := range calls {
		counter.reset()
		c.call()
		if got := counter.requests.Load(); got != c.requests {
			t.Errorf("%s read the request %d times, want %d", c.name, got, c.requests)
		}
		if got := counter.people.Load(); got != c.people {
			t.Errorf("%s read the deal's people %d times, want %d", c.name, got, c.people)
		}
	}
}

// TestMalformedNumberIs422: a number the spreadsheet import could not
// read back (domain.CheckNumberShape) is refused on create and on edit,
// so that a deal always imports its own export.
func TestMalformedNumberIs422(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	for n, reason := range map[string]string{"2..3": "empty_part", "2.": "empty_part", ".2": "empty_part", "A 1": "whitespace_inside"} {
		f := olivia.post(requestsPath(falcon), map[string]any{"title": "x", "number": n}).wantField("number", api.FieldInvalid)
		if f.Params["reason"] != reason {
			t.Errorf("create with number %q: params %v, want reason %s", n, f.Params, reason)
		}
		f = olivia.patch(requestPath(falcon, e.row("falcon/2.1")), map[string]any{"number": n}).wantField("number", api.FieldInvalid)
		if f.Params["reason"] != reason {
			t.Errorf("edit to number %q: params %v, want reason %s", n, f.Params, reason)
		}
	}
	olivia.post(requestsPath(falcon), map[string]any{"title": "x", "number": "A.7"}).want(http.StatusCreated)
}
