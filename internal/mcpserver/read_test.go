package mcpserver

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

func TestWhoamiBothSides(t *testing.T) {
	a := startAPI(t)
	for _, c := range []struct {
		key, email, side string
		owning           bool
	}{{aliceKey, "alice@target.example", "sell", true}, {bobKey, "bob@acme.example", "buy", false}} {
		out := callOK[WhoamiOut](a.session(t, c.key, sessionOptions{}), "whoami", nil)
		if out.User.Email != c.email || out.WritesEnabled || out.KeyAccess != "write" || out.Seat == nil ||
			out.Seat.Side != c.side || out.Seat.OwningSide != c.owning || out.Seat.Deal.Codename != "Falcon" {
			t.Errorf("whoami with %s's key = %+v, seat %+v", c.email, out, out.Seat)
		}
	}
}

func TestListAndGetRequests(t *testing.T) {
	a := startAPI(t)
	s := a.session(t, aliceKey, sessionOptions{})
	deals := callOK[ListDealsOut](s, "list_deals", nil)
	if len(deals.Deals) != 1 || deals.Deals[0].Codename != "Falcon" || len(deals.Deals[0].Parties) != 2 {
		t.Fatalf("list_deals = %+v", deals)
	}
	all := callOK[ListRequestsOut](s, "list_requests", nil)
	if all.Matched != 5 || len(all.Requests) != 5 || all.Requests[0].Kind != "section" {
		t.Fatalf("list_requests = %+v", all)
	}
	overdue := callOK[ListRequestsOut](s, "list_requests", map[string]any{"overdue": true})
	if got := numbers(overdue); got != "1.1,2.1" {
		t.Errorf("overdue = %s, want 1.1,2.1", got)
	}
	bobs := callOK[ListRequestsOut](s, "list_requests", map[string]any{"assignee": "bob@acme.example"})
	if got := numbers(bobs); got != "1.1" || bobs.Requests[0].Assignee.Side != "buy" || bobs.Requests[0].Assignee.YourSide {
		t.Errorf("bob's = %s, %+v", got, bobs.Requests)
	}
	tax := callOK[ListRequestsOut](s, "list_requests", map[string]any{"category": []string{"tax"}, "status": []string{"open"}})
	if got := numbers(tax); got != "1.2" {
		t.Errorf("tax = %s", got)
	}
	got := callOK[GetRequestOut](s, "get_request", map[string]any{"request": "2.1"})
	if len(got.Messages) != 1 || len(got.Files) != 1 || got.Files[0].DealContent.Name != "accounts-2024.pdf" ||
		got.Messages[0].Author.Email != "alice@target.example" || !got.Messages[0].Author.YourSide || got.Messages[0].Author.Side != "sell" {
		t.Fatalf("get_request 2.1 = %+v", got)
	}
	link := callOK[DownloadLinkOut](s, "download_link", map[string]any{"version_id": got.Files[0].VersionID})
	if !strings.HasPrefix(link.URL, a.URL+"/dl/") || link.DealContent.Filename != "accounts-2024.pdf" {
		t.Errorf("download_link = %+v", link)
	}
	if _, err := a.client(t, bobKey).DownloadLink(t.Context(), a.dealID(), got.Files[0].VersionID); err != nil {
		t.Errorf("the counterparty sees the file too: %v", err)
	}
}

func TestProgressActivitySearchAsCounterparty(t *testing.T) {
	a := startAPI(t)
	// The owning side posts an internal note, then a shared answer.
	alice := a.client(t, aliceKey)
	for _, m := range []api.MessageCreate{
		{Text: api.Some("internal only"), Kind: api.Some(api.MessageInternalNote)},
		{Text: api.Some("here it is"), Partial: api.Some(true)},
	} {
		if _, err := alice.PostMessage(t.Context(), a.dealID(), a.requestID("1.1"), m); err != nil {
			t.Fatal(err)
		}
	}
	s := a.session(t, bobKey, sessionOptions{})
	p := callOK[ProgressOut](s, "progress", map[string]any{"deal": "falcon"})
	if p.Total.Total != 3 || p.Total.Partial != 2 || p.Overdue != 2 || p.Today != "2026-03-10" {
		t.Errorf("progress = %+v", p)
	}
	act := callOK[ActivityOut](s, "activity", map[string]any{"since": "all"})
	if act.Source != "events" || len(act.Events) != 2 || act.Events[0].DealContent.What != "posted a partial answer" ||
		act.Events[0].Actor.Email != "alice@target.example" || act.Events[0].Actor.YourSide {
		t.Fatalf("activity = %+v", act)
	}
	for _, ev := range act.Events {
		if strings.Contains(ev.DealContent.What, "internal") {
			t.Errorf("the counterparty's activity shows %+v", ev)
		}
	}
	found := callOK[SearchOut](s, "search", map[string]any{"query": "AUDITED"})
	if found.Method != searchByServer || len(found.Hits) != 1 || found.Hits[0].Number != "2.1" || found.Hits[0].Field != "title" ||
		found.Hits[0].DealContent.Title != "Audited accounts" {
		t.Errorf("search = %+v", found)
	}
}

