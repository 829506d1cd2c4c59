package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// TestOutputFormatCheckedBeforeWriting: a format the command cannot print,
// or a jq expression that does not compile, is a usage error (exit 2)
// found before any call, so a write never succeeds and then fails on its
// output (a re-run would write twice).
func TestOutputFormatCheckedBeforeWriting(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"answer", "1.1", "-m", "x", "-o", "csv"},
		{"requests", "create", "--title", "T", "-o", "tsv"},
		{"status", "1.1", "partial", "-o", "csv"},
		{"requests", "edit", "1.1", "--title", "T", "-o", "tsv"},
		{"answer", "1.1", "-m", "x", "--jq", ".message | nosuchfunction"},
		{"answer", "1.1", "-m", "x", "--jq", ".message | ["},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			ts := newFalcon(t)
			r := run(t, ts, runOpts{}, args...)
			if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, "nothing was done") {
				t.Errorf("exit %d, want 2, stderr %q", r.code, r.err)
			}
			if n := len(ts.callList()); n != 0 {
				t.Errorf("%d calls made before the usage error: %v", n, ts.callList())
			}
		})
	}
}

// TestJQFailingAtRunTime: an expression that compiles but fails on the
// command's JSON is the user's mistake (bad_request under --json, naming
// the expression and jq's error), but the command ran: exit 1, not the
// usage error 2 that says nothing was done, since a write it follows was
// made and a script re-running on 2 would make it twice.
func TestJQFailingAtRunTime(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	// Errors under --jq are the JSON ErrorResponse, as under --json.
	var refused api.ErrorResponse
	refusal := func(r result) string {
		t.Helper()
		refused = api.ErrorResponse{}
		if r.code != cmdutil.ExitFailure {
			t.Fatalf("exit %d, want 1, stderr %q", r.code, r.err)
		}
		if err := json.Unmarshal([]byte(r.err), &refused); err != nil || refused.Code != api.CodeBadRequest {
			t.Fatalf("error %v %q, want bad_request", err, r.err)
		}
		return fmt.Sprint(refused.Params["message"])
	}
	msg := refusal(run(t, ts, runOpts{}, "requests", "ls", "--jq", ".[0].title + 1"))
	if !strings.HasPrefix(msg, `--jq ".[0].title + 1": cannot add: string ("Corporate") and number (1): the command ran`) ||
		!strings.Contains(msg, "--json shows") || strings.Contains(msg, "write") || refused.Params["written"] != nil {
		t.Errorf("a read: message %q, written %v", msg, refused.Params["written"])
	}
	msg = refusal(run(t, ts, runOpts{}, "requests", "ls", "--json", "--jq", ".[0].title.x"))
	if !strings.HasPrefix(msg, `--jq ".[0].title.x": expected an object but got: string ("Corporate")`) {
		t.Errorf("message %q", msg)
	}
	// After a write, the error says it was made and carries what was
	// written (the message's id, the request's number), so that no one
	// posts again to see; any command's write, not one command's.
	msg = refusal(run(t, ts, runOpts{}, "answer", "1.1", "-m", "Attached.", "--jq", ".message.text - 1"))
	if !strings.HasPrefix(msg, `--jq ".message.text - 1": cannot subtract`) || strings.Contains(msg, "nothing was done") ||
		!strings.Contains(msg, "its write was made: do not run it again; params.written is its output") || strings.Contains(msg, "--json shows") {
		t.Errorf("message %q", msg)
	}
	written, _ := json.Marshal(refused.Params["written"])
	var answered answerResult
	if err := json.Unmarshal(written, &answered); err != nil || answered.Message == nil || answered.Message.Text != "Attached." ||
		answered.Message.ID == "" || answered.Request == nil || answered.Request.Number != "1.1" {
		t.Errorf("params.written %s (%v), want the answer posted on 1.1", written, err)
	}
	if n := ts.callsTo("POST /api/v1/deals/" + ts.dealID() + "/requests/" + ts.id("1.1") + "/messages"); n != 1 {
		t.Errorf("%d posts, want 1: the answer is written before its output", n)
	}
	refusal(run(t, ts, runOpts{}, "requests", "create", "--title", "Board minutes", "--parent", "1", "--force", "--jq", ".number + 1"))
	if created, _ := refused.Params["written"].(map[string]any); created["number"] == nil || created["number"] == "" {
		t.Errorf("requests create: params.written %v, want the new request with its number", refused.Params["written"])
	}
}

// TestOutputFormatOfReads: commands that print one object refuse csv and
// tsv with exit 2 (not 1); commands that print rows print them.
func TestOutputFormatOfReads(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	for _, args := range [][]string{
		{"whoami", "-o", "csv"}, {"deals", "show", "-o", "csv"}, {"version", "-o", "csv"},
		{"auth", "status", "-o", "tsv"}, {"api", "GET", "/me", "-o", "csv"}, {"watch", "--count", "1", "-o", "csv"},
	} {
		r := run(t, ts, runOpts{}, args...)
		if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, "use -o json or -o yaml") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.err)
		}
	}
	run(t, ts, runOpts{}, "help", "-o", "csv").must(t, 0, "Usage:")
	for _, args := range [][]string{
		{"deals", "ls"}, {"people", "ls"}, {"files", "ls"}, {"messages", "ls", "2.1"},
		{"requests", "ls"}, {"requests", "show", "1.1"}, {"progress"},
	} {
		r := run(t, ts, runOpts{}, append(args, "-o", "csv")...)
		if r.code != 0 || !strings.Contains(r.out, ",") {
			t.Errorf("%v -o csv: exit %d, stdout %q, stderr %q", args, r.code, r.out, r.err)
		}
	}
}

// TestImportAppliedAsCSV: an import that wrote prints its rows with -o
// csv rather than failing after the writes.
func TestImportAppliedAsCSV(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	file := filepath.Join(t.TempDir(), "list.csv")
	if err := os.WriteFile(file, []byte("Number,Title\n9,Environment\n9.1,Site surveys\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runLive(t, ls.URL, "import", file, "-o", "csv")
	r.must(t, 0, "ROW,ACTION,NUMBER,KIND,TITLE,CHANGES\n", ",create,9.1,")
}
