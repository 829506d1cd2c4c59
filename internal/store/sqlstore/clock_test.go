package sqlstore

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/store"
)

// testClock is a clock a test moves.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestStampsComeFromTheInjectedClock: every time the store stamps on a
// row itself reads OpenOptions.Now, not the machine's clock — a server's
// tests move one clock for the server and its store.
func TestStampsComeFromTheInjectedClock(t *testing.T) {
	t.Parallel()
	opens := map[string]func(t *testing.T, now func() time.Time) *DB{
		SQLite: func(t *testing.T, now func() time.Time) *DB {
			return openWithClock(t, filepath.Join(t.TempDir(), "dealctl.db"), now)
		},
		Postgres: func(t *testing.T, now func() time.Time) *DB { return openWithClock(t, pgtest.URL(t), now) },
	}
	for _, dialect := range []string{SQLite, Postgres} {
		t.Run(dialect, func(t *testing.T) {
			// Years from the machine's clock, on a microsecond, as stored.
			clk := &testClock{now: time.Date(2031, 5, 6, 7, 8, 9, 123456000, time.UTC)}
			db := opens[dialect](t, clk.Now)
			testStampsComeFrom(t, db, clk)
		})
	}
}

func openWithClock(t *testing.T, dsn string, now func() time.Time) *DB {
	t.Helper()
	db, err := OpenWith(context.Background(), dsn, OpenOptions{Now: now})
	if err != nil {
		t.Fatalf("OpenWith: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func testStampsComeFrom(t *testing.T, db *DB, clk *testClock) {
	ctx := context.Background()
	want := func(what string, got time.Time) {
		t.Helper()
		if !got.Equal(clk.Now()) {
			t.Errorf("%s stamped %v, want the injected clock's %v", what, got, clk.Now())
		}
	}
	var applied int64
	if err := db.read.QueryRowContext(ctx, "SELECT MAX(applied_at) FROM schema_migrations").Scan(&applied); err != nil {
		t.Fatal(err)
	}
	want("a migration", time.UnixMicro(applied))

	ids := seedMinimal(t, db)
	clk.Advance(time.Minute)
	r, err := db.CreateRequest(ctx, store.Request{DealID: ids.deal, ParentID: &ids.request, Kind: api.KindRequest, Title: "Child",
		Status: api.StatusOpen, Priority: api.PriorityHigh, Category: api.CategoryLegal})
	if err != nil {
		t.Fatal(err)
	}
	want("a created request", r.CreatedAt)

	clk.Advance(time.Minute)
	r, err = db.UpdateRequest(ctx, ids.deal, r.ID, func(r *store.Request) error { r.Body = "Body"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	want("an updated request", r.UpdatedAt)

	clk.Advance(time.Minute)
	m, _, err := db.PostMessage(ctx, store.PostMessage{Message: store.Message{DealID: ids.deal, RequestID: ids.request, PartyID: ids.party,
		Kind: api.MessageResponse, Source: api.SourceAPI, Text: "Hello", Format: api.FormatText}})
	if err != nil {
		t.Fatal(err)
	}
	want("a posted message", m.PostedAt)

	clk.Advance(time.Minute)
	info, err := db.PutBlob(ctx, strings.NewReader("file bytes"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AttachBlob(ctx, store.File{DealID: ids.deal, MessageID: m.ID, Name: ptr("a.txt"), SHA256: info.SHA256, Size: &info.Size}); err != nil {
		t.Fatal(err)
	}
	wantSectionUpdated := func(what string) {
		t.Helper()
		section, err := db.Request(ctx, ids.deal, ids.request)
		if err != nil {
			t.Fatal(err)
		}
		want(what, section.UpdatedAt)
	}
	wantSectionUpdated("a file attached by an administrator")

	clk.Advance(time.Minute)
	m.Text = "Hello again"
	if err := db.Apply(ctx, func(tx store.AdminTx) error { return tx.PutMessage(m) }); err != nil {
		t.Fatal(err)
	}
	wantSectionUpdated("a message changed by a world file")

	clk.Advance(time.Minute)
	if _, err := db.DeleteRequest(ctx, ids.deal, r.ID, func(store.Request, int, int) error { return nil }); err != nil {
		t.Fatal(err)
	}
	events, err := db.Events(ctx, ids.deal, store.EventQuery{Audit: true, PartyID: ids.party, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(events) == 0 || events[len(events)-1].Type != api.EventRequestDeleted {
		t.Fatalf("the last event is not the delete: %+v", events)
	}
	want("a delete's event", events[len(events)-1].At)

	clk.Advance(time.Minute)
	if _, err := db.SetDigestOptOut(ctx, ids.person, true); err != nil {
		t.Fatal(err)
	}
	var optedOut int64
	if err := db.read.QueryRowContext(ctx, db.q("SELECT opted_out_at FROM digest_opt_outs WHERE person_id = ?"), ids.person).Scan(&optedOut); err != nil {
		t.Fatal(err)
	}
	want("a digest opt-out", time.UnixMicro(optedOut))

	clk.Advance(time.Minute)
	if err := db.CheckWritable(ctx); err != nil {
		t.Fatal(err)
	}
	var probe string
	if err := db.read.QueryRowContext(ctx, db.q("SELECT value FROM settings WHERE name = ?"), readyProbeSetting).Scan(&probe); err != nil {
		t.Fatal(err)
	}
	if probe != strconv.FormatInt(clk.Now().UnixMicro(), 10) {
		t.Errorf("the readiness probe wrote %s, want the injected clock's %d", probe, clk.Now().UnixMicro())
	}
}
