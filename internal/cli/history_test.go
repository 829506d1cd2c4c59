package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// historyEvents runs `history ref --json` as key and returns the events.
func historyEvents(t *testing.T, ts *liveAPI, key, ref string) []api.Event {
	t.Helper()
	r := run(t, ts, runOpts{env: map[string]string{"DEALCTL_API_KEY": key}}, "history", ref, "--json")
	r.must(t, 0)
	var evs []api.Event
	if err := json.Unmarshal([]byte(r.out), &evs); err != nil {
		t.Fatalf("history --json: %v\n%s", err, r.out)
	}
	return evs
}

// sameFields fails unless every field a request's writes can set is the
// same, byte for byte, on got as on want.
func sameFields(t *testing.T, got, want api.DealRequest) {
	t.Helper()
	str := func(p *string) string {
		if p == nil {
			return "<null>"
		}
		return "=" + *p
	}
	pairs := [][3]string{
		{"number", got.Number, want.Number},
		{"kind", string(got.Kind), string(want.Kind)},
		{"title", got.Title, want.Title},
		{"body", got.Body, want.Body},
		{"status", string(got.Status), string(want.Status)},
		{"priority", string(got.Priority), string(want.Priority)},
		{"category", string(got.Category), string(want.Category)},
		{"requester", str(got.Requester), str(want.Requester)},
		{"due_date", str(got.DueDate), str(want.DueDate)},
		{"assignee_id", str(got.AssigneeID), str(want.AssigneeID)},
		{"parent_id", str(got.ParentID), str(want.ParentID)},
	}
	for _, p := range pairs {
		if p[1] != p[2] {
			t.Errorf("%s: %q, want %q", p[0], p[1], p[2])
		}
	}
}

// TestHistoryRevertRoundTrip: every field a user can change, changed,
// shows in history with its old and new value, and one revert to the
// first change puts every field back byte for byte.
func TestHistoryRevertRoundTrip(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	before := ts.row(t, "1.1")
	newBody := "Line one\n\n  indented, trailing space \nü — \"quoted\" <b>&</b>"
	run(t, ts, runOpts{}, "requests", "edit", "1.1", "--title", "Certified articles", "--body", newBody, "--number", "1.9",
		"--priority", "low", "--category", "tax", "--requester", "Lex & Co").must(t, 0)
	run(t, ts, runOpts{}, "requests", "assign", "1.9", "--to", "alice@target.example", "--due", "2027-01-31").must(t, 0)
	run(t, ts, runOpts{}, "status", "1.9", "complete").must(t, 0)

	evs := historyEvents(t, ts, testKey, "1.9")
	if len(evs) != 4 || evs[0].Type != api.EventRequestEdited {
		t.Fatalf("history: %d events, first %s; want edited, assigned, due date set, status moved", len(evs), evs[0].Type)
	}
	var edit api.RequestEditedData
	if err := json.Unmarshal(evs[0].Data, &edit); err != nil {
		t.Fatal(err)
	}
	if c := edit.Changes["body"]; c.From == nil || *c.From != before.Body || c.To == nil || *c.To != newBody {
		t.Errorf("body change %+v, want the whole old and new body", c)
	}

	human := run(t, ts, runOpts{tty: true}, "history", "1.9")
	human.must(t, 0, "title: “Certificate of incorporation” → “Certified articles”", "priority: high → low",
		"assignee_id: Bob Reyes → Alice Sato", "status: open → complete", "event "+evs[0].ID, "│ Certified copy, with **all** amendments.")

	run(t, ts, runOpts{}, "revert", "1.9", "--to", evs[0].ID).must(t, 0)
	after := ts.row(t, "1.1")
	sameFields(t, after, before)
	if after.ID != before.ID {
		t.Errorf("the revert made a new row %s, want %s", after.ID, before.ID)
	}
	// Reverting again finds nothing left to do.
	run(t, ts, runOpts{}, "revert", "1.1", "--to", evs[0].ID).must(t, 0)
}

