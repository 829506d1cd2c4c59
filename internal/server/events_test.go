package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

func eventsPath(deal string, query ...string) string {
	p := dealPath(deal) + "/events"
	if len(query) > 0 {
		p += "?" + strings.Join(query, "&")
	}
	return p
}

func (r *resp) events() []api.Event {
	r.t.Helper()
	var v []api.Event
	r.into(&v)
	return v
}

// eventLine is an event as a test compares it: its type, the request's
// number and, for messages and files, whether it is about the internal
// note (a) or the shared answer (s).
func eventLines(t *testing.T, evs []api.Event) []string {
	t.Helper()
	out := make([]string, 0, len(evs))
	for _, e := range evs {
		var d struct {
			Number   string `json:"number"`
			Internal bool   `json:"internal"`
			Name     string `json:"name"`
		}
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Fatalf("event %s: data %s: %v", e.Type, e.Data, err)
		}
		line := string(e.Type) + " " + d.Number
		if d.Name != "" {
			line += " " + d.Name
		}
		if d.Internal {
			line += " internal"
		}
		out = append(out, line)
	}
	return out
}

// eventsWorld makes one of each event on falcon: a request created, an
// edit that also assigns, sets a due date and moves the status, an
// internal note, a counterparty answer that moves the status, a file
// attached to the internal note and one to the shared answer, and a
// download link issued and fetched by the counterparty.
func eventsWorld(t *testing.T) *env {
	t.Helper()
	e := newEnv(t)
	falcon := e.deal("falcon")
	oscar, olivia, ben, bella := e.as(t, "oscar-write"), e.as(t, "olivia-write"), e.as(t, "ben-write"), e.as(t, "bella-write")
	oscar.post(requestsPath(falcon), map[string]any{"title": "Board minutes", "number": "4"}).want(http.StatusCreated)
	oscar.patch(requestPath(falcon, e.row("falcon/2.1")), map[string]any{
		"title": "Management accounts 2026", "assignee_id": e.person("falcon/ben"), "due_date": "2027-05-01", "status": "partial",
	}).want(http.StatusOK)
	note := olivia.post(messagesPath(falcon, e.row("falcon/2.1")), map[string]any{"kind": "internal_note", "text": "chase them"}).want(http.StatusCreated).message()
	answer := ben.post(messagesPath(falcon, e.row("falcon/3")), map[string]any{"text": "see the data room", "partial": true}).want(http.StatusCreated).message()
	ctx := context.Background()
	for _, a := range []struct{ msg, name string }{{note.ID, "owner-only.txt"}, {answer.ID, "shared.txt"}} {
		name := a.name
		if _, err := e.st.AttachFile(ctx, store.File{DealID: falcon, MessageID: a.msg, Name: &name, Scanned: true}, []byte(a.name)); err != nil {
			t.Fatal(err)
		}
	}
	var link api.DownloadLink
	bella.post(linkPath(falcon, e.fileID(certPDF)), nil).want(http.StatusOK).into(&link)
	res, err := http.Get(link.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("fetching the link: %d", res.StatusCode)
	}
	return e
}

var (
	sharedEvents = []string{
		"request.created 4",
		"request.edited 2.1", "request.assigned 2.1", "request.due_date_set 2.1", "request.status_moved 2.1",
		"message.posted 3", "request.status_moved 3",
		"file.attached 3 shared.txt",
	}
	internalEvents = []string{"message.posted 2.1 internal", "file.attached 2.1 owner-only.txt"}
	auditEvents    = []string{"file.link_issued 1.1 cert.pdf", "file.fetched 1.1 cert.pdf"}
)

