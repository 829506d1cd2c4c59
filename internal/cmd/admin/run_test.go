package admin

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestAdminRunFunctionsWithoutCobra: a run function works from its
// Options alone, with no command line parsed: archiving twice says the
// second time that there was nothing to do, and writes nothing to the
// notes (the database is current).
func TestAdminRunFunctionsWithoutCobra(t *testing.T) {
	t.Parallel()
	db, res := seededDB(t)
	ctx := context.Background()
	var out, notes bytes.Buffer
	o := &adminArchiveOptions{
		runOptions: runOptions{adminOptions: &adminOptions{DB: db}, Out: &out, ErrOut: &notes},
		Deal:       "falcon",
		Archive:    true,
	}
	if err := adminArchiveRun(ctx, o); err != nil {
		t.Fatal(err)
	}
	if d, _ := openTestDB(t, db).Deal(ctx, res.Deals["falcon"]); !d.Archived {
		t.Errorf("adminArchiveRun left deal falcon unarchived; printed %q", out.String())
	}
	out.Reset()
	if err := adminArchiveRun(ctx, o); err != nil || !strings.Contains(out.String(), "already archived") {
		t.Errorf("archiving again: %v, printed %q; want it to say the deal is already archived", err, out.String())
	}
	if notes.Len() != 0 {
		t.Errorf("notes on a current database: %q", notes.String())
	}
}
