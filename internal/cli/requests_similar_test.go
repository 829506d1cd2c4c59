package cli

import (
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

// TestCreateStopsWhenAskedBefore: requests create names the request
// that asks the same thing and writes nothing (exit 5), on a pipe as on
// a terminal, without asking; --force creates it; a server without
// search is checked against its list.
func TestCreateStopsWhenAskedBefore(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	posts := func() int { return ts.callsTo("POST /api/v1/deals/" + ts.dealID() + "/requests") }

	r := run(t, ts, runOpts{}, "requests", "create", "--title", "Copies of the audited accounts", "--parent", "2")
	if r.code != cmdutil.ExitConflict || !strings.Contains(r.err, `2.1 "Audited accounts" (100% alike)`) || !strings.Contains(r.err, "--force") {
		t.Fatalf("exit %d, stderr %s", r.code, r.err)
	}
	if posts() != 0 {
		t.Fatal("a request asked before was written")
	}
	r = run(t, ts, runOpts{tty: true, prompt: true}, "requests", "create", "--title", "Audited accounts", "--parent", "2")
	if r.code != cmdutil.ExitConflict {
		t.Fatalf("on a terminal: exit %d %s", r.code, r.err)
	}
	r = run(t, ts, runOpts{env: map[string]string{"DEALCTL_NO_EXTENSIONS": "1"}}, "requests", "create", "--title", "Audited accounts 2025", "--parent", "2")
	if r.code != cmdutil.ExitConflict || !strings.Contains(r.err, `2.1 "Audited accounts"`) {
		t.Fatalf("without search: exit %d %s", r.code, r.err)
	}
	r = run(t, ts, runOpts{}, "requests", "create", "--title", "VAT returns", "--parent", "1")
	r.must(t, cmdutil.ExitOK)
	r = run(t, ts, runOpts{}, "requests", "create", "--title", "Copies of the audited accounts", "--parent", "2", "--force")
	r.must(t, cmdutil.ExitOK)
	if posts() != 2 {
		t.Errorf("%d creates sent, want 2", posts())
	}
	r = run(t, ts, runOpts{}, "requests", "create", "--title", "Audited accounts", "--parent", "2", "--json")
	if r.code != cmdutil.ExitConflict || !strings.Contains(r.err, `"code":"conflict"`) {
		t.Errorf("--json: exit %d %s", r.code, r.err)
	}
}
