package activity

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
)

func ptr[T any](v T) *T { return &v }

var alice = &api.Author{ID: "p-alice", Name: ptr("Alice Sato"), Email: "alice@target.example"}

func names() Names {
	return Names{
		Request: func(id string) (string, string, bool) {
			if id == "r-11" {
				return "1.1", "Certificate of incorporation", true
			}
			return "", "", false
		},
		Person: func(id string) (string, bool) {
			if id == "p-bob" {
				return "Bob Reyes", true
			}
			return "", false
		},
	}
}

func TestDescribeEachType(t *testing.T) {
	cases := []struct {
		typ        api.EventType
		data, want string
	}{
		{RequestCreated, `{"number":"1.1","kind":"request","title":"x"}`, "created the request"},
		{RequestCreated, `{"number":"1","kind":"section","title":"x"}`, "created the section"},
		{RequestEdited, `{"number":"1.1","fields":["title","body"]}`, "edited title, body"},
		{RequestAssigned, `{"number":"1.1","from":null,"to":"p-bob"}`, "assigned it to Bob Reyes"},
		{RequestAssigned, `{"number":"1.1","from":"p-bob","to":null}`, "left it unassigned"},
		{RequestAssigned, `{"to":"p-unknown"}`, "assigned it to p-unknown"},
		{DueDateSet, `{"from":null,"to":"2026-12-01"}`, "set the due date to 2026-12-01"},
		{DueDateSet, `{"from":"2026-12-01","to":null}`, "cleared the due date"},
		{StatusMoved, `{"from":"open","to":"partial"}`, "moved open → partial"},
		{MessagePosted, `{"kind":"response","partial":true}`, "posted a partial answer"},
		{MessagePosted, `{"kind":"response"}`, "posted an answer"},
		{MessagePosted, `{"kind":"question"}`, "posted a question"},
		{MessagePosted, `{"kind":"internal_note","internal":true}`, "posted an internal note"},
		{MessagePosted, `{"kind":"response","internal":true}`, "posted an answer (internal)"},
		{FileAttached, `{"version_id":"v1","name":"cert.pdf"}`, "attached cert.pdf"},
		{FileAttached, `{"version_id":"v1234567890","name":null}`, "attached a withheld file"},
		{DownloadLinkIssued, `{"name":"cert.pdf"}`, "took a download link for cert.pdf"},
		{FileFetched, `{"name":"cert.pdf"}`, "downloaded cert.pdf"},
		{"deal.renamed", `{"to":"Hawk","n":2,"nested":{"a":1}}`, "deal.renamed (n=2, to=Hawk)"},
		{"thing_done", `not json`, "thing done"},
	}
	for _, c := range cases {
		ev := client.Event{ID: "e1", Type: c.typ, At: time.Now(), Actor: alice, RequestID: ptr("r-11"), Data: json.RawMessage(c.data)}
		if got := Describe(ev, names()).What; got != c.want {
			t.Errorf("%s %s: %q, want %q", c.typ, c.data, got, c.want)
		}
	}
}

func TestDescribeNamesTheRequestAndActor(t *testing.T) {
	ev := client.Event{Type: StatusMoved, Actor: alice, RequestID: ptr("r-11"), Data: json.RawMessage(`{"number":"9.9","from":"open","to":"complete"}`)}
	e := Describe(ev, names())
	if e.Line() != "Alice Sato  1.1 Certificate of incorporation: moved open → complete" {
		t.Errorf("line = %q", e.Line())
	}
	// A request the list does not hold: the number the event recorded.
	ev.RequestID = ptr("r-gone")
	if e := Describe(ev, names()); e.Number != "9.9" || e.Title != "" {
		t.Errorf("gone request: %+v", e)
	}
	// Neither: a short id, marked.
	ev.Data = json.RawMessage(`{"from":"open","to":"complete"}`)
	ev.RequestID = ptr("0123456789abcdef")
	if e := Describe(ev, Names{}); e.Number != "#01234567" {
		t.Errorf("unnamed request: %q", e.Number)
	}
	// The system, and an actor with no name.
	ev.Actor = nil
	if e := Describe(ev, names()); e.Actor != "system" {
		t.Errorf("system actor: %q", e.Actor)
	}
	ev.Actor = &api.Author{ID: "x", Email: "bob@acme.example"}
	if e := Describe(ev, names()); e.Actor != "bob@acme.example" {
		t.Errorf("nameless actor: %q", e.Actor)
	}
	// An event about the deal: no request part.
	ev.RequestID = nil
	if e := Describe(ev, names()); e.Line() != "bob@acme.example  moved open → complete" {
		t.Errorf("deal event: %q", e.Line())
	}
}

func TestIsDownload(t *testing.T) {
	for typ, want := range map[api.EventType]bool{DownloadLinkIssued: true, FileFetched: true, FileAttached: false, MessagePosted: false} {
		if IsDownload(typ) != want {
			t.Errorf("IsDownload(%s) = %v", typ, !want)
		}
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	london, _ := time.LoadLocation("Europe/London")
	ny, _ := time.LoadLocation("America/New_York")
	cases := []struct {
		in   string
		loc  *time.Location
		want time.Time
	}{
		{"24h", nil, now.Add(-24 * time.Hour)},
		{"90m", nil, now.Add(-90 * time.Minute)},
		{"7d", nil, now.Add(-7 * 24 * time.Hour)},
		{"2w", nil, now.Add(-14 * 24 * time.Hour)},
		{"all", nil, time.Time{}},
		{"2026-11-20", london, time.Date(2026, 11, 20, 0, 0, 0, 0, london)},
		{"2026-11-20", ny, time.Date(2026, 11, 20, 5, 0, 0, 0, time.UTC)},
		{"2026-11-20T09:00:00Z", ny, time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)},
		// 18:00 UTC is already the 24th in Auckland.
		{"today", london, time.Date(2026, 11, 23, 0, 0, 0, 0, london)},
		{"Yesterday", ny, time.Date(2026, 11, 22, 0, 0, 0, 0, ny)},
		{"today", mustLoad(t, "Pacific/Auckland"), time.Date(2026, 11, 24, 0, 0, 0, 0, mustLoad(t, "Pacific/Auckland"))},
	}
	for _, c := range cases {
		got, err := ParseSince(c.in, now, c.loc)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "tomorrow", "-3h", "3x", "d", "2026-13-01"} {
		if _, err := ParseSince(bad, now, nil); err == nil {
			t.Errorf("ParseSince(%q) took it", bad)
		}
	}
}

func mustLoad(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestChangesAndUnrecorded(t *testing.T) {
	ev := client.Event{Type: RequestEdited, Data: []byte(`{"number":"1","fields":["title","body"],"changes":{"title":{"from":"a","to":"b"}}}`)}
	got := Changes(ev)
	if len(got) != 1 || got[0].Field != "title" || *got[0].From != "a" || *got[0].To != "b" {
		t.Errorf("Changes = %+v", got)
	}
	if u := Unrecorded(ev); len(u) != 1 || u[0] != "body" {
		t.Errorf("Unrecorded = %v, want [body]", u)
	}
	st := Changes(client.Event{Type: DueDateSet, Data: []byte(`{"number":"1","from":null,"to":"2027-01-01"}`)})
	if len(st) != 1 || st[0].Field != "due_date" || st[0].From != nil || *st[0].To != "2027-01-01" {
		t.Errorf("due date change = %+v", st)
	}
}
