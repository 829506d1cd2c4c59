package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/store"
)

// rowsBeforeSearch are a deal's rows as a database made before
// migration 0007 holds them: a request, a shared message with a file,
// and an internal note.
var rowsBeforeSearch = []string{
	"INSERT INTO organizations VALUES ('o', 'Org')",
	"INSERT INTO users VALUES ('u', 'o', 'U', 'u@example.com')",
	"INSERT INTO deals (id, name, codename, timezone) VALUES ('d', 'Deal', 'D', 'UTC')",
	"INSERT INTO parties VALUES ('pa', 'd', 'sell', NULL, TRUE, 'o', 0)",
	"INSERT INTO parties VALUES ('pb', 'd', 'buy', NULL, FALSE, NULL, 1)",
	"INSERT INTO people VALUES ('pe', 'd', 'u', 'pa', 'admin', 'principal', TRUE, TRUE)",
	"INSERT INTO requests (id, deal_id, kind, number, title, body, status, priority, category, created_at, updated_at) VALUES ('r', 'd', 'request', '3.1', 'Warranty claims', 'All claims since 2019.', 'open', 'medium', 'legal', 0, 0)",
	"INSERT INTO messages VALUES ('m1', 'd', 'r', 'pa', 'pe', 'response', FALSE, FALSE, 'web', 'Claims register attached.', 'markdown', 1, FALSE)",
	"INSERT INTO messages VALUES ('m2', 'd', 'r', 'pa', 'pe', 'internal_note', FALSE, TRUE, 'web', 'Litigation risk is high.', 'markdown', 2, FALSE)",
	"INSERT INTO blobs (sha256, size, data) VALUES ('" + strings.Repeat("a", 64) + "', 0, '')",
	"INSERT INTO files VALUES ('f', 'd', 'r', 'm1', 0, 'file', 'claims_2019.xlsx', NULL, 0, NULL, '" + strings.Repeat("a", 64) + "', TRUE)",
}

// buildBeforeSearch runs migrations 1 to 6 and writes rowsBeforeSearch
// on raw.
func buildBeforeSearch(t *testing.T, raw *sql.DB, dialect string) {
	t.Helper()
	steps := schemaBefore(t, dialect, 7)
	runSteps(t, raw, append(steps, rowsBeforeSearch...))
}

// checkIndexedBefore: the rows written before the migration are found,
// each as its side may see them.
func checkIndexedBefore(t *testing.T, db *DB) {
	t.Helper()
	if applied := strings.Join(db.Migrated().Applied, ","); !strings.Contains(applied, "0007_search.sql") {
		t.Fatalf("applied %q", applied)
	}
	d := searchDeal{minimalIDs: minimalIDs{deal: "d", party: "pa"}, buyer: "pb"}
	for _, tc := range []struct {
		party, q string
		want     []string
	}{
		{"pb", "claim", []string{"3.1:title", "3.1:message", "3.1:file"}},
		{"pb", "3.1", []string{"3.1:number"}},
		{"pb", "litigation", []string{}},
		{"pa", "litigation", []string{"3.1:message"}},
	} {
		if got := find(t, db, d, tc.party, tc.q); !same(got, tc.want...) {
			t.Errorf("%s searching %q: %v, want %v", tc.party, tc.q, got, tc.want)
		}
	}
}

// TestSearchMigrationOnAnOlderDatabase: migration 0007 indexes what a
// database made before it holds, on both stores.
func TestSearchMigrationOnAnOlderDatabase(t *testing.T) {
	t.Parallel()
	t.Run(SQLite, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "old.db")
		raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
		if err != nil {
			t.Fatal(err)
		}
		buildBeforeSearch(t, raw, SQLite)
		raw.Close()
		checkIndexedBefore(t, openSQLitePath(t, path))
	})
	t.Run(Postgres, func(t *testing.T) {
		url := pgtest.URL(t)
		raw, err := sql.Open("pgx", url)
		if err != nil {
			t.Fatal(err)
		}
		buildBeforeSearch(t, raw, Postgres)
		raw.Close()
		checkIndexedBefore(t, openPostgresURL(t, url))
	})
}

// TestSearchInABackup: SQLite's index reads its rows by rowid, which the
// backup (VACUUM INTO) keeps: a backup searches as the database did,
// after rows were deleted and written again.
func TestSearchInABackup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openSQLitePath(t, filepath.Join(t.TempDir(), "dealctl.db"))
	d := seedSearchDeal(t, db)
	for i := range 5 {
		id := createSearchRequest(t, db, d, fmt.Sprintf("2.%d", i), "Filler", "")
		if i%2 == 0 {
			if _, err := db.DeleteRequest(ctx, d.deal, id, func(store.Request, int, int) error { return nil }); err != nil {
				t.Fatal(err)
			}
		}
	}
	createSearchRequest(t, db, d, "3", "Insurance policies", "")
	copyPath := filepath.Join(t.TempDir(), "backup.db")
	if err := db.Backup(ctx, copyPath); err != nil {
		t.Fatal(err)
	}
	backup := openSQLitePath(t, copyPath)
	for _, q := range []string{"insurance", "accounts", "filler", "register"} {
		if got, want := find(t, backup, d, d.buyer, q), find(t, db, d, d.buyer, q); !same(got, want...) || len(want) == 0 {
			t.Errorf("searching %q in the backup: %v; in the database: %v", q, got, want)
		}
	}
	for _, index := range []string{"requests_search", "messages_search", "files_search"} {
		if _, err := backup.write.Exec("INSERT INTO " + index + " (" + index + ") VALUES ('integrity-check')"); err != nil {
			t.Errorf("the backup's %s fails its integrity check: %v", index, err)
		}
	}
}