// TestRevertConflictWithColleague: a change by someone else after the
// event reverted stops the revert (exit 5, naming the field and who),
// and --force puts everything back anyway.
func TestRevertConflictWithColleague(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	before := ts.row(t, "1.1")
	run(t, ts, runOpts{}, "requests", "edit", "1.1", "--title", "Wrong title").must(t, 0)
	bob := runOpts{env: map[string]string{"DEALCTL_API_KEY": bobFalconKey}}
	run(t, ts, bob, "requests", "assign", "1.1", "--due", "2027-02-02").must(t, 0)

	evs := historyEvents(t, ts, testKey, "1.1")
	r := run(t, ts, runOpts{}, "revert", "1.1", "--to", evs[0].ID)
	r.must(t, 5)
	if !strings.Contains(r.err, "Bob Reyes changed due_date") || !strings.Contains(r.err, "--force") {
		t.Errorf("conflict does not name Bob's change and --force: %s", r.err)
	}
	if got := ts.row(t, "1.1"); got.Title != "Wrong title" || got.DueDate == nil || *got.DueDate != "2027-02-02" {
		t.Errorf("a conflicting revert wrote: %+v", got)
	}

	run(t, ts, runOpts{}, "revert", "1.1", "--to", evs[0].ID, "--force").must(t, 0)
	sameFields(t, ts.row(t, "1.1"), before)
}

// TestRequestsDelete: delete asks or needs --yes, keeps what has
// messages or rows under it, refuses the counterparty and read keys, and
// a revert of the deletion makes the row again with its fields.
func TestRequestsDelete(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	before := ts.row(t, "1.2")
	run(t, ts, runOpts{}, "requests", "delete", "1.2").must(t, 2)
	run(t, ts, runOpts{prompt: true, stdin: "n\n"}, "requests", "delete", "1.2").must(t, 0, "kept")
	run(t, ts, runOpts{env: map[string]string{"DEALCTL_API_KEY": bobFalconKey}}, "requests", "delete", "1.2", "--yes").must(t, 4)
	run(t, ts, runOpts{env: map[string]string{"DEALCTL_API_KEY": aliceReadKey}}, "requests", "delete", "1.2", "--yes").must(t, 4)
	if r := run(t, ts, runOpts{}, "requests", "delete", "2.1", "--yes"); r.code != 5 || !strings.Contains(r.err, "has messages") {
		t.Errorf("deleting an answered request: exit %d, %s; want 5 saying it has messages", r.code, r.err)
	}
	if r := run(t, ts, runOpts{}, "requests", "delete", "2", "--yes"); r.code != 5 || !strings.Contains(r.err, "rows under it") {
		t.Errorf("deleting a section with rows: exit %d, %s; want 5 saying it has rows under it", r.code, r.err)
	}
	for _, n := range []string{"1.2", "2.1", "2"} {
		ts.row(t, n) // still there
	}

	run(t, ts, runOpts{prompt: true, stdin: "y\n"}, "requests", "delete", "1.2").must(t, 0, "Deleted 1.2")
	for _, r := range ts.rows(t) {
		if r.Number == "1.2" {
			t.Fatal("1.2 is still listed after its deletion")
		}
	}
	evs := historyEvents(t, ts, testKey, "1.2")
	last := evs[len(evs)-1]
	if last.Type != api.EventRequestDeleted {
		t.Fatalf("history of a deleted row ends with %s, want request.deleted", last.Type)
	}
	run(t, ts, runOpts{tty: true}, "history", "1.2").must(t, 0, "deleted the request", "Tax returns, last three years")
	run(t, ts, runOpts{}, "revert", "1.2", "--to", last.ID).must(t, 0, "made again")
	var again *api.DealRequest
	for _, r := range ts.rows(t) {
		if r.Number == "1.2" {
			again = &r
		}
	}
	if again == nil {
		t.Fatal("the revert of the deletion did not make 1.2 again")
	}
	sameFields(t, *again, before)
}

