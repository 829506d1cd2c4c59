package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/store"
)

// oldSchemaSteps builds the schema as it stood before held replies
// (migration 0008), with a deal, a message and its notification.
func oldSchemaSteps(t *testing.T, dialect string) []string {
	steps := schemaBefore(t, dialect, 8)
	return append(steps,
		"INSERT INTO organizations VALUES ('o', 'Org')",
		"INSERT INTO users VALUES ('u', 'o', 'U', 'u@example.com')",
		"INSERT INTO deals (id, name, codename, timezone) VALUES ('d', 'Deal', 'D', 'UTC')",
		"INSERT INTO parties VALUES ('pa', 'd', 'sell', NULL, TRUE, 'o', 0)",
		"INSERT INTO people VALUES ('pe', 'd', 'u', 'pa', 'admin', 'principal', TRUE, TRUE)",
		"INSERT INTO requests (id, deal_id, kind, number, title, body, status, priority, category, created_at, updated_at) VALUES ('r', 'd', 'request', '1', 'T', '', 'open', 'medium', 'business', 0, 0)",
		"INSERT INTO messages VALUES ('m', 'd', 'r', 'pa', 'pe', 'response', FALSE, FALSE, 'web', 'hi', 'markdown', 1, FALSE)",
		"INSERT INTO notifications (id, deal_id, message_id, person_id, email, subject, body, attempts, next_attempt_at, delivered_at, last_error, created_at) VALUES ('n1', 'd', 'm', 'pe', 'u@example.com', 'S1', 'B1', 0, 5, 6, '', 1)",
	)
}

func TestSQLiteHeldRepliesOnAnOlderDatabase(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, raw, oldSchemaSteps(t, SQLite))
	raw.Close()
	testHeldReplies(t, openSQLitePath(t, path))
}

func TestPostgresHeldRepliesOnAnOlderDatabase(t *testing.T) {
	url := pgtest.URL(t)
	raw, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, raw, oldSchemaSteps(t, Postgres))
	raw.Close()
	testHeldReplies(t, openPostgresURL(t, url))
}

// testHeldReplies: a reply address takes one reply; a held reply is
// decided once; its confirmation mail is queued with it.
func testHeldReplies(t *testing.T, db *DB) {
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	target, err := db.ReplyTarget(ctx, "n1")
	if err != nil || target.DealID != "d" || target.RequestID != "r" || target.PersonID != "pe" || target.Used {
		t.Fatalf("ReplyTarget(n1) = %+v, %v", target, err)
	}
	if _, err := db.ReplyTarget(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("ReplyTarget(nope): %v, want ErrNotFound", err)
	}
	h := store.HeldReply{ID: "h1", Token: "n1", DealID: "d", RequestID: "r", PersonID: "pe", Sender: "u@example.com",
		Subject: "Re: 1", Text: "Here it is.", ConfirmHash: "abc", ConfirmExpires: now.Add(time.Hour), CreatedAt: now,
		ExpiresAt: now.Add(7 * 24 * time.Hour), Files: []store.HeldFile{{Name: "a.pdf", ContentType: "application/pdf", SHA256: "00", Size: 3}}}
	confirm := store.Notification{DealID: "d", PersonID: "pe", Email: "u@example.com", Subject: "Confirm", Body: "link", CreatedAt: now}
	if err := db.HoldReply(ctx, h, confirm); err != nil {
		t.Fatal(err)
	}
	h2 := h
	h2.ID = "h2"
	if err := db.HoldReply(ctx, h2, confirm); !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("a second reply to the same address: %v, want ErrDuplicate", err)
	}
	if target, _ := db.ReplyTarget(ctx, "n1"); !target.Used {
		t.Error("the address reads as unused after its reply")
	}
	got, err := db.HeldReply(ctx, "h1")
	if err != nil || got.State != store.HeldStateHeld || got.Text != "Here it is." || len(got.Files) != 1 || got.Files[0].Name != "a.pdf" || !got.ExpiresAt.Equal(h.ExpiresAt) {
		t.Fatalf("HeldReply = %+v, %v", got, err)
	}
	list, err := db.HeldRepliesOf(ctx, "d", now)
	if err != nil || len(list) != 1 || len(list[0].Files) != 1 {
		t.Fatalf("HeldRepliesOf = %+v, %v", list, err)
	}
	if later, _ := db.HeldRepliesOf(ctx, "d", h.ExpiresAt); len(later) != 0 {
		t.Errorf("an expired reply is listed: %+v", later)
	}
	outbox, _ := db.Notifications(ctx, "d")
	if n := outbox[len(outbox)-1]; n.Kind != store.NotifyReplyConfirm || n.Body != "link" || n.MessageID != "" {
		t.Errorf("the confirmation mail's row: %+v", n)
	}
	d := store.HeldDecision{State: store.HeldStateDiscarded, By: "pe", At: now}
	if err := db.DecideHeldReply(ctx, "h1", d); err != nil {
		t.Fatal(err)
	}
	if err := db.DecideHeldReply(ctx, "h1", store.HeldDecision{State: store.HeldStatePosted, By: "pe", At: now}); !errors.Is(err, store.ErrNotHeld) {
		t.Fatalf("deciding twice: %v, want ErrNotHeld", err)
	}
	if err := db.ReleaseHeldReply(ctx, "h1"); err != nil {
		t.Fatal(err)
	}
	if err := db.DecideHeldReply(ctx, "h1", store.HeldDecision{State: store.HeldStatePosted, By: "pe", OnBehalf: true, At: now}); err != nil {
		t.Fatal(err)
	}
	if err := db.SetHeldReplyMessage(ctx, "h1", "m"); err != nil {
		t.Fatal(err)
	}
	got, _ = db.HeldReply(ctx, "h1")
	if got.State != store.HeldStatePosted || got.MessageID == nil || *got.MessageID != "m" || !got.OnBehalf || got.DecidedBy == nil {
		t.Errorf("after posting: %+v", got)
	}
}
