package sqlstore

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// TestRequestWriteFailuresChangeNothing: a write on a request that fails
// part-way leaves the deal, the request, its messages and the events as
// they were, and the connection it ran on takes the next write. On
// PostgreSQL the statements travel in pipelined batches, so each way a
// batch can fail is held here: a statement failing with COMMIT queued
// behind it (a duplicate message id), a statement that must change a row
// and changes none before COMMIT is sent (a lost idempotency claim), and
// the request missing from the first batch. On PostgreSQL the pool has
// one connection, which must come through every failure rolled back and
// kept, not replaced.
func TestRequestWriteFailuresChangeNothing(t *testing.T) {
	t.Parallel()
	onEachDialect(t, func(t *testing.T, db *DB) {
		db.write.SetMaxOpenConns(1) // SQLite's write pool has one already
		ctx := context.Background()
		ids := seedMinimal(t, db)
		backend := func() int {
			t.Helper()
			if db.Dialect() != Postgres {
				return 0
			}
			var pid int
			if err := db.write.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
				t.Fatal(err)
			}
			return pid
		}
		connection := backend()
		post := func(ctx context.Context, id, requestID string) error {
			_, _, err := db.PostMessage(ctx, store.PostMessage{Message: store.Message{ID: id, DealID: ids.deal, RequestID: requestID,
				PartyID: ids.party, AuthorID: &ids.person, Kind: api.MessageResponse, Source: api.SourceAPI, Format: api.FormatMarkdown, Text: "x"},
				MoveStatus: ptr(api.StatusComplete)})
			return err
		}
		type state struct {
			deal          store.Deal
			request       store.Request // without StatusChangedAt, a pointer
			statusChanged time.Time
			messages      int
			events        int
		}
		read := func() state {
			t.Helper()
			d, err := db.Deal(ctx, ids.deal)
			if err != nil {
				t.Fatal(err)
			}
			r, err := db.Request(ctx, ids.deal, ids.request)
			if err != nil {
				t.Fatal(err)
			}
			ms, err := db.Messages(ctx, ids.deal, ids.request)
			if err != nil {
				t.Fatal(err)
			}
			es, err := db.Events(ctx, ids.deal, store.EventQuery{Limit: 1000, PartyID: ids.party, Audit: true})
			if err != nil {
				t.Fatal(err)
			}
			var changed time.Time
			if r.StatusChangedAt != nil {
				changed, r.StatusChangedAt = *r.StatusChangedAt, nil
			}
			return state{d, r, changed, len(ms), len(es)}
		}
		seeded := read()
		first := store.NewID()
		if err := post(ctx, first, ids.request); err != nil {
			t.Fatalf("the first post: %v", err)
		}
		before := read()
		if before.messages != seeded.messages+1 || before.events == 0 || before.request.Status != api.StatusComplete {
			t.Fatalf("after the first post: %+v, want one more message, its events and the status moved", before)
		}

		// The claim was never taken, so it is not held.
		lost := store.WithClaim(ctx, &store.Claim{KeyID: store.NewID(), IdemKey: "k", CreatedAt: time.Now()})
		failures := map[string]struct {
			write func() error
			want  error
		}{
			"duplicate message id":   {func() error { return post(ctx, first, ids.request) }, store.ErrDuplicate},
			"idempotency claim lost": {func() error { return post(lost, store.NewID(), ids.request) }, store.ErrClaimLost},
			"no such request":        {func() error { return post(ctx, store.NewID(), store.NewID()) }, store.ErrNotFound},
			"edit refused by change": {func() error {
				_, err := db.UpdateRequest(ctx, ids.deal, ids.request, func(r *store.Request) error { return errRefused })
				return err
			}, errRefused},
		}
		for name, f := range failures {
			if err := f.write(); !errors.Is(err, f.want) {
				t.Errorf("%s: %v, want %v", name, err, f.want)
			}
			if after := read(); after != before {
				t.Errorf("%s changed the deal:\n got %+v\nwant %+v", name, after, before)
			}
		}

		if got := backend(); got != connection {
			t.Errorf("the write connection changed (backend %d, then %d): a failed write left it in a transaction", connection, got)
		}
		if _, err := db.UpdateRequest(ctx, ids.deal, ids.request, func(r *store.Request) error { r.Title = "after"; return nil }); err != nil {
			t.Fatalf("a write after the failures: %v", err)
		}
		if got := read(); got.request.Title != "after" || got.deal.Version != before.deal.Version+1 || got.events != before.events+1 {
			t.Errorf("after an edit: %+v, want the title changed, the version and the events one on from %+v", got, before)
		}
	})
}

var errRefused = errors.New("refused by the change")

func ptr[T any](v T) *T { return &v }

// onEachDialect runs test on a fresh SQLite file and on a PostgreSQL
// database of its own.
func onEachDialect(t *testing.T, test func(t *testing.T, db *DB)) {
	t.Run(SQLite, func(t *testing.T) { test(t, openSQLitePath(t, filepath.Join(t.TempDir(), "dealctl.db"))) })
	t.Run(Postgres, func(t *testing.T) { test(t, openPostgresTest(t)) })
}
