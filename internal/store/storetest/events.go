package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// allEvents reads every event of the deal, as the owning side's project
// admin (party sell, audit).
func allEvents(t *testing.T, s store.Store, w world) []store.Event {
	t.Helper()
	return mustGet[[]store.Event](t)(s.Events(ctxT(t), w.deal, store.EventQuery{Limit: 10_000, PartyID: w.sell, Audit: true}))
}

// eventsAfter reads the events recorded since the n-th one.
func eventsSince(t *testing.T, s store.Store, w world, n int) []store.Event {
	t.Helper()
	return allEvents(t, s, w)[n:]
}

func types(evs []store.Event) []api.EventType {
	out := make([]api.EventType, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

// wantOneWrite checks evs are one write's: one place, indexes from 0.
func wantOneWrite(t *testing.T, what string, evs []store.Event, want ...api.EventType) {
	t.Helper()
	if got := types(evs); !slices.Equal(got, want) {
		t.Fatalf("%s recorded %v, want %v", what, got, want)
	}
	for i, e := range evs {
		if e.Seq != evs[0].Seq || e.Index != i {
			t.Errorf("%s: event %d at place (%d, %d), want (%d, %d): one write, one place", what, i, e.Seq, e.Index, evs[0].Seq, i)
		}
	}
}

func dataOf(t *testing.T, e store.Event) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(e.Data, &m); err != nil {
		t.Fatalf("%s data %s: %v", e.Type, e.Data, err)
	}
	return m
}

// testEventsRecorded: every write records its events, with actor, time,
// request and data, at a place after every earlier write's.
func testEventsRecorded(t *testing.T, s store.Store) {
	w := seed(t, s)
	if evs := allEvents(t, s, w); len(evs) != 0 {
		t.Fatalf("seeding recorded %d events, want none", len(evs))
	}
	ctx := store.WithActor(ctxT(t), w.pAlice)
	created := mustGet[store.Request](t)(s.CreateRequest(ctx, w.row("", &w.sec1, api.KindRequest, "", "Share register")))
	evs := allEvents(t, s, w)
	wantOneWrite(t, "CreateRequest", evs, api.EventRequestCreated)
	if e := evs[0]; e.ActorID == nil || *e.ActorID != w.pAlice || e.RequestID == nil || *e.RequestID != created.ID || !e.At.Equal(created.CreatedAt) || e.Scope != store.ScopeShared {
		t.Errorf("created event = %+v", e)
	}
	if d := dataOf(t, evs[0]); d["number"] != "1.1" || d["title"] != "Share register" {
		t.Errorf("created data = %v", d)
	}

	n := len(evs)
	due := "2027-01-15"
	mustGet[store.Request](t)(s.UpdateRequest(ctx, w.deal, w.req21, func(r *store.Request) error {
		r.Title, r.Priority, r.AssigneeID, r.DueDate, r.Status = "Audited accounts 2023-2025", api.PriorityLow, &w.pCarol, &due, api.StatusPartial
		r.UpdatedAt = t0.Add(time.Hour)
		return nil
	}))
	evs = eventsSince(t, s, w, n)
	wantOneWrite(t, "UpdateRequest", evs, api.EventRequestEdited, api.EventAssigned, api.EventDueDateSet, api.EventStatusMoved)
	if d := dataOf(t, evs[0]); fmt.Sprint(d["fields"]) != "[title priority]" {
		t.Errorf("edited fields = %v, want [title priority]", d["fields"])
	}
	if d := dataOf(t, evs[1]); d["from"] != w.pBob || d["to"] != w.pCarol {
		t.Errorf("assigned data = %v", d)
	}
	if d := dataOf(t, evs[2]); d["from"] != "2026-12-01" || d["to"] != due {
		t.Errorf("due date data = %v", d)
	}
	if d := dataOf(t, evs[3]); d["from"] != "open" || d["to"] != "partial" {
		t.Errorf("status data = %v", d)
	}
	if all := allEvents(t, s, w); all[n].Seq <= all[n-1].Seq {
		t.Errorf("a later write's place %d is not after the earlier's %d", all[n].Seq, all[n-1].Seq)
	}

	// A write that changes nothing records nothing.
	n = len(allEvents(t, s, w))
	mustGet[store.Request](t)(s.UpdateRequest(ctx, w.deal, w.req21, func(r *store.Request) error { return nil }))
	if evs := eventsSince(t, s, w, n); len(evs) != 0 {
		t.Errorf("an update that changed nothing recorded %v", types(evs))
	}

	// A shared answer that moves the status: the author is the actor.
	complete := api.StatusComplete
	m, _ := mustPost(t, s, store.PostMessage{Message: w.message(w.req3), MoveStatus: &complete})
	evs = eventsSince(t, s, w, n)
	wantOneWrite(t, "PostMessage", evs, api.EventMessagePosted, api.EventStatusMoved)
	for _, e := range evs {
		if e.ActorID == nil || *e.ActorID != w.pBob || e.Scope != store.ScopeShared {
			t.Errorf("%s: actor %v scope %s, want bob, shared", e.Type, e.ActorID, e.Scope)
		}
	}
	if d := dataOf(t, evs[0]); d["message_id"] != m.ID || d["kind"] != "response" || d["internal"] != false {
		t.Errorf("posted data = %v", d)
	}

	// An internal note, and a file attached to it: its side's only.
	n = len(allEvents(t, s, w))
	note := w.message(w.req3)
	note.PartyID, note.AuthorID, note.Kind, note.Internal = w.sell, &w.pAlice, api.MessageInternalNote, true
	note, _ = mustPost(t, s, store.PostMessage{Message: note})
	f := mustGet[store.File](t)(s.AttachFile(ctxT(t), store.File{DealID: w.deal, MessageID: note.ID, Name: ptr("memo.txt"), Scanned: true}, []byte("memo")))
	evs = eventsSince(t, s, w, n)
	if got := types(evs); !slices.Equal(got, []api.EventType{api.EventMessagePosted, api.EventFileAttached}) {
		t.Fatalf("internal note and attachment recorded %v", got)
	}
	for _, e := range evs {
		if e.Scope != store.ScopeParty || e.PartyID == nil || *e.PartyID != w.sell {
			t.Errorf("%s on an internal note: scope %s party %v, want party %s", e.Type, e.Scope, e.PartyID, w.sell)
		}
	}
	if evs[1].ActorID != nil {
		t.Errorf("an admin attachment's actor = %v, want the system (nil)", *evs[1].ActorID)
	}
	if d := dataOf(t, evs[1]); d["version_id"] != f.VersionID || d["name"] != "memo.txt" {
		t.Errorf("attached data = %v", d)
	}

	// A download: its own place, audit scope; no version moves.
	n = len(allEvents(t, s, w))
	before := mustGet[store.Deal](t)(s.Deal(ctxT(t), w.deal))
	dl := store.Event{Type: api.EventFileFetched, At: t0, ActorID: &w.pBob, RequestID: &w.req3, Scope: store.ScopeAudit, Data: json.RawMessage(`{"number":"3"}`)}
	must(t, s.RecordEvents(ctxT(t), w.deal, dl))
	after := mustGet[store.Deal](t)(s.Deal(ctxT(t), w.deal))
	wantOneWrite(t, "RecordEvents", eventsSince(t, s, w, n), api.EventFileFetched)
	if after.Version != before.Version || after.SharedVersion != before.SharedVersion || after.EventSeq != before.EventSeq+1 {
		t.Errorf("a recorded download moved version %d->%d, shared %d->%d, event_seq %d->%d; want only event_seq +1",
			before.Version, after.Version, before.SharedVersion, after.SharedVersion, before.EventSeq, after.EventSeq)
	}
	wantErr(t, "RecordEvents on an unknown deal", s.RecordEvents(ctxT(t), newID(), dl), store.ErrNotFound)
	// The neighbour deal saw none of it.
	if evs := mustGet[[]store.Event](t)(s.Events(ctxT(t), w.other, store.EventQuery{Limit: 100, PartyID: w.otherSell, Audit: true})); len(evs) != 0 {
		t.Errorf("Hawk has %d events, want none", len(evs))
	}
}

func mustPost(t *testing.T, s store.Store, p store.PostMessage) (store.Message, store.Request) {
	t.Helper()
	m, r, err := s.PostMessage(ctxT(t), p)
	if err != nil {
		t.Fatal(err)
	}
	return m, r
}

// testEventsFailedWrites: a write that fails, on a precondition or on a
// constraint, records nothing.
func testEventsFailedWrites(t *testing.T, s store.Store) {
	w := seed(t, s)
	ctx := store.WithActor(ctxT(t), w.pAlice)
	errPrecondition := errors.New("precondition failed")
	complete := api.StatusComplete
	for _, c := range []struct {
		name  string
		write func() error
	}{
		{"UpdateRequest refused by its change", func() error {
			_, err := s.UpdateRequest(ctx, w.deal, w.req21, func(r *store.Request) error {
				r.Status = api.StatusComplete
				return errPrecondition
			})
			return err
		}},
		{"UpdateRequest to a taken number", func() error {
			_, err := s.UpdateRequest(ctx, w.deal, w.req21, func(r *store.Request) error {
				r.Number, r.Title = "3", "renamed"
				return nil
			})
			return err
		}},
		{"CreateRequest with a taken number", func() error {
			_, err := s.CreateRequest(ctx, w.row("", nil, api.KindRequest, "3", "dup"))
			return err
		}},
		{"PostMessage whose notification fails", func() error {
			_, _, err := s.PostMessage(ctx, store.PostMessage{Message: w.message(w.req21), MoveStatus: &complete,
				Notify: func(store.Message) []store.Notification {
					return []store.Notification{{PersonID: newID(), Email: "ghost@example.com"}}
				}})
			return err
		}},
		{"PostMessage on an unknown request", func() error {
			_, _, err := s.PostMessage(ctx, store.PostMessage{Message: w.message(newID())})
			return err
		}},
		{"AttachFile on an unknown message", func() error {
			_, err := s.AttachFile(ctx, store.File{DealID: w.deal, MessageID: newID(), Name: ptr("x")}, []byte("x"))
			return err
		}},
	} {
		if err := c.write(); err == nil {
			t.Errorf("%s: succeeded", c.name)
		}
		if evs := allEvents(t, s, w); len(evs) != 0 {
			t.Errorf("%s: recorded %v", c.name, types(evs))
		}
	}
}

// testEventsVisibility: each reader gets exactly its events, and a page
// is never cut short by events it may not read.
func testEventsVisibility(t *testing.T, s store.Store) {
	w := seed(t, s)
	note := w.message(w.req3)
	note.PartyID, note.AuthorID, note.Kind, note.Internal = w.sell, &w.pAlice, api.MessageInternalNote, true
	for range 3 {
		mustPost(t, s, store.PostMessage{Message: note})
	}
	must(t, s.RecordEvents(ctxT(t), w.deal, store.Event{Type: api.EventLinkIssued, At: t0, Scope: store.ScopeAudit, Data: json.RawMessage(`{}`)}))
	mustPost(t, s, store.PostMessage{Message: w.message(w.req3)})
	read := func(q store.EventQuery) []store.Event {
		q.Limit = 1
		var out []store.Event
		for range 20 {
			page := mustGet[[]store.Event](t)(s.Events(ctxT(t), w.deal, q))
			if len(page) == 0 {
				return out
			}
			out = append(out, page...)
			q.After = page[len(page)-1].Cursor()
		}
		t.Fatal("paging did not end")
		return nil
	}
	for _, c := range []struct {
		name string
		q    store.EventQuery
		want int
	}{
		{"the counterparty", store.EventQuery{PartyID: w.buy}, 1},
		{"the owning side", store.EventQuery{PartyID: w.sell}, 4},
		{"the owning side's project admin", store.EventQuery{PartyID: w.sell, Audit: true}, 5},
	} {
		got := read(c.q)
		if len(got) != c.want {
			t.Errorf("%s pages through %d events (%v), want %d", c.name, len(got), types(got), c.want)
		}
		first := mustGet[[]store.Event](t)(s.Events(ctxT(t), w.deal, store.EventQuery{PartyID: c.q.PartyID, Audit: c.q.Audit, Limit: 1}))
		if len(first) != 1 {
			t.Errorf("%s: a first page of 1 has %d events: hidden events cut it short", c.name, len(first))
		}
	}
}

// ConcurrentEvents has writers post through the stores (instances on
// one database) while a reader polls with a cursor: the reader must end
// with every event exactly once, in the order a full read gives. A
// cursor over ids handed out before commit would skip an event whose
// transaction committed after a later-numbered one the reader had seen.
func ConcurrentEvents(t *testing.T, writers, each int, stores ...store.Store) {
	t.Helper()
	w := seed(t, stores[0])
	var done atomic.Bool
	var polled []store.Event
	var pollErr error
	var reader sync.WaitGroup
	reader.Add(1)
	go func() {
		defer reader.Done()
		var after store.Cursor
		for {
			finished := done.Load() // read before the poll: a last poll after the writers ended drains
			page, err := stores[len(stores)-1].Events(context.Background(), w.deal, store.EventQuery{After: after, Limit: 7, PartyID: w.sell, Audit: true})
			if err != nil {
				pollErr = err
				return
			}
			polled = append(polled, page...)
			if len(page) > 0 {
				after = page[len(page)-1].Cursor()
			}
			if finished && len(page) < 7 {
				return
			}
		}
	}()
	var wg sync.WaitGroup
	var failures atomic.Int64
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := stores[g%len(stores)]
			for i := range each {
				var err error
				switch (g + i) % 3 {
				case 0:
					msg := w.message(w.req21)
					msg.Text = fmt.Sprintf("[%d-%d]", g, i)
					_, _, err = s.PostMessage(context.Background(), store.PostMessage{Message: msg})
				case 1:
					_, err = s.UpdateRequest(context.Background(), w.deal, w.req3, func(r *store.Request) error {
						r.Body = fmt.Sprintf("[%d-%d]", g, i)
						return nil
					})
				default:
					err = s.RecordEvents(context.Background(), w.deal, store.Event{Type: api.EventFileFetched, At: t0, Scope: store.ScopeAudit, Data: json.RawMessage(`{}`)})
				}
				if err != nil {
					failures.Add(1)
					t.Errorf("writer %d op %d: %v", g, i, err)
				}
			}
		}()
	}
	wg.Wait()
	done.Store(true)
	reader.Wait()
	if pollErr != nil {
		t.Fatal(pollErr)
	}
	all := allEvents(t, stores[0], w)
	if want := writers*each - int(failures.Load()); len(all) != want {
		t.Errorf("a full read has %d events, want %d (one per acknowledged write)", len(all), want)
	}
	if len(polled) != len(all) {
		t.Errorf("the polling reader saw %d events, a full read %d: it missed or repeated some", len(polled), len(all))
	}
	for i := range min(len(polled), len(all)) {
		if polled[i].Cursor() != all[i].Cursor() {
			t.Fatalf("event %d: the poller saw place %v, a full read %v", i, polled[i].Cursor(), all[i].Cursor())
		}
	}
}

func testConcurrentEvents(t *testing.T, s store.Store) { ConcurrentEvents(t, 8, 12, s) }
