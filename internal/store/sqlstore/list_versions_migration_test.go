package sqlstore

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/store"
)

// TestSQLiteListVersionsMigration: migration 0009 on a database written
// before it: the rows stamped with no version are still read whole
// (since 0), none shows as changed after the deal's version, and the
// first write after the migration stamps the row it changes.
func TestSQLiteListVersionsMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	steps := schemaBefore(t, SQLite, 9)
	steps = append(steps,
		"INSERT INTO organizations VALUES ('o', 'Org')",
		"INSERT INTO users VALUES ('u', 'o', 'U', 'u@example.com')",
		"INSERT INTO deals (id, name, codename, timezone, version, shared_version) VALUES ('d', 'Deal', 'D', 'UTC', 7, 5)",
		"INSERT INTO parties VALUES ('pa', 'd', 'sell', NULL, TRUE, 'o', 0)",
		"INSERT INTO people VALUES ('pe', 'd', 'u', 'pa', 'admin', 'principal', TRUE, TRUE)",
		"INSERT INTO requests (id, deal_id, kind, number, title, body, status, priority, category, created_at, updated_at) VALUES ('r1', 'd', 'request', '1', 'T', '', 'open', 'medium', 'business', 0, 0)",
		"INSERT INTO requests (id, deal_id, kind, number, title, body, status, priority, category, created_at, updated_at) VALUES ('r2', 'd', 'request', '2', 'T', '', 'open', 'medium', 'business', 0, 0)",
	)
	runSteps(t, raw, steps)
	raw.Close()

	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if applied := strings.Join(db.Migrated().Applied, ","); !strings.Contains(applied, "0009_list_versions.sql") {
		t.Fatalf("applied %q", applied)
	}
	ids := func(since int64) []string {
		t.Helper()
		ch, err := db.ListChanges(ctx, "d", since, false, "pa", 280)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range ch.Requests {
			out = append(out, r.ID)
		}
		return out
	}
	if got := ids(0); len(got) != 2 {
		t.Errorf("the whole list after the migration: %v, want both rows", got)
	}
	if got := ids(7); len(got) != 0 {
		t.Errorf("changed after version 7, with nothing written: %v", got)
	}
	if _, err := db.UpdateRequest(ctx, "d", "r2", func(r *store.Request) error { r.Title = "Changed"; return nil }); err != nil {
		t.Fatal(err)
	}
	if got := ids(7); len(got) != 1 || got[0] != "r2" {
		t.Errorf("changed after version 7, with r2 written: %v", got)
	}
}