// TestEventsVisibility reads the feed as every role: the counterparty
// never learns of the internal note or its file; downloads reach the
// owning side's project admin only, through a read key as well; an
// archived deal's feed is its project admins' alone.
func TestEventsVisibility(t *testing.T) {
	t.Parallel()
	e := eventsWorld(t)
	falcon := e.deal("falcon")
	ownerAll := append(append(append([]string{}, sharedEvents[:5]...), internalEvents[0], sharedEvents[5], sharedEvents[6], internalEvents[1], sharedEvents[7]), auditEvents...)
	ownerNoAudit := ownerAll[:len(ownerAll)-len(auditEvents)]
	for key, want := range map[string][]string{
		"olivia-write": ownerAll,     // owner, project admin
		"olivia-read":  ownerAll,     // the same person through a read key
		"oscar-write":  ownerNoAudit, // owner editor
		"owen-write":   ownerNoAudit, // owner viewer
		"bella-write":  sharedEvents, // counterparty admin (the one who downloaded)
		"bella-read":   sharedEvents,
		"ben-write":    sharedEvents,
		"bianca-write": sharedEvents, // counterparty viewer
	} {
		got := eventLines(t, e.as(t, key).get(eventsPath(falcon)).want(http.StatusOK).events())
		if !slices.Equal(got, want) {
			t.Errorf("%s reads\n  %v\nwant\n  %v", key, got, want)
		}
	}
	// Nobody outside the deal, and nobody but a project admin on an
	// archived one, reaches a feed.
	e.as(t, "carl-write").get(eventsPath(falcon)).wantErr(http.StatusNotFound, api.CodeNotFound, "")
	e.as(t, "bruno-write").get(eventsPath(falcon)).wantErr(http.StatusNotFound, api.CodeNotFound, "")
	heron := e.deal("heron")
	e.as(t, "oscar-write").get(eventsPath(heron)).wantErr(http.StatusNotFound, api.CodeNotFound, "")
	e.as(t, "ben-write").get(eventsPath(heron)).wantErr(http.StatusNotFound, api.CodeNotFound, "")
	if got := e.as(t, "olivia-write").get(eventsPath(heron)).want(http.StatusOK).events(); len(got) != 0 {
		t.Errorf("archived heron: %d events, want none recorded", len(got))
	}
}

// TestEventsCarryWhoAndWhat checks one event of each kind in full.
func TestEventsCarryWhoAndWhat(t *testing.T) {
	t.Parallel()
	e := eventsWorld(t)
	evs := e.as(t, "olivia-write").get(eventsPath(e.deal("falcon"))).want(http.StatusOK).events()
	by := map[api.EventType]api.Event{}
	for _, ev := range evs {
		if _, seen := by[ev.Type]; !seen {
			by[ev.Type] = ev
		}
	}
	actor := func(ev api.Event) string {
		if ev.Actor == nil {
			return "system"
		}
		return ev.Actor.ID
	}
	for typ, who := range map[api.EventType]string{
		api.EventRequestCreated: e.person("falcon/oscar"),
		api.EventRequestEdited:  e.person("falcon/oscar"),
		api.EventMessagePosted:  e.person("falcon/olivia"),
		api.EventFileAttached:   "system",
		api.EventLinkIssued:     e.person("falcon/bella"),
		api.EventFileFetched:    e.person("falcon/bella"),
	} {
		if got := actor(by[typ]); got != who {
			t.Errorf("%s: actor %s, want %s", typ, got, who)
		}
	}
	if ev := by[api.EventMessagePosted]; ev.Actor == nil || ev.Actor.Name == nil || *ev.Actor.Name != "Olivia Owner" || ev.Actor.Email != "olivia@target.example" {
		t.Errorf("message.posted actor = %+v, want Olivia by name and email", ev.Actor)
	}
	if ev := by[api.EventRequestEdited]; ev.RequestID == nil || *ev.RequestID != e.row("falcon/2.1") {
		t.Errorf("request.edited request_id = %v, want 2.1's", ev.RequestID)
	}
	wantData := map[api.EventType]string{
		api.EventRequestEdited:  `{"number":"2.1","fields":["title"],"changes":{"title":{"from":"Management accounts","to":"Management accounts 2026"}}}`,
		api.EventAssigned:       `{"number":"2.1","from":null,"to":"` + e.person("falcon/ben") + `"}`,
		api.EventDueDateSet:     `{"number":"2.1","from":null,"to":"2027-05-01"}`,
		api.EventStatusMoved:    `{"number":"2.1","from":"open","to":"partial"}`,
		api.EventRequestCreated: `{"number":"4","kind":"request","title":"Board minutes"}`,
	}
	for typ, want := range wantData {
		if got := string(by[typ].Data); got != want {
			t.Errorf("%s data %s, want %s", typ, got, want)
		}
	}
	ids := map[string]bool{}
	for i, ev := range evs {
		if ids[ev.ID] || ev.ID == "" {
			t.Errorf("event %d has id %q, empty or seen before", i, ev.ID)
		}
		ids[ev.ID] = true
		// Order is commit order; times come from each writer's clock
		// (the server's here, the admin command's for an attachment).
		if ev.At.IsZero() {
			t.Errorf("event %d (%s) has no time", i, ev.Type)
		}
	}
}

