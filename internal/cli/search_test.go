package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// TestSearchCommand: dealctl search prints the server's hits, a row a
// hit, piped as tab-separated fields and as JSON with --json.
func TestSearchCommand(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "search", "account")
	r.must(t, cmdutil.ExitOK)
	lines := strings.Split(strings.TrimSuffix(r.out, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "2.1\ttitle\tAudited accounts\tAudited accounts\taccounts\t") ||
		!strings.HasPrefix(lines[1], "2.1\tmessage\tAudited accounts\tAttached the audited accounts.\taccounts\t2026-03-01T10:00:00Z\t"+ts.id("2.1")+"\t") {
		t.Errorf("piped:\n%s", r.out)
	}

	r = run(t, ts, runOpts{}, "search", "registry", "--in", "messages", "--json")
	r.must(t, cmdutil.ExitOK)
	var hits []api.SearchHit
	if err := json.Unmarshal([]byte(r.out), &hits); err != nil || len(hits) != 1 || hits[0].Field != api.FieldLink || hits[0].FileVersionID == nil {
		t.Errorf("--json: %v %s", err, r.out)
	}
	r = run(t, ts, runOpts{}, "search", "tax", "returns", "--status", "partial", "--jq", ".[].number")
	r.must(t, cmdutil.ExitOK)
	if r.out != "1.2\n" {
		t.Errorf("--jq with a filter: %q", r.out)
	}
	r = run(t, ts, runOpts{tty: true, color: true, width: 100}, "search", "audited")
	r.must(t, cmdutil.ExitOK)
	if !strings.Contains(r.out, "\x1b[1mAudited\x1b[") || !strings.Contains(r.out, "WHERE") {
		t.Errorf("terminal table without the match in bold:\n%q", r.out)
	}
	r = run(t, ts, runOpts{tty: true}, "search", "nowhere")
	r.must(t, cmdutil.ExitOK)
	if !strings.Contains(r.err, "Nothing found for nowhere") {
		t.Errorf("no hit: %q", r.err)
	}
	if r := run(t, ts, runOpts{}, "search", "  "); r.code != cmdutil.ExitUsage || !strings.Contains(r.err, "QUERY is empty") {
		t.Errorf("an empty query: exit %d %s", r.code, r.err)
	}
	if r := run(t, ts, runOpts{}, "search", "tax", "--in", "files"); r.code != cmdutil.ExitUsage {
		t.Errorf("--in files: exit %d %s", r.code, r.err)
	}
	r = run(t, ts, runOpts{env: map[string]string{"DEALCTL_NO_EXTENSIONS": "1"}}, "search", "tax")
	if r.code != cmdutil.ExitFailure || !strings.Contains(r.err, "does not offer search") {
		t.Errorf("without extensions: exit %d %s", r.code, r.err)
	}
}

// TestRequestsListSearchOnTheServer: requests ls --search asks the
// server's search where it is offered (all the words, in any order,
// stemmed) and matches text on the client elsewhere (a substring).
func TestRequestsListSearchOnTheServer(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "requests", "ls", "--search", "return tax")
	r.must(t, cmdutil.ExitOK)
	if !strings.HasPrefix(r.out, "1.2\t") || strings.Count(r.out, "\n") != 1 {
		t.Errorf("server search: %q", r.out)
	}
	if ts.callsTo("GET /api/v1/deals/"+ts.dealID()+"/search") != 1 {
		t.Errorf("calls: %v", ts.callList())
	}
	r = run(t, ts, runOpts{env: map[string]string{"DEALCTL_NO_EXTENSIONS": "1"}}, "requests", "ls", "--search", "return tax")
	r.must(t, cmdutil.ExitOK)
	if r.out != "" {
		t.Errorf("client match of a text no row contains: %q", r.out)
	}
	r = run(t, ts, runOpts{env: map[string]string{"DEALCTL_NO_EXTENSIONS": "1"}}, "requests", "ls", "--search", "tax return")
	r.must(t, cmdutil.ExitOK)
	if !strings.HasPrefix(r.out, "1.2\t") {
		t.Errorf("client match: %q", r.out)
	}
}

// A snippet whose match comes late shows from a little before it, so a
// terminal that cuts the column at its end still shows the match.
func TestSnippetTextStartsNearTheMatch(t *testing.T) {
	cases := []struct {
		pieces []api.SnippetPiece
		want   string
	}{
		{[]api.SnippetPiece{{Text: "The "}, {Text: "accounts", Match: true}, {Text: " of the group"}}, "The accounts of the group"},
		{[]api.SnippetPiece{{Text: "Signed audited accounts for the group and each subsidiary, with auditors' "}, {Text: "management", Match: true}, {Text: " letters."}},
			"…with auditors' management letters."},
		{[]api.SnippetPiece{{Text: "No match in this snippet at all, only words"}}, "No match in this snippet at all, only words"},
	}
	for _, c := range cases {
		if got := snippetText(c.pieces); got != c.want {
			t.Errorf("snippetText(%v) = %q, want %q", c.pieces, got, c.want)
		}
	}
}