// TestSearchBothWays: the server's search finds words in threads too,
// never in the other side's internal notes; a server without it is
// searched here, in the rows' own text.
func TestSearchBothWays(t *testing.T) {
	a := startAPI(t)
	alice := a.session(t, aliceKey, sessionOptions{})
	mine := callOK[SearchOut](alice, "search", map[string]any{"query": "amended", "in": "messages"})
	if mine.Method != searchByServer || len(mine.Hits) != 1 || mine.Hits[0].Field != "message" || !mine.Hits[0].Internal ||
		len(mine.Hits[0].DealContent.Words) == 0 {
		t.Errorf("alice's search of her note = %+v", mine)
	}
	bob := a.session(t, bobKey, sessionOptions{})
	theirs := callOK[SearchOut](bob, "search", map[string]any{"query": "amended"})
	for _, h := range theirs.Hits {
		if h.Field == "message" || h.Number == "1.2" {
			t.Errorf("bob finds alice's internal note: %+v", h)
		}
	}
	a.hideExt.Store(true)
	plain := callOK[SearchOut](a.session(t, bobKey, sessionOptions{}), "search", map[string]any{"query": "amendments"})
	if plain.Method != searchByClient || len(plain.Requests) != 1 || plain.Requests[0].Number != "1.1" {
		t.Errorf("search without the extension = %+v", plain)
	}
}

// TestActivityWithoutEvents: a server without the events extension is
// answered with the requests updated since.
func TestActivityWithoutEvents(t *testing.T) {
	a := startAPI(t)
	a.hideExt.Store(true)
	s := a.session(t, aliceKey, sessionOptions{})
	act := callOK[ActivityOut](s, "activity", map[string]any{"since": "30d"})
	if act.Source != "updated_requests" || len(act.Updated) != 3 {
		t.Fatalf("activity = %+v", act)
	}
}

func numbers(out ListRequestsOut) string {
	var ns []string
	for _, r := range out.Requests {
		ns = append(ns, r.Number)
	}
	return strings.Join(ns, ",")
}

// TestEveryReadToolBothSides: each read tool answers either side, with
// what that side may see.
func TestEveryReadToolBothSides(t *testing.T) {
	a := startAPI(t)
	for _, c := range []struct {
		key      string
		messages int // on 1.2: the owning side sees its internal note
	}{{aliceKey, 2}, {bobKey, 1}} {
		s := a.session(t, c.key, sessionOptions{})
		got := callOK[GetRequestOut](s, "get_request", map[string]any{"request": "1.2", "deal": "Project Falcon"})
		if len(got.Messages) != c.messages {
			t.Errorf("%s sees %d messages on 1.2, want %d", c.key, len(got.Messages), c.messages)
		}
		file := callOK[GetRequestOut](s, "get_request", map[string]any{"request": a.requestID("2.1")}).Files[0]
		for tool, args := range map[string]map[string]any{
			"whoami": nil, "list_deals": nil, "list_requests": {"status": []string{"partial"}}, "progress": nil,
			"activity": {"since": "7d"}, "search": {"query": "accounts"}, "download_link": {"version_id": file.VersionID},
		} {
			res := s.call(tool, args)
			if res.IsError || res.StructuredContent == nil {
				t.Errorf("%s as %s: %s", tool, c.key, text(res))
			}
		}
	}
}