// TestEventsPaging walks the feed two at a time and finds exactly the
// whole feed; ids stay the same across calls.
func TestEventsPaging(t *testing.T) {
	t.Parallel()
	e := eventsWorld(t)
	falcon := e.deal("falcon")
	for _, key := range []string{"olivia-write", "bella-write"} {
		c := e.as(t, key)
		all := c.get(eventsPath(falcon)).want(http.StatusOK).events()
		var walked []api.Event
		after := ""
		for range 50 {
			q := []string{"limit=2"}
			if after != "" {
				q = append(q, "after="+url.QueryEscape(after))
			}
			page := c.get(eventsPath(falcon, q...)).want(http.StatusOK).events()
			walked = append(walked, page...)
			if len(page) < 2 {
				break
			}
			after = page[len(page)-1].ID
		}
		if len(walked) != len(all) {
			t.Fatalf("%s: paging found %d events, the whole feed has %d", key, len(walked), len(all))
		}
		for i := range all {
			if walked[i].ID != all[i].ID || walked[i].Type != all[i].Type {
				t.Errorf("%s: event %d paged as %s %s, whole as %s %s", key, i, walked[i].ID, walked[i].Type, all[i].ID, all[i].Type)
			}
		}
		last := all[len(all)-1].ID
		if rest := c.get(eventsPath(falcon, "after="+url.QueryEscape(last))).want(http.StatusOK).events(); len(rest) != 0 {
			t.Errorf("%s: after the last event: %d events, want none", key, len(rest))
		}
	}
}

// TestEventsCursorErrors: an after that is not an event id of the deal is
// a 400 saying so; a limit out of bounds a 422.
func TestEventsCursorErrors(t *testing.T) {
	t.Parallel()
	e := eventsWorld(t)
	falcon, osprey := e.deal("falcon"), e.deal("osprey")
	olivia := e.as(t, "olivia-write")
	olivia.post(requestsPath(osprey), map[string]any{"title": "Osprey board minutes"}).want(http.StatusCreated)
	ospreyEvents := olivia.get(eventsPath(osprey)).want(http.StatusOK).events()
	if len(ospreyEvents) != 1 {
		t.Fatalf("osprey: %d events, want 1", len(ospreyEvents))
	}
	for _, c := range []struct{ after, reason string }{
		{"not-an-id", api.ReasonInvalidCursor},
		{"AAAAAAAAAAAAAAAAAAAAAA", api.ReasonUnknownCursor}, // the right shape, not an id given out
		{ospreyEvents[0].ID, api.ReasonUnknownCursor},       // another deal's
	} {
		got := olivia.get(eventsPath(falcon, "after="+url.QueryEscape(c.after))).wantErr(http.StatusBadRequest, api.CodeBadRequest, c.reason)
		if got.Params["param"] != "after" || got.Params["message"] == "" {
			t.Errorf("after=%s: params %v, want param after and a message", c.after, got.Params)
		}
	}
	for _, limit := range []string{"0", "1001", "-1", "ten"} {
		olivia.get(eventsPath(falcon, "limit="+limit)).wantField("limit", api.FieldInvalid)
	}
	if got := olivia.get(eventsPath(falcon, "limit=1000")).want(http.StatusOK).events(); len(got) == 0 {
		t.Error("limit=1000: no events")
	}
}

