package world

import (
	"context"
	"io/fs"
	"path"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

func TestDemo(t *testing.T) {
	db := openStore(t)
	ctx := context.Background()
	res, err := ApplyDemo(ctx, db, testNow)
	if err != nil {
		t.Fatal(err)
	}
	dealID := res.Deals["orion"]
	rows, err := db.Requests(ctx, dealID)
	if err != nil {
		t.Fatal(err)
	}
	deal, _ := db.Deal(ctx, dealID)
	today := resolveDate("today", testNow, mustLoad(t, deal.Timezone))
	weekEnd := resolveDate("+7d", testNow, mustLoad(t, deal.Timezone))
	sections, requests, overdue, thisWeek := 0, 0, 0, 0
	statuses := map[api.RequestStatus]int{}
	for _, r := range rows {
		if r.Kind == api.KindSection {
			sections++
			continue
		}
		requests++
		statuses[r.Status]++
		if r.DueDate == nil {
			continue
		}
		if *r.DueDate < today && r.Status != api.StatusComplete {
			overdue++
		}
		if *r.DueDate >= today && *r.DueDate <= weekEnd {
			thisWeek++
		}
	}
	if sections != 6 || requests < 55 || requests > 65 {
		t.Errorf("%d sections and %d requests; want 6 and about 60", sections, requests)
	}
	if overdue == 0 || thisWeek == 0 {
		t.Errorf("%d overdue and %d due this week; want some of each", overdue, thisWeek)
	}
	if statuses[api.StatusOpen] == 0 || statuses[api.StatusPartial] == 0 || statuses[api.StatusComplete] == 0 {
		t.Errorf("statuses %v; want every status", statuses)
	}
	msgs, err := dealMessages(ctx, db, dealID)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[api.MessageKind]int{}
	for _, m := range msgs {
		kinds[m.Kind]++
		if m.PostedAt.After(testNow) {
			t.Errorf("message %s posted in the future: %v", m.ID, m.PostedAt)
		}
	}
	if kinds[api.MessageResponse] == 0 || kinds[api.MessageQuestion] == 0 || kinds[api.MessageInternalNote] == 0 {
		t.Errorf("message kinds %v; want answers, questions and internal notes", kinds)
	}
	files, _ := db.Files(ctx, dealID, "")
	links, downloadable, withheld := 0, 0, 0
	for _, f := range files {
		switch {
		case f.Kind == api.FileKindLink:
			links++
		case f.Downloadable():
			downloadable++
		default:
			withheld++
		}
	}
	if links == 0 || downloadable == 0 || withheld != 1 {
		t.Errorf("%d links, %d downloadable files, %d not scanned; want some, some, one", links, downloadable, withheld)
	}
	for _, name := range []string{DemoSellAdmin, DemoSellEditor, DemoBuyEditor, DemoBuyViewer} {
		k, ok := res.Keys[name]
		if !ok || k.Secret == "" || k.Email == "" {
			t.Errorf("demo key %s: %+v", name, k)
		}
	}
	if res.Keys[DemoBuyViewer].Access != api.KeyRead || res.Keys[DemoSellAdmin].Access != api.KeyWrite {
		t.Errorf("demo key access: %+v", res.Keys)
	}
}

func TestDemoSidesAndAccess(t *testing.T) {
	w, err := Parse(Demo())
	if err != nil {
		t.Fatal(err)
	}
	d := w.Deals[0]
	owner := map[string]bool{}
	for _, p := range d.Parties {
		owner[p.Key] = p.Owner
	}
	seen := map[[2]string]bool{}
	for _, p := range d.People {
		seen[[2]string{p.Party, p.Access}] = true
	}
	for _, party := range []string{"sell", "buy"} {
		for _, access := range []string{"admin", "editor", "viewer"} {
			if !seen[[2]string{party, access}] {
				t.Errorf("no %s %s in the demo", party, access)
			}
		}
	}
	if !owner["sell"] || owner["buy"] {
		t.Errorf("the sell side must own the list: %v", owner)
	}
}

// TestDemoHistory: a fresh demo's week of conversations is in its event
// history (what `activity` and the TUI's activity view read), oldest
// first, one message.posted per message and file.attached per file;
// internal notes are read by their own side only. A world file applied
// with admin apply records none (TestApplyRecordsNoHistory).
func TestDemoHistory(t *testing.T) {
	db := openStore(t)
	ctx := context.Background()
	res, err := ApplyDemo(ctx, db, testNow)
	if err != nil {
		t.Fatal(err)
	}
	dealID := res.Deals["orion"]
	msgs, err := dealMessages(ctx, db, dealID)
	if err != nil {
		t.Fatal(err)
	}
	parties, err := db.Parties(ctx, dealID)
	if err != nil {
		t.Fatal(err)
	}
	owner := ""
	for _, p := range parties {
		if p.IsOwner {
			owner = p.ID
		}
	}
	events, err := db.Events(ctx, dealID, store.EventQuery{Limit: 100000, PartyID: owner, Audit: true})
	if err != nil {
		t.Fatal(err)
	}
	posted, internal := 0, 0
	for i, e := range events {
		if i > 0 && e.At.Before(events[i-1].At) {
			t.Fatalf("event %d (%s) is older than the one before it", i, e.At)
		}
		if e.Type == api.EventMessagePosted {
			posted++
			if e.Scope == store.ScopeParty {
				internal++
			}
		}
	}
	if posted != len(msgs) || posted == 0 {
		t.Errorf("%d message.posted events for %d seeded messages", posted, len(msgs))
	}
	if internal == 0 {
		t.Errorf("no internal note's event is kept to its side")
	}
	if events[len(events)-1].At.After(testNow) || events[0].At.After(testNow.AddDate(0, 0, -3)) {
		t.Errorf("the history runs from %s to %s; want the week before %s", events[0].At, events[len(events)-1].At, testNow)
	}
}

func TestApplyRecordsNoHistory(t *testing.T) {
	db := openStore(t)
	ctx := context.Background()
	w, err := Parse(Demo())
	if err != nil {
		t.Fatal(err)
	}
	res, err := ApplyWith(ctx, db, w, func(p string) ([]byte, error) { return fs.ReadFile(demoFS, path.Join("demo", p)) }, testNow)
	if err != nil {
		t.Fatal(err)
	}
	events, err := db.Events(ctx, res.Deals["orion"], store.EventQuery{Limit: 10, Audit: true})
	if err != nil || len(events) != 0 {
		t.Errorf("admin apply recorded %d events (%v)", len(events), err)
	}
}
