package sqlstore

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// TestWritesRefuseNewerSchema: once a newer build has migrated the
// database, every kind of write of this build is refused inside its
// transaction and changes nothing, on both dialects; a write on a deal
// that does not exist is still ErrNotFound on a current schema. The
// version check rides on the deal's version bump for the writes on a
// deal, so both outcomes of that statement are held here.
func TestWritesRefuseNewerSchema(t *testing.T) {
	t.Parallel()
	onEachDialect(t, func(t *testing.T, db *DB) {
		ctx := context.Background()
		ids := seedMinimal(t, db)
		post := func(dealID string) error {
			_, _, err := db.PostMessage(ctx, store.PostMessage{Message: store.Message{DealID: dealID, RequestID: ids.request,
				PartyID: ids.party, AuthorID: &ids.person, Kind: api.MessageResponse, Source: api.SourceAPI, Format: api.FormatMarkdown, Text: "x"}})
			return err
		}
		if err := post(store.NewID()); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a post on no deal: %v, want ErrNotFound", err)
		}
		before, err := db.Deal(ctx, ids.deal)
		if err != nil {
			t.Fatal(err)
		}
		newer := db.KnownSchemaVersion() + 1
		if _, err := db.write.ExecContext(ctx, db.q("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future', 0)"), newer); err != nil {
			t.Fatal(err)
		}
		writes := map[string]func() error{
			"PostMessage": func() error { return post(ids.deal) },
			"UpdateRequest": func() error {
				_, err := db.UpdateRequest(ctx, ids.deal, ids.request, func(r *store.Request) error { r.Title = "changed"; return nil })
				return err
			},
			"CreateRequest": func() error {
				_, err := db.CreateRequest(ctx, store.Request{DealID: ids.deal, Kind: api.KindSection, Title: "new",
					Status: api.StatusOpen, Priority: api.PriorityMedium, Category: api.CategoryBusiness})
				return err
			},
			"SetDealArchived": func() error { return db.SetDealArchived(ctx, ids.deal, true) },
			// Not a write on a deal: the version is read on its own.
			"ClaimNotifications": func() error {
				_, err := db.ClaimNotifications(ctx, time.Now(), 10, time.Minute)
				return err
			},
		}
		for name, write := range writes {
			var newerErr *SchemaNewerError
			if err := write(); !errors.As(err, &newerErr) || newerErr.Database != newer {
				t.Errorf("%s on a newer schema: %v, want a *SchemaNewerError naming %d", name, err, newer)
			}
		}
		after, err := db.Deal(ctx, ids.deal)
		if err != nil {
			t.Fatal(err)
		}
		if after != before {
			t.Errorf("the deal went from %+v to %+v: a refused write changed it", before, after)
		}
	})
}