// TestEventsNotModified: a poll with nothing new that the caller may
// read answers 304; an event the caller may not read does not change its
// ETag (that would tell it one happened), one it may read does.
func TestEventsNotModified(t *testing.T) {
	t.Parallel()
	e := eventsWorld(t)
	falcon := e.deal("falcon")
	keys := []string{"olivia-write", "oscar-write", "bella-write"}
	etags := map[string]string{}
	for _, k := range keys {
		r := e.as(t, k).get(eventsPath(falcon)).want(http.StatusOK)
		etags[k] = r.header.Get("ETag")
		e.as(t, k).get(eventsPath(falcon), header("If-None-Match: "+etags[k])).want(http.StatusNotModified)
	}
	if etags["olivia-write"] == etags["oscar-write"] || etags["oscar-write"] == etags["bella-write"] {
		t.Errorf("callers who read different feeds share an ETag: %v", etags)
	}
	poll := func(step string, changed ...string) {
		t.Helper()
		for _, k := range keys {
			r := e.as(t, k).get(eventsPath(falcon), header("If-None-Match: "+etags[k]))
			want := http.StatusNotModified
			if slices.Contains(changed, k) {
				want = http.StatusOK
			}
			if r.status != want {
				t.Errorf("after %s, %s polls: %d, want %d", step, k, r.status, want)
			}
			if r.status == http.StatusOK {
				etags[k] = r.header.Get("ETag")
			}
		}
	}
	// A download: the owning side's project admin alone reads it.
	e.as(t, "ben-write").post(linkPath(falcon, e.fileID(certPDF)), nil).want(http.StatusOK)
	poll("a download", "olivia-write")
	// An internal note: the owning side reads it, the counterparty not.
	e.as(t, "oscar-write").post(messagesPath(falcon, e.row("falcon/2.9")), map[string]any{"kind": "internal_note", "text": "x"}).want(http.StatusCreated)
	poll("an internal note", "olivia-write", "oscar-write")
	// An edit: everyone.
	e.as(t, "oscar-write").patch(requestPath(falcon, e.row("falcon/2.9")), map[string]any{"priority": "low"}).want(http.StatusOK)
	poll("an edit", keys...)
	// A read that records nothing changes nothing.
	e.as(t, "bella-write").get(requestsPath(falcon)).want(http.StatusOK)
	poll("a list read")
}

// TestEventsAdvertised: the extension is named on every /api/ answer.
func TestEventsAdvertised(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.as(t, "bella-write").get(eventsPath(e.deal("falcon"))).want(http.StatusOK)
	if !slices.Contains(strings.Split(strings.ReplaceAll(r.header.Get("X-Dealctl-Extensions"), " ", ""), ","), "events") {
		t.Errorf("X-Dealctl-Extensions %q does not name events", r.header.Get("X-Dealctl-Extensions"))
	}
	if got := r.events(); len(got) != 0 {
		t.Errorf("a seeded world has %d events, want none (seeding records none)", len(got))
	}
}

// TestEventsNoneForRefusedCalls: a call the API refuses, before or
// inside the write, records nothing.
func TestEventsNoneForRefusedCalls(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, r21 := e.deal("falcon"), e.row("falcon/2.1")
	oscar := e.as(t, "oscar-write")
	oscar.patch(requestPath(falcon, r21), map[string]any{"title": "x"}, header(`If-Match: "stale"`)).wantErr(http.StatusConflict, api.CodeConflictStale, "")
	oscar.patch(requestPath(falcon, r21), map[string]any{"number": "3"}).wantErr(http.StatusConflict, api.CodeConflict, api.ReasonDuplicateNumber)
	oscar.post(requestsPath(falcon), map[string]any{"title": "dup", "number": "3"}).wantErr(http.StatusConflict, api.CodeConflict, api.ReasonDuplicateNumber)
	e.as(t, "bella-write").patch(requestPath(falcon, e.row("falcon/1.3")), map[string]any{"status": "open"}).wantErr(http.StatusConflict, api.CodeConflict, api.ReasonStatusNotAllowed)
	e.as(t, "bianca-write").post(messagesPath(falcon, r21), map[string]any{"text": "hi"}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonCannotPost)
	e.as(t, "bella-read").post(messagesPath(falcon, r21), map[string]any{"text": "hi"}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonReadOnlyKey)
	e.as(t, "bella-write").post(linkPath(falcon, e.fileID(scanTXT)), nil).wantErr(http.StatusConflict, api.CodeConflict, api.ReasonNotDownloadable)
	if got := e.as(t, "olivia-write").get(eventsPath(falcon)).want(http.StatusOK).events(); len(got) != 0 {
		t.Errorf("refused calls recorded %v", eventLines(t, got))
	}
}
