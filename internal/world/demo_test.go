package world

import (
	"context"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
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