// TestHistoryHidesInternalNotesFromCounterparty: the owning side sees
// its internal note in history; the counterparty does not learn of it.
func TestHistoryHidesInternalNotesFromCounterparty(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	run(t, ts, runOpts{}, "answer", "1.1", "--kind", "internal_note", "-m", "Our side only").must(t, 0)
	run(t, ts, runOpts{}, "requests", "edit", "1.1", "--title", "Certificate").must(t, 0)
	count := func(evs []api.Event) (notes int) {
		for _, ev := range evs {
			if ev.Type == api.EventMessagePosted {
				notes++
			}
		}
		return notes
	}
	if n := count(historyEvents(t, ts, testKey, "1.1")); n != 1 {
		t.Errorf("the owning side sees %d message events, want its note", n)
	}
	bobs := historyEvents(t, ts, bobFalconKey, "1.1")
	if n := count(bobs); n != 0 || len(bobs) != 1 {
		t.Errorf("the counterparty sees %d message events among %d, want only the edit", n, len(bobs))
	}
	r := run(t, ts, runOpts{tty: true, env: map[string]string{"DEALCTL_API_KEY": bobFalconKey}}, "history", "1.1")
	r.must(t, 0, "Certificate")
	if strings.Contains(r.out, "note") || strings.Contains(r.out, "posted") {
		t.Errorf("the counterparty's history tells of the internal note:\n%s", r.out)
	}
}

// TestRevertCreation: reverting a request's creation deletes it, and
// reverting that deletion makes it again.
func TestRevertCreation(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	run(t, ts, runOpts{}, "requests", "create", "--title", "Insurance policies", "--parent", "1", "--number", "1.5").must(t, 0)
	evs := historyEvents(t, ts, testKey, "1.5")
	if len(evs) != 1 || evs[0].Type != api.EventRequestCreated {
		t.Fatalf("history of a new request: %v", evs)
	}
	run(t, ts, runOpts{}, "revert", "1.5", "--to", evs[0].ID).must(t, 0, "deleted")
	if _, ok := byNumber(ts.rows(t))["1.5"]; ok {
		t.Fatal("reverting the creation left the row")
	}
	evs = historyEvents(t, ts, testKey, "1.5")
	run(t, ts, runOpts{}, "revert", "1.5", "--to", evs[len(evs)-1].ID).must(t, 0, "made again")
	if got := byNumber(ts.rows(t))["1.5"]; got.Title != "Insurance policies" {
		t.Errorf("after reverting the deletion 1.5 is %+v", got)
	}
}

// TestWithoutTheExtensions: against a server that advertises none of
// delete, batch and events, requests delete refuses before any write
// (exit 1) and an import says it cannot be undone, and imports all the
// same.
func TestWithoutTheExtensions(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	ts.set(func(ts *liveAPI) { ts.hideExt = true })
	r := run(t, ts, runOpts{}, "requests", "delete", "1.2", "--yes")
	if r.code != 1 || !strings.Contains(r.err, "delete extension") {
		t.Errorf("delete without the extension: exit %d, %s", r.code, r.err)
	}
	for _, c := range ts.sentTo("/api/v1/") {
		if c.Method == "DELETE" {
			t.Errorf("a DELETE was sent: %s", c.URL)
		}
	}
	ts.row(t, "1.2")
	file := exportWith(t, ts, nil, [][3]string{{"3", "section", "Legal"}})
	r = run(t, ts, runOpts{}, "import", file)
	r.must(t, 0)
	if !strings.Contains(r.err, "cannot take this one back") {
		t.Errorf("the import does not say it cannot be undone:\n%s", r.err)
	}
	for _, c := range ts.sentTo("/api/v1/") {
		if c.Header.Get(api.BatchHeader) != "" {
			t.Errorf("%s %s sent a batch to a server that does not advertise it", c.Method, c.URL)
		}
	}
}
