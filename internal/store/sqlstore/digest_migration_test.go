package sqlstore

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// TestSQLiteDigestMigrationKeepsTheOutbox: migration 0006 rebuilds the
// notifications table on SQLite (to let message_id be null); a database
// written before it keeps every outbox row, delivered or not, as a
// message notification, and the index that finds due rows.
func TestSQLiteDigestMigrationKeepsTheOutbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	steps := schemaBefore(t, SQLite, 6)
	steps = append(steps,
		"INSERT INTO organizations VALUES ('o', 'Org')",
		"INSERT INTO users VALUES ('u', 'o', 'U', 'u@example.com')",
		"INSERT INTO deals (id, name, codename, timezone) VALUES ('d', 'Deal', 'D', 'UTC')",
		"INSERT INTO parties VALUES ('pa', 'd', 'sell', NULL, TRUE, 'o', 0)",
		"INSERT INTO people VALUES ('pe', 'd', 'u', 'pa', 'admin', 'principal', TRUE, TRUE)",
		"INSERT INTO requests (id, deal_id, kind, number, title, body, status, priority, category, created_at, updated_at) VALUES ('r', 'd', 'request', '1', 'T', '', 'open', 'medium', 'business', 0, 0)",
		"INSERT INTO messages VALUES ('m', 'd', 'r', 'pa', 'pe', 'response', FALSE, FALSE, 'web', 'hi', 'markdown', 1, FALSE)",
		"INSERT INTO notifications (id, deal_id, message_id, person_id, email, subject, body, attempts, next_attempt_at, delivered_at, last_error, created_at) VALUES ('n1', 'd', 'm', 'pe', 'u@example.com', 'S1', 'B1', 2, 5, NULL, 'relay down', 1)",
		"INSERT INTO notifications (id, deal_id, message_id, person_id, email, subject, body, attempts, next_attempt_at, delivered_at, last_error, created_at) VALUES ('n2', 'd', 'm', 'pe', 'u@example.com', 'S2', 'B2', 1, 2, 3, '', 2)",
	)
	runSteps(t, raw, steps)
	raw.Close()

	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if applied := strings.Join(db.Migrated().Applied, ","); !strings.Contains(applied, "0006_digest.sql") {
		t.Fatalf("applied %q", applied)
	}
	got, err := db.Notifications(ctx, "d")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "n1" || got[0].Kind != store.NotifyMessage || got[0].MessageID != "m" || got[0].Attempts != 2 ||
		got[0].LastError != "relay down" || got[0].DeliveredAt != nil || got[1].DeliveredAt == nil || got[1].Subject != "S2" {
		t.Fatalf("outbox after the migration: %+v", got)
	}
	var idx int
	if err := db.read.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = 'notifications_due'").Scan(&idx); err != nil || idx != 1 {
		t.Errorf("notifications_due index: %d, %v", idx, err)
	}
	claimed, err := db.ClaimNotifications(ctx, fromMicros(10), 10, time.Minute)
	if err != nil || len(claimed) != 1 || claimed[0].ID != "n1" {
		t.Errorf("claiming after the migration: %+v, %v", claimed, err)
	}
}
