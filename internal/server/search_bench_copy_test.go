package server_test

// Copies of the search benchmarks' deal without the search index, to
// compare sizes and writes with (search_bench_test.go).

import (
	"context"
	"database/sql"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// dropSearch are the statements that drop the search index, on each
// dialect (migrations 0007's and 0010's objects).
var dropSearch = map[string][]string{
	sqlstore.SQLite: {
		"DROP TRIGGER requests_search_insert", "DROP TRIGGER requests_search_delete", "DROP TRIGGER requests_search_update",
		"DROP TRIGGER messages_search_insert", "DROP TRIGGER messages_search_delete", "DROP TRIGGER messages_search_update",
		"DROP TRIGGER files_search_insert", "DROP TRIGGER files_search_delete", "DROP TRIGGER files_search_update",
		"DROP TABLE requests_search", "DROP TABLE messages_search", "DROP TABLE files_search",
	},
	sqlstore.Postgres: {
		"DROP TRIGGER requests_search_insert ON requests", "DROP TRIGGER requests_search_update ON requests",
		"DROP TABLE request_search", "DROP INDEX messages_search", "DROP INDEX files_search",
		"ALTER TABLE files DROP COLUMN search_vector",
	},
}

func execAll(b *testing.B, db *sql.DB, stmts ...string) {
	b.Helper()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			b.Fatalf("%s: %v", s, err)
		}
	}
}

// withoutSearch is a copy of the seeded database with the search index
// dropped (and compacted, as the seeded one is by VACUUM INTO or VACUUM
// FULL), for comparing sizes and writes.
func withoutSearch(b *testing.B, sb *searchBench) string {
	b.Helper()
	if sb.st.Dialect() == sqlstore.Postgres {
		return postgresWithoutSearch(b, sb)
	}
	dir := filepath.Dir(sb.dsn)
	copyPath := filepath.Join(dir, "without.db")
	os.Remove(copyPath) // made afresh from the database as it is now
	raw, err := sql.Open("sqlite", "file:"+sb.dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	execAll(b, raw, "VACUUM INTO '"+copyPath+"'")
	cp, err := sql.Open("sqlite", "file:"+copyPath)
	if err != nil {
		b.Fatal(err)
	}
	defer cp.Close()
	execAll(b, cp, append(dropSearch[sqlstore.SQLite], "VACUUM")...)
	return copyPath
}

// postgresWithoutSearch copies the seeded database (CREATE DATABASE …
// TEMPLATE, which wants no one else on it: the bench's server is
// stopped for it and started again) and drops the index in the copy.
func postgresWithoutSearch(b *testing.B, sb *searchBench) string {
	b.Helper()
	u, err := url.Parse(sb.dsn)
	if err != nil {
		b.Fatal(err)
	}
	orig := strings.TrimPrefix(u.Path, "/")
	copyName := orig + "_nosearch"
	copyURL := *u
	copyURL.Path = "/" + copyName
	adminURL := *u
	adminURL.Path = "/postgres"
	admin, err := sql.Open("pgx", adminURL.String())
	if err != nil {
		b.Fatal(err)
	}
	defer admin.Close()
	var exists bool
	if err := admin.QueryRow("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", copyName).Scan(&exists); err != nil {
		b.Fatal(err)
	}
	if exists {
		return copyURL.String()
	}
	sb.ts.Close()
	sb.st.Close()
	execAll(b, admin, "CREATE DATABASE "+copyName+" TEMPLATE "+orig)
	b.Cleanup(func() { // after the stores on it are closed (cleanups run last first)
		if admin, err := sql.Open("pgx", adminURL.String()); err == nil {
			_, _ = admin.Exec("DROP DATABASE IF EXISTS " + copyName + " WITH (FORCE)")
			admin.Close()
		}
	})
	if sb.st, err = sqlstore.Open(context.Background(), sb.dsn); err != nil {
		b.Fatal(err)
	}
	sb.ts = httptest.NewServer(benchServer(b, sb.st))
	cp, err := sql.Open("pgx", copyURL.String())
	if err != nil {
		b.Fatal(err)
	}
	defer cp.Close()
	execAll(b, cp, append(dropSearch[sqlstore.Postgres], "VACUUM FULL")...)
	return copyURL.String()
}

// benchIndexShare reports the index's share of the database: what it
// adds, over the size without it, both compacted.
func benchIndexShare(b *testing.B, dialect string) {
	sb := searchBenchOn(b, dialect)
	without := withoutSearch(b, sb)
	var with, bare int64
	if dialect == sqlstore.Postgres {
		raw, err := sql.Open("pgx", sb.dsn)
		if err != nil {
			b.Fatal(err)
		}
		defer raw.Close()
		execAll(b, raw, "VACUUM FULL")
		if err := raw.QueryRow("SELECT pg_database_size(current_database())").Scan(&with); err != nil {
			b.Fatal(err)
		}
		cp, err := sql.Open("pgx", without)
		if err != nil {
			b.Fatal(err)
		}
		defer cp.Close()
		if err := cp.QueryRow("SELECT pg_database_size(current_database())").Scan(&bare); err != nil {
			b.Fatal(err)
		}
	} else {
		compact := filepath.Join(filepath.Dir(sb.dsn), "with.db")
		os.Remove(compact)
		raw, err := sql.Open("sqlite", "file:"+sb.dsn)
		if err != nil {
			b.Fatal(err)
		}
		defer raw.Close()
		execAll(b, raw, "VACUUM INTO '"+compact+"'")
		with, bare = dbFileSize(b, compact), dbFileSize(b, without)
	}
	for b.Loop() {
	}
	b.ReportMetric(float64(with)/(1<<20), "MiB-with")
	b.ReportMetric(float64(bare)/(1<<20), "MiB-without")
	b.ReportMetric(100*float64(with-bare)/float64(bare), "%-added")
}

func dbFileSize(b *testing.B, path string) int64 {
	b.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return fi.Size()
}
