package sqlstore

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// testIdempotencyPurge: every key's expired answers are purged by a
// reservation, but at most once a minute, not on every idempotent call.
func testIdempotencyPurge(t *testing.T, open func(t *testing.T) *DB) {
	db := open(t)
	ctx := context.Background()
	day := 24 * time.Hour
	t0 := time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
	// call runs one idempotent call at the time given: reserve, save.
	call := func(idemKey string, at time.Time) {
		t.Helper()
		r := store.SavedResponse{Method: "POST", Path: "/x", CreatedAt: at}
		if _, ok, err := db.ReserveResponse(ctx, "key-1", idemKey, r, at.Add(-day), at.Add(-time.Minute)); err != nil || !ok {
			t.Fatalf("reserve %s: %v, %v", idemKey, ok, err)
		}
		r.Status, r.Body = 201, []byte("{}")
		if err := db.SaveResponse(ctx, "key-1", idemKey, r); err != nil {
			t.Fatalf("save %s: %v", idemKey, err)
		}
	}
	kept := func(want ...string) {
		t.Helper()
		rows, err := db.read.QueryContext(ctx, "SELECT idem_key FROM idempotency ORDER BY idem_key")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got []string
		for rows.Next() {
			var k string
			if err := rows.Scan(&k); err != nil {
				t.Fatal(err)
			}
			got = append(got, k)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("kept %v, want %v", got, want)
		}
	}

	call("a", t0)
	call("b", t0.Add(10*time.Second))
	call("c", t0.Add(day+5*time.Second)) // purges a, a day old
	kept("b", "c")
	call("d", t0.Add(day+20*time.Second)) // b is a day old too, but the last purge was 15 s ago
	kept("b", "c", "d")
	call("e", t0.Add(day+5*time.Second+time.Minute)) // a minute after the last purge
	kept("c", "d", "e")
}

func TestSQLiteIdempotencyPurge(t *testing.T)   { testIdempotencyPurge(t, openSQLiteTest) }
func TestPostgresIdempotencyPurge(t *testing.T) { testIdempotencyPurge(t, openPostgresTest) }

// The purge selects by created_at alone; without an index on it, it reads
// the whole table.
func TestSQLiteIdempotencyPurgeUsesIndex(t *testing.T) {
	t.Parallel()
	db := openSQLiteTest(t)
	rows, err := db.read.Query("EXPLAIN QUERY PLAN DELETE FROM idempotency WHERE created_at < 1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if got := strings.Join(plan, "; "); !strings.Contains(got, "USING COVERING INDEX idempotency_created_at") && !strings.Contains(got, "USING INDEX idempotency_created_at") {
		t.Errorf("purge plan = %q, want a search of idempotency_created_at", got)
	}
}
