package sqlstore

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/pgtest"
)

// Migration 0011 on a database made before it: the deals it finds start
// at members version 0, and a change of their people moves it.
func TestSQLiteMembersVersionMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "before.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, raw, beforeMembersVersion(t, SQLite))
	raw.Close()
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	testMembersVersionMigrated(t, db)
}

func TestPostgresMembersVersionMigration(t *testing.T) {
	url := pgtest.URL(t)
	raw, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, raw, beforeMembersVersion(t, Postgres))
	raw.Close()
	testMembersVersionMigrated(t, openPostgresURL(t, url))
}

// beforeMembersVersion builds a deal with one person at version 10.
func beforeMembersVersion(t *testing.T, dialect string) []string {
	return append(schemaBefore(t, dialect, 11),
		"INSERT INTO organizations VALUES ('o', 'Org')",
		"INSERT INTO users VALUES ('u', 'o', 'U', 'u@example.com')",
		"INSERT INTO deals (id, name, codename, timezone, version, shared_version) VALUES ('d', 'Deal', 'D', 'UTC', 7, 5)",
		"INSERT INTO parties VALUES ('pa', 'd', 'sell', NULL, TRUE, 'o', 0)",
		"INSERT INTO people VALUES ('pe', 'd', 'u', 'pa', 'admin', 'principal', TRUE, TRUE)",
	)
}

func testMembersVersionMigrated(t *testing.T, db *DB) {
	ctx := context.Background()
	if applied := strings.Join(db.Migrated().Applied, ","); !strings.Contains(applied, "0011_members_version.sql") {
		t.Fatalf("applied %q", applied)
	}
	deal, err := db.Deal(ctx, "d")
	if err != nil || deal.MembersVersion != 0 || deal.Version != 7 {
		t.Fatalf("deal after the migration = %+v, %v; want members version 0, version 7", deal, err)
	}
	if _, err := db.write.Exec("UPDATE people SET access = 'viewer' WHERE id = 'pe'"); err != nil {
		t.Fatal(err)
	}
	if deal, err = db.Deal(ctx, "d"); err != nil || deal.MembersVersion != 1 {
		t.Fatalf("members version after a person's change = %d, %v; want 1", deal.MembersVersion, err)
	}
}
