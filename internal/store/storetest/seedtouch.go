package storetest

import (
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// testSeedingTouchesRequests: a seeded message or file that changes what
// a request shows moves its updated_at (its ETag's base); the same seed
// applied again moves nothing; an internal message moves only
// internal_updated_at.
func testSeedingTouchesRequests(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	get := func() store.Request { return mustGet[store.Request](t)(s.Request(ctx, w.deal, w.req21)) }
	m := w.message(w.req21)
	m.ID = newID()
	f := store.File{VersionID: newID(), DealID: w.deal, RequestID: w.req21, MessageID: m.ID, Kind: api.FileKindFile,
		Name: ptr("scan.pdf"), Scanned: false}
	apply := func(m store.Message, f store.File) {
		t.Helper()
		must(t, s.Apply(ctx, func(tx store.AdminTx) error {
			if err := tx.PutMessage(m); err != nil {
				return err
			}
			return tx.PutFile(f, []byte("pdf"))
		}))
	}
	apply(m, f)
	first := get()
	apply(m, f)
	if again := get(); !again.UpdatedAt.Equal(first.UpdatedAt) {
		t.Errorf("re-seeding unchanged moved updated_at from %v to %v", first.UpdatedAt, again.UpdatedAt)
	}
	f.Scanned = true
	apply(m, f)
	scanned := get()
	if !scanned.UpdatedAt.After(first.UpdatedAt) {
		t.Errorf("a file becoming downloadable left updated_at at %v", scanned.UpdatedAt)
	}
	note := w.message(w.req21)
	note.ID, note.PartyID, note.Kind, note.Internal = newID(), w.sell, api.MessageInternalNote, true
	must(t, s.Apply(ctx, func(tx store.AdminTx) error { return tx.PutMessage(note) }))
	after := get()
	if !after.UpdatedAt.Equal(scanned.UpdatedAt) || after.InternalUpdatedAt == nil {
		t.Errorf("an internal note: updated_at %v (want %v unchanged), internal_updated_at %v (want set)", after.UpdatedAt, scanned.UpdatedAt, after.InternalUpdatedAt)
	}
}
