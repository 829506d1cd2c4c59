package sqlstore

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/storetest"
)

// TestMain stops the PostgreSQL server pgtest may have started.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// openPostgresURL opens an instance on url, as one `dealctl serve` would.
func openPostgresURL(t *testing.T, url string) *DB {
	t.Helper()
	db, err := Open(context.Background(), url)
	if err != nil {
		t.Fatalf("Open(postgres): %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func openPostgresTest(t *testing.T) *DB { return openPostgresURL(t, pgtest.URL(t)) }

func TestPostgresConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) store.Store { return openPostgresTest(t) })
}

// TestPostgresTwoInstancesNumbering: two instances creating under one
// section at once never hand out the same number (the deal row lock
// taken by the version bump serialises them across connections).
func TestPostgresTwoInstancesNumbering(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	a, b := openPostgresURL(t, url), openPostgresURL(t, url)
	storetest.ConcurrentCreates(t, 60, a, b)
}

// TestPostgresConcurrentMigrate: instances starting together on an empty
// database all come up, and the schema is migrated once.
func TestPostgresConcurrentMigrate(t *testing.T) {
	t.Parallel()
	for round := range 3 {
		url := pgtest.URL(t)
		const instances = 4
		dbs := make([]*DB, instances)
		errs := make([]error, instances)
		var wg sync.WaitGroup
		for i := range instances {
			wg.Add(1)
			go func() {
				defer wg.Done()
				dbs[i], errs[i] = Open(context.Background(), url)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("round %d: instance %d: %v", round, i, err)
				continue
			}
			t.Cleanup(func() { dbs[i].Close() })
		}
		if t.Failed() {
			return
		}
		var applied int
		if err := dbs[0].read.QueryRow("SELECT COUNT(*) FROM schema_migrations").Scan(&applied); err != nil {
			t.Fatal(err)
		}
		ms := mustMigrations(t, dbs[0])
		latest := latestVersion(ms)
		current, _ := dbs[0].SchemaVersion(context.Background())
		if current != latest || applied != len(ms) {
			t.Errorf("round %d: schema at %d with %d rows in schema_migrations, want %d applied once each", round, current, applied, latest)
		}
	}
}

func mustMigrations(t *testing.T, db *DB) []migration {
	t.Helper()
	ms, err := db.migrations()
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestPostgresRateLimiter(t *testing.T) { testRateLimiter(t, openPostgresTest) }

// TestPostgresRateLimiterShared: two instances spend from one bucket, so
// together they allow the limit, not twice it.
func TestPostgresRateLimiterShared(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	a, b := openPostgresURL(t, url).RateLimiter(), openPostgresURL(t, url).RateLimiter()
	const limit = 30
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for _, l := range []store.RateLimiter{a, b} {
		for range limit {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d, err := l.Take(context.Background(), "key-1", limit, rateT0)
				if err != nil {
					t.Error(err)
					return
				}
				if d.Allowed {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	if allowed != limit {
		t.Errorf("two instances allowed %d of %d calls, want the shared limit %d", allowed, 2*limit, limit)
	}
	// Both see the refill the same way.
	if d := take(t, a, "key-1", limit, rateT0.Add(2*time.Second)); !d.Allowed {
		t.Errorf("instance a after 60s/limit: %+v", d)
	}
	if d := take(t, b, "key-1", limit, rateT0.Add(2*time.Second)); d.Allowed || d.RetryAfter != 2*time.Second {
		t.Errorf("instance b right after a took the refilled token: %+v, want denied for 2s", d)
	}
}

func TestPostgresBackupRefused(t *testing.T) {
	t.Parallel()
	db := openPostgresTest(t)
	if err := db.Backup(context.Background(), t.TempDir()+"/x"); err == nil {
		t.Error("Backup on PostgreSQL succeeded; it should point to pg_dump")
	}
}

// TestPostgresTwoInstancesEvents: writers on two instances and a reader
// polling with a cursor on a third connection; the reader misses no event
// and sees none twice, whatever order the transactions committed in.
func TestPostgresTwoInstancesEvents(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	a, b, reader := openPostgresURL(t, url), openPostgresURL(t, url), openPostgresURL(t, url)
	storetest.ConcurrentEvents(t, 16, 15, a, b, reader)
}
