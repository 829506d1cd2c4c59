package sqlstore

import (
	"database/sql"
	"fmt"
	"testing"
)

// schemaBefore is the statements that build a database as it stood
// before migration version: each earlier migration and its row in
// schema_migrations, for a test of version on a database made before it.
func schemaBefore(t *testing.T, dialect string, version int) []string {
	t.Helper()
	ms, err := (&DB{dialect: dialect}).migrations()
	if err != nil {
		t.Fatal(err)
	}
	steps := []string{"CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"}
	for _, m := range ms {
		if m.version < version {
			steps = append(steps, m.sql, fmt.Sprintf("INSERT INTO schema_migrations VALUES (%d, '%s', 0)", m.version, m.name))
		}
	}
	return steps
}

// runSteps runs statements on a database opened without the store.
func runSteps(t *testing.T, raw *sql.DB, steps []string) {
	t.Helper()
	for _, q := range steps {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%.60s: %v", q, err)
		}
	}
}
