// Package pgtest hands tests a fresh, empty PostgreSQL database.
//
// The server comes from DEALCTL_TEST_PG (a base URL such as the one
// .ci/start-postgres.sh prints) when it is set. Otherwise, when Debian's
// PostgreSQL binaries are installed, pgtest starts a throwaway server of
// its own, once per test process, and stops it when the process ends.
// Without either, tests are skipped — unless DEALCTL_REQUIRE_PG=1, which
// turns the skip into a failure so that CI cannot pass by accident. With
// -short they are skipped too, unless DEALCTL_REQUIRE_PG=1.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver

	"github.com/dealctl/dealctl/internal/dbpath"
)

// Environment switches.
const (
	EnvURL     = "DEALCTL_TEST_PG"
	EnvRequire = "DEALCTL_REQUIRE_PG"
)

var (
	once    sync.Once
	baseURL string
	// unavailable says why there is no server; startErr that starting
	// one failed, which is a failure rather than a skip.
	unavailable string
	startErr    error
	local       *server
)

// Available skips t, or fails it under DEALCTL_REQUIRE_PG=1, when URL
// would, without creating a database: for a test that hands out databases
// in subtests and should skip once, with one message, rather than in each.
func Available(t testing.TB) {
	t.Helper()
	if testing.Short() && os.Getenv(EnvRequire) != "1" {
		t.Skipf("pgtest: -short skips PostgreSQL tests (run without -short, or set %s=1, to include them)", EnvRequire)
	}
	once.Do(setup)
	switch {
	case startErr != nil:
		t.Fatalf("pgtest: %v", startErr)
	case unavailable != "":
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("pgtest: %s, and %s=1 requires PostgreSQL", unavailable, EnvRequire)
		}
		t.Skipf("pgtest: skipping PostgreSQL test: %s (set %s to a server URL, or install postgresql; run .ci/start-postgres.sh)", unavailable, EnvURL)
	}
}

// URL returns the URL of a new, empty database on a throwaway PostgreSQL
// server. The database is dropped when the test ends.
//
// With -short it skips, before any server is started, unless
// DEALCTL_REQUIRE_PG=1: the quick run holds the SQLite half of every
// suite, the full run both (docs/decisions.md, "What go test -short
// leaves out").
func URL(t testing.TB) string {
	t.Helper()
	Available(t)
	name := "t_" + randomHex(8)
	admin, err := sql.Open("pgx", baseURL)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: cannot create a test database on %s: %v", redact(baseURL), err)
	}
	t.Cleanup(func() {
		// Cleanups run last-registered first, so the store the test
		// opened on this database is normally closed by now; FORCE ends
		// any connection a failed test left behind.
		db, err := sql.Open("pgx", baseURL)
		if err != nil {
			return
		}
		defer db.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("pgtest: cannot drop %s: %v", name, err)
		}
	})
	return databaseURL(t, name)
}

// databaseURL is the URL of the database named name on the test server.
func databaseURL(t testing.TB, name string) string {
	t.Helper()
	u, err := url.Parse(baseURL)
	if err != nil {
		t.Fatalf("pgtest: %s: %v", EnvURL, err)
	}
	u.Path = "/" + name
	return u.String()
}

// KeptURL returns the URL of the database named name on the test
// PostgreSQL server, created when it is missing and never dropped: for a
// benchmark whose seeding takes longer than its measuring (the search
// benchmark's deal, a quarter of an hour), so that runs can share it.
// name must be a plain identifier; the caller says where it is kept.
func KeptURL(t testing.TB, name string) string {
	t.Helper()
	Available(t)
	admin, err := sql.Open("pgx", baseURL)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var exists bool
	if err := admin.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	if !exists {
		if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
			t.Fatalf("pgtest: cannot create %s on %s: %v", name, redact(baseURL), err)
		}
	}
	return databaseURL(t, name)
}

// Main runs the package's tests and then stops the server pgtest started,
// if any. Use it from TestMain: os.Exit(pgtest.Main(m)). Without it the
// server is still stopped, by a watchdog, shortly after the process ends.
func Main(m *testing.M) int {
	code := m.Run()
	Stop()
	return code
}

// Stop stops the server pgtest started, if any.
func Stop() {
	if local != nil {
		local.stop()
	}
}

func setup() {
	if u := os.Getenv(EnvURL); u != "" {
		baseURL = u
		return
	}
	bin, ok := findBinaries()
	if !ok {
		unavailable = "no PostgreSQL: " + EnvURL + " is not set and initdb/pg_ctl are not under /usr/lib/postgresql/*/bin"
		return
	}
	s, err := start(bin)
	if err != nil {
		startErr = fmt.Errorf("cannot start a throwaway PostgreSQL from %s: %w", bin, err)
		return
	}
	local, baseURL = s, s.url
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// redact hides a password in a URL shown in a failure message.
func redact(raw string) string { return dbpath.Redact(raw) }
