package sqlstore

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/dealctl/dealctl/internal/pgtest"
)

// Migration 0012 drops the outbox's foreign keys on PostgreSQL, where
// each took a row lock per notification (docs/decisions.md, "the
// outbox's keys"), on a database made before it; SQLite keeps them.
func TestPostgresOutboxKeysMigration(t *testing.T) {
	url := pgtest.URL(t)
	raw, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, raw, schemaBefore(t, Postgres, 12))
	if n := postgresOutboxKeys(t, raw); n != 3 {
		t.Fatalf("before the migration the outbox has %d foreign keys, want 3", n)
	}
	openPostgresURL(t, url)
	if n := postgresOutboxKeys(t, raw); n != 0 {
		t.Errorf("after the migration the outbox has %d foreign keys, want none", n)
	}
	raw.Close()
}

func postgresOutboxKeys(t *testing.T, raw *sql.DB) int {
	t.Helper()
	var n int
	if err := raw.QueryRow("SELECT count(*) FROM pg_constraint WHERE conrelid = 'notifications'::regclass AND contype = 'f'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSQLiteOutboxKeysMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "before.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	runSteps(t, raw, schemaBefore(t, SQLite, 12))
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := raw.QueryRow("SELECT count(*) FROM pragma_foreign_key_list('notifications')").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("after the migration SQLite's outbox has %d foreign keys, want its 3 kept", n)
	}
}