// TestRequestAsANumber: a request sent as a JSON number (1.2) is found
// where no other number reads as it; once 1.20 exists, the number is
// refused as ambiguous and the string still names each.
func TestRequestAsANumber(t *testing.T) {
	a := startAPI(t)
	s := a.session(t, aliceKey, sessionOptions{})
	if got := callOK[GetRequestOut](s, "get_request", map[string]any{"request": 1.2}); got.Request.Number != "1.2" {
		t.Errorf("1.2 as a number found %s", got.Request.Number)
	}
	if _, err := a.client(t, aliceKey).CreateRequest(t.Context(), a.dealID(), api.DealRequestCreate{
		Title: api.Some("Twentieth"), Number: api.Some("1.20"), ParentID: api.Some(a.requestID("1"))}); err != nil {
		t.Fatal(err)
	}
	res := s.call("get_request", map[string]any{"request": 1.2})
	if !res.IsError || !strings.Contains(text(res), `send the number as a string`) {
		t.Errorf("an ambiguous number: %s", text(res))
	}
	for _, n := range []string{"1.2", "1.20"} {
		if got := callOK[GetRequestOut](s, "get_request", map[string]any{"request": n}); got.Request.Number != n {
			t.Errorf("%q found %s", n, got.Request.Number)
		}
	}
	if res := s.call("get_request", map[string]any{"request": true}); !res.IsError {
		t.Errorf("a boolean request: %s", text(res))
	}
}

// TestListReadOncePerCall: a section (list_requests) or a request
// (activity without events) named by number reads the deal's list, and
// the filter runs on that list: it is not read a second time.
func TestListReadOncePerCall(t *testing.T) {
	a := startAPI(t)
	s := a.session(t, aliceKey, sessionOptions{})
	before := a.listReads()
	under := callOK[ListRequestsOut](s, "list_requests", map[string]any{"section": "1", "status": []string{"open"}})
	if got := numbers(under); got != "1.1,1.2" {
		t.Errorf("open under 1 = %s", got)
	}
	if n := a.listReads() - before; n != 1 {
		t.Errorf("list_requests read the list %d times, want 1", n)
	}
	a.hideExt.Store(true)
	before = a.listReads()
	act := callOK[ActivityOut](s, "activity", map[string]any{"request": "1.2", "since": "all"})
	if act.Source != "updated_requests" || len(act.Updated) != 1 || act.Updated[0].Number != "1.2" {
		t.Errorf("activity 1.2 = %+v", act)
	}
	if n := a.listReads() - before; n != 1 {
		t.Errorf("activity read the list %d times, want 1", n)
	}
}

// TestSchemasNameEnums: the schemas' descriptions name api's values
// where their tags say {priority}, and no placeholder is left.
func TestSchemasNameEnums(t *testing.T) {
	a := startAPI(t)
	tools := a.session(t, aliceKey, sessionOptions{allowWrites: true}).toolNames()
	placeholder := regexp.MustCompile(`\{[a-z_]+\}`)
	for name, tool := range tools {
		b, err := json.Marshal([]any{tool.InputSchema, tool.OutputSchema})
		if err != nil {
			t.Fatal(err)
		}
		if p := placeholder.Find(b); p != nil {
			t.Errorf("%s: a placeholder is left: %s", name, p)
		}
	}
	b, _ := json.Marshal(tools["list_requests"].InputSchema)
	if !strings.Contains(string(b), `"any of: low, medium or high"`) {
		t.Errorf("list_requests' priority: %s", b)
	}
	b, _ = json.Marshal(tools["list_requests"].OutputSchema)
	if !strings.Contains(string(b), `"open, partial or complete"`) {
		t.Errorf("list_requests' rows' status: %s", b)
	}
}

// TestListRequestsRefusesBlankFilters: a filter given with nothing in it
// is a tool error, as `dealctl requests ls` refuses it, not read as no
// filter (which would keep every request).
func TestListRequestsRefusesBlankFilters(t *testing.T) {
	a := startAPI(t)
	s := a.session(t, aliceKey, sessionOptions{})
	for _, args := range []map[string]any{
		{"status": []string{" "}},
		{"category": []string{",", ""}},
		{"assignee": "  "},
		{"search": " "},
	} {
		res := s.call("list_requests", args)
		if !res.IsError || !strings.Contains(text(res), "leave it out to keep every request") {
			t.Errorf("list_requests(%v): error %v, %q; want a tool error saying the filter is blank", args, res.IsError, text(res))
		}
	}
	if all := callOK[ListRequestsOut](s, "list_requests", map[string]any{"status": []string{}}); all.Matched == 0 {
		t.Errorf("an empty list of statuses: matched %d, want every request", all.Matched)
	}
}
