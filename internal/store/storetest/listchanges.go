package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// testListChanges: every write stamps the rows whose list row it changed
// with the deal's version, and, when the counterparty sees the change,
// with its shared version (migration 0009). ListChanges after a version
// reads exactly those rows; an internal note or a file on one never shows
// in the counterparty's changes; a deleted row is in Removed, and the
// parent it left is changed.
func testListChanges(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	versions := func() (int64, int64) {
		d := mustGet[store.Deal](t)(s.Deal(ctx, w.deal))
		return d.Version, d.SharedVersion
	}
	changed := func(since int64, shared bool) (ids, removed []string) {
		t.Helper()
		party := w.sell
		if shared {
			party = w.buy
		}
		ch := mustGet[store.ListChanges](t)(s.ListChanges(ctx, w.deal, since, shared, party, 280))
		for _, r := range ch.Requests {
			ids = append(ids, r.ID)
		}
		slices.Sort(ids)
		slices.Sort(ch.Removed)
		return ids, ch.Removed
	}
	expect := func(what string, since int64, shared bool, want []string, wantRemoved ...string) {
		t.Helper()
		slices.Sort(want)
		slices.Sort(wantRemoved)
		got, removed := changed(since, shared)
		if !slices.Equal(got, want) || !slices.Equal(removed, wantRemoved) {
			t.Errorf("%s (shared %v): changed %v removed %v, want %v and %v", what, shared, got, removed, want, wantRemoved)
		}
	}
	if all, _ := changed(0, true); len(all) != 4 {
		t.Errorf("since 0: %d rows, want the deal's 4", len(all))
	}
	v0, s0 := versions()
	expect("nothing written", v0, false, nil)
	expect("nothing written", s0, true, nil)

	// A shared answer: both sides see req21 change.
	m := w.message(w.req21)
	m.PartyID, m.Kind, m.Text, m.PostedAt = w.buy, api.MessageResponse, "answer", t0.Add(time.Hour)
	shared := mustGet[store.Message](t)(post(ctx, s, m))
	expect("a shared answer", v0, false, []string{w.req21})
	expect("a shared answer", s0, true, []string{w.req21})
	v1, s1 := versions()

	// An internal note and a file on it: the owning side only.
	note := w.message(w.req3)
	note.PartyID, note.AuthorID, note.Kind, note.Internal, note.Text, note.PostedAt = w.sell, &w.pAlice, api.MessageInternalNote, true, "internal", t0.Add(2*time.Hour)
	note = mustGet[store.Message](t)(post(ctx, s, note))
	mustGet[store.File](t)(s.AttachFile(ctx, store.File{DealID: w.deal, MessageID: note.ID, Name: ptr("memo.pdf"), Scanned: true}, []byte("memo")))
	if _, s2 := versions(); s2 != s1 {
		t.Errorf("an internal note moved the shared version from %d to %d", s1, s2)
	}
	expect("an internal note", v1, false, []string{w.req3})
	expect("an internal note", s1, true, nil)
	v2, _ := versions()

	// A file on the shared answer: both sides.
	mustGet[store.File](t)(s.AttachFile(ctx, store.File{DealID: w.deal, MessageID: shared.ID, Name: ptr("cert.pdf"), Scanned: true}, []byte("cert")))
	expect("a file on a shared answer", v2, false, []string{w.req21})
	expect("a file on a shared answer", s1, true, []string{w.req21})
	v3, s3 := versions()

	// A row renumbered: it alone.
	mustGet[store.Request](t)(s.UpdateRequest(ctx, w.deal, w.req21, func(r *store.Request) error {
		r.Number, r.UpdatedAt = "2.9", t0.Add(3*time.Hour)
		return nil
	}))
	expect("a row renumbered", v3, false, []string{w.req21})
	expect("a row renumbered", s3, true, []string{w.req21})
	v4, s4 := versions()

	// A world file moving a row under another section: it, and the
	// section it left.
	must(t, s.Apply(ctx, func(tx store.AdminTx) error {
		r := mustGet[store.Request](t)(s.Request(ctx, w.deal, w.req21))
		r.ParentID, r.UpdatedAt = &w.sec1, t0.Add(4*time.Hour)
		_, err := tx.PutRequest(r)
		return err
	}))
	expect("a row moved", v4, false, []string{w.req21, w.sec2})
	expect("a row moved", s4, true, []string{w.req21, w.sec2})
	v4, s4 = versions()

	// A world file changing a row: stamped with the version Apply makes.
	must(t, s.Apply(ctx, func(tx store.AdminTx) error {
		r := w.row(w.req3, nil, api.KindRequest, "3", "Retitled by the world file")
		r.UpdatedAt = t0.Add(4 * time.Hour)
		_, err := tx.PutRequest(r)
		return err
	}))
	expect("a world file", v4, false, []string{w.req3})
	expect("a world file", s4, true, []string{w.req3})
	v5, s5 := versions()

	// A row created, then deleted: removed, and its parent changed.
	created := w.row(newID(), &w.sec2, api.KindRequest, "2.7", "Short-lived")
	created = mustGet[store.Request](t)(s.CreateRequest(ctx, created))
	expect("a row created", v5, false, []string{created.ID})
	v6, s6 := versions()
	mustGet[store.Request](t)(s.DeleteRequest(ctx, w.deal, created.ID, func(store.Request, int, int) error { return nil }))
	expect("a deletion", v6, false, []string{w.sec2}, created.ID)
	expect("a deletion", s6, true, []string{w.sec2}, created.ID)
	expect("everything since the first read", v0, false, []string{w.req21, w.req3, w.sec2}, created.ID)
	expect("everything the counterparty sees", s0, true, []string{w.req21, w.req3, w.sec2}, created.ID)
	_ = s5
}

func post(ctx context.Context, s store.Store, m store.Message) (store.Message, error) {
	got, _, err := s.PostMessage(ctx, store.PostMessage{Message: m})
	return got, err
}
