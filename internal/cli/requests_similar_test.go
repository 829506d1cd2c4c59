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

// TestAnswerSimilarShowsWhatThatSideMaySee: answer --similar lists the
// answers given to requests like this one, posts nothing, and shows
// the counterparty none of the owning side's internal answers.
func TestAnswerSimilarShowsWhatThatSideMaySee(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	run(t, ts, runOpts{}, "requests", "create", "--title", "Copies of the audited accounts", "--parent", "2", "--force").must(t, cmdutil.ExitOK)
	run(t, ts, runOpts{}, "answer", "2.1", "--internal", "--no-status", "-m", "Owner draft: the accounts are not final.").must(t, cmdutil.ExitOK)
	bob := map[string]string{"DEALCTL_API_KEY": bobFalconKey}
	messagePosts := func() int { return ts.callsTo("POST /api/v1/deals/" + ts.dealID() + "/requests/") }
	posts := messagePosts()

	r := run(t, ts, runOpts{env: bob}, "answer", "2.2", "--similar")
	r.must(t, cmdutil.ExitOK, "2.1 Audited accounts (100% alike)", "Attached the audited accounts.")
	if strings.Contains(r.out, "Owner draft") {
		t.Errorf("the counterparty sees the owner's internal answer:\n%s", r.out)
	}
	r = run(t, ts, runOpts{}, "answer", "2.2", "--similar", "--jq", ".[].answers[].text")
	r.must(t, cmdutil.ExitOK, "Attached the audited accounts.", "Owner draft")
	if messagePosts() != posts {
		t.Error("--similar posted")
	}
	r = run(t, ts, runOpts{tty: true}, "answer", "1.1", "--similar")
	if r.code != cmdutil.ExitOK || !strings.Contains(r.err, "No request like 1.1 has an answer") {
		t.Errorf("nothing similar: exit %d %q %q", r.code, r.out, r.err)
	}
	if r := run(t, ts, runOpts{}, "answer", "2.2", "--similar", "-m", "x"); r.code != cmdutil.ExitUsage {
		t.Errorf("--similar with -m: exit %d", r.code)
	}
	if r := run(t, ts, runOpts{}, "answer", "2", "--similar"); r.code != cmdutil.ExitUsage || !strings.Contains(r.err, "2 is a section: give one of its requests") {
		t.Errorf("--similar on a section: exit %d %q", r.code, r.err)
	}
	// A flag about what to post is not ignored silently: the user may
	// believe a status moved or a note was kept internal. Every one given
	// is named at once, with why.
	for args, want := range map[string]string{
		"--partial --kind question": "--similar shows the answers given to similar requests and posts nothing: leave out --kind and --partial, or leave out --similar (see 'dealctl answer --help')",
		"--internal -F notes.md --link https://x/ --no-status": "--similar shows the answers given to similar requests and posts nothing: " +
			"leave out -F/--file, --internal, --link and --no-status, or leave out --similar (see 'dealctl answer --help')",
	} {
		r = run(t, ts, runOpts{}, append([]string{"answer", "2.2", "--similar"}, strings.Fields(args)...)...)
		if r.code != cmdutil.ExitUsage || strings.TrimSpace(r.err) != "dealctl: "+want {
			t.Errorf("--similar %s: exit %d %q, want exit 2 saying %q", args, r.code, r.err, want)
		}
	}
	if messagePosts() != posts {
		t.Error("--similar posted")
	}
	// Cobra's completion knows the rule: after --similar, no flag about
	// what to post is offered.
	r = run(t, ts, runOpts{}, "__complete", "answer", "2.2", "--similar", "--")
	if r.code != cmdutil.ExitOK || strings.Contains(r.out, "--partial") || strings.Contains(r.out, "--message") || !strings.Contains(r.out, "--output") {
		t.Errorf("completion after --similar: exit %d %q", r.code, r.out)
	}
}
