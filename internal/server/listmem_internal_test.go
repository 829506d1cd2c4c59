package server

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// TestRowSetSizeIsTheHeapItHolds: what a row set counts against the list
// cache's budget (rowSet.size) is, within a tenth, the heap it holds:
// measured as the live heap after a collection with the set kept, less
// the live heap with it gone, on a deal of 550 rows shaped like the
// scale program's (titles, bodies, due dates, assignees, an answer on
// every third request). The budget is what bounds the server's memory
// (docs/server.md, "Scaling with cores"), so it must count what is held.
// Not parallel: other tests' allocations would move the heap measured.
func TestRowSetSizeIsTheHeapItHolds(t *testing.T) {
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, filepath.Join(t.TempDir(), "mem.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	dc := seedScaleDeal(t, st, 550)
	build := func() *rowSet {
		changes, err := st.ListChanges(ctx, dc.deal.ID, 0, !dc.caller.OwnerSide, dc.seat.PartyID, api.MaxPreviewLen)
		if err != nil {
			t.Fatal(err)
		}
		set, err := applyChanges(nil, changes, newDealView(dc), listVersion(dc), listContext(dc))
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	build() // the first build's lasting allocations (statements, tables) are not the set's
	before := liveHeap()
	set := build()
	held := liveHeap() - before
	runtime.KeepAlive(set)
	if len(set.rows) != 550 {
		t.Fatalf("the set holds %d rows, want 550", len(set.rows))
	}
	t.Logf("counts %d (%d a row), holds %d (%d a row)", set.size, set.size/len(set.rows), held, int(held)/len(set.rows))
	if ratio := float64(set.size) / float64(held); ratio < 0.9 || ratio > 1.1 {
		t.Errorf("the set counts %d bytes (%d a row) for %d bytes held (%d a row): off by more than a tenth",
			set.size, set.size/len(set.rows), held, int(held)/len(set.rows))
	}
}

// liveHeap is the heap in use after a full collection.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// seedScaleDeal makes a deal of rows rows in sections of 11 (a section
// and 10 requests), as internal/tools/scale does, and returns the call
// of its owning side's admin.
func seedScaleDeal(t *testing.T, st *sqlstore.DB, rows int) *dealCall {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	dealID, sell, buy := store.NewID(), store.NewID(), store.NewID()
	err := st.Apply(ctx, func(tx store.AdminTx) error {
		org, seller, buyer := store.NewID(), store.NewID(), store.NewID()
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		must(tx.PutOrganization(store.Organization{ID: org, Name: "Target"}))
		must(tx.PutUser(store.User{ID: seller, OrganizationID: org}))
		must(tx.PutUser(store.User{ID: buyer, OrganizationID: org}))
		must(tx.PutDeal(store.Deal{ID: dealID, Name: "Mem", Codename: "Mem", Timezone: "UTC"}))
		must(tx.PutParty(store.Party{ID: sell, DealID: dealID, Side: api.SideSell, IsOwner: true}))
		must(tx.PutParty(store.Party{ID: buy, DealID: dealID, Side: api.SideBuy, Position: 1}))
		owner, err := tx.PutPerson(store.Person{DealID: dealID, UserID: seller, PartyID: sell, Access: api.AccessAdmin, Role: api.RolePrincipal, Joined: true})
		must(err)
		answerer, err := tx.PutPerson(store.Person{DealID: dealID, UserID: buyer, PartyID: buy, Access: api.AccessAdmin, Role: api.RolePrincipal, Joined: true})
		must(err)
		cats := []api.RequestCategory{api.CategoryLegal, api.CategoryBusiness}
		pris := []api.Priority{api.PriorityLow, api.PriorityMedium, api.PriorityHigh}
		var section string
		for n := range rows {
			s, i := n/11+1, n%11
			if i == 0 {
				section, err = tx.PutRequest(store.Request{DealID: dealID, Kind: api.KindSection, Number: fmt.Sprint(s), Title: fmt.Sprintf("Workstream %d", s),
					Status: api.StatusOpen, Priority: api.PriorityMedium, Category: api.CategoryBusiness, CreatedAt: now, UpdatedAt: now})
				must(err)
				continue
			}
			k := s*10 + i
			due := fmt.Sprintf("2027-%02d-%02d", k%12+1, k%28+1)
			row := store.Request{DealID: dealID, ParentID: &section, Kind: api.KindRequest, Number: fmt.Sprintf("%d.%d", s, i),
				Title:  fmt.Sprintf("Request %d.%d: copies of every agreement of kind %d, with amendments", s, i, k%97),
				Body:   fmt.Sprintf("Provide the signed copies, the schedules and any side letters. Flag anything that changes control, pricing or exclusivity. Ref %d.", k),
				Status: api.StatusOpen, Priority: pris[k%3], Category: cats[k%2], DueDate: &due, CreatedAt: now, UpdatedAt: now}
			if k%2 == 0 {
				row.AssigneeID = &owner
			}
			id, err := tx.PutRequest(row)
			must(err)
			if k%3 == 0 {
				must(tx.PutMessage(store.Message{ID: store.NewID(), DealID: dealID, RequestID: id, PartyID: buy, AuthorID: &answerer,
					Kind: api.MessageResponse, Partial: true, Source: api.SourceWeb, Text: fmt.Sprintf("Attached the agreements for %d.%d, more to come.", s, i),
					Format: api.FormatMarkdown, PostedAt: now}))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	deal, err := st.Deal(ctx, dealID)
	if err != nil {
		t.Fatal(err)
	}
	parties, people, err := st.Members(ctx, dealID)
	if err != nil {
		t.Fatal(err)
	}
	for _, seat := range people {
		if seat.PartyID == sell {
			return newDealCall(keyCall(api.KeyWrite), deal, membersOf(parties, people), seat)
		}
	}
	t.Fatal("no owner seat")
	return nil
}
