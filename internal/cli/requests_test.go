package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

func TestRequestsListFlags(t *testing.T) {
	t.Parallel()
	f := NewFactory(nil)
	var got *RequestsListOptions
	cmd := NewCmdRequestsList(f, func(o *RequestsListOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--status", "open,partial", "--priority", "high", "--category", "legal", "--category", "tax",
		"--assignee", "me", "--section", "2", "--overdue", "--due-before", "2026-04-01", "--search", "tax", "--exit-code"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Statuses, ",") != "open,partial" || strings.Join(got.Categories, ",") != "legal,tax" ||
		got.Priorities[0] != "high" || got.Assignee != "me" || got.Section != "2" || !got.Overdue ||
		got.DueBefore != "2026-04-01" || got.Search != "tax" || !got.ExitCode {
		t.Errorf("options = %+v", got)
	}
}

// numbers returns the first column of piped output.
func numbers(out string) string {
	var n []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line != "" {
			n = append(n, strings.Split(line, "\t")[0])
		}
	}
	return strings.Join(n, " ")
}

func TestRequestsListFilters(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	cases := []struct {
		args []string
		want string
	}{
		{nil, "1 1.1 1.2 2 2.1"},
		{[]string{"--status", "open,partial"}, "1.1 1.2"},
		{[]string{"--status", "complete"}, "2.1"},
		{[]string{"--priority", "high"}, "1.1"},
		{[]string{"--category", "tax,accounting"}, "1.2 2.1"},
		{[]string{"--assignee", "me"}, "2.1"},
		{[]string{"--assignee", "bob@acme.example"}, "1.1"},
		{[]string{"--assignee", "Bob Reyes"}, "1.1"},
		{[]string{"--assignee", "none"}, "1.2"},
		{[]string{"--section", "1"}, "1.1 1.2"},
		{[]string{"--search", "AUDITED"}, "2.1"},
		// 1.1 is due 5 March: overdue in Auckland, where it is already 6
		// March, though not in UTC; 2.1 is past due but complete.
		{[]string{"--overdue"}, "1.1"},
		{[]string{"--due-before", "2026-03-10"}, "1.1 2.1"},
		{[]string{"--due-before", "today"}, "1.1 2.1"},
	}
	for _, c := range cases {
		r := run(t, ts, runOpts{}, append([]string{"requests", "ls"}, c.args...)...)
		r.must(t, 0)
		if got := numbers(r.out); got != c.want {
			t.Errorf("requests ls %v = %q, want %q", c.args, got, c.want)
		}
	}
}

func TestRequestsListPipedColumns(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "requests", "ls", "--status", "open")
	r.must(t, 0)
	want := "1.1\trequest\topen\thigh\tlegal\t2026-03-05\tbob@acme.example\tCertificate of incorporation\t" + ts.id("1.1") + "\n"
	if r.out != want {
		t.Errorf("piped row = %q\nwant        %q", r.out, want)
	}
}

func TestRequestsListTableGolden(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{tty: true}, "requests", "ls")
	r.must(t, 0)
	golden(t, "requests_ls.txt", r.out)
}

func TestRequestsListJSONAndJQ(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "requests", "ls", "-o", "json", "--status", "complete")
	r.must(t, 0)
	var rows []api.DealRequest
	if err := json.Unmarshal([]byte(r.out), &rows); err != nil || len(rows) != 1 || rows[0].Number != "2.1" {
		t.Fatalf("rows = %+v, err = %v", rows, err)
	}
	r = run(t, ts, runOpts{}, "requests", "ls", "--jq", ".[] | select(.kind == \"section\") | .title")
	r.must(t, 0)
	if r.out != "Corporate\nFinance\n" {
		t.Errorf("--jq output = %q", r.out)
	}
	r = run(t, ts, runOpts{}, "requests", "ls", "-o", "csv", "--status", "partial")
	r.must(t, 0)
	if !strings.HasPrefix(r.out, "NUMBER,KIND,STATUS,") || !strings.Contains(r.out, `"Tax returns, last three years"`) {
		t.Errorf("csv = %q", r.out)
	}
	r = run(t, ts, runOpts{}, "requests", "ls", "-o", "yaml", "--status", "partial")
	r.must(t, 0, "- id: "+ts.id("1.2"), "  number: \"1.2\"")
}

func TestRequestsListExitCode(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "requests", "ls", "--overdue", "--exit-code")
	r.must(t, cmdutil.ExitMatched, "1.1")
	if r.err != "" {
		t.Errorf("stderr = %q; a matching gate should print no error", r.err)
	}
	run(t, ts, runOpts{}, "requests", "ls", "--priority", "low", "--status", "open", "--exit-code").must(t, 0)

	// A gate that could not run is not a gate that matched.
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	r = run(t, nil, runOpts{env: map[string]string{"DEALCTL_SERVER": down.URL, "DEALCTL_RATE_WAIT": "-1"}, quickRetries: true},
		"requests", "ls", "--overdue", "--exit-code")
	if r.code != cmdutil.ExitFailure || !strings.Contains(r.err, "cannot reach the server") {
		t.Errorf("server down: exit %d, stderr %q; want 1 and the reason", r.code, r.err)
	}
}

func TestRequestsListUsageErrors(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	for _, args := range [][]string{
		{"requests", "ls", "--status", "done"},
		{"requests", "ls", "--due-before", "next week"},
		{"requests", "ls", "--section", "1.1"},
		{"requests", "ls", "--bogus"},
		{"requests", "ls", "-o", "xml"},
		{"requests", "ls", "--jq", ".[] |"},
	} {
		r := run(t, ts, runOpts{}, args...)
		oneLine := strings.Count(r.err, "\n") == 1 && (strings.HasPrefix(r.err, "dealctl: ") || strings.HasPrefix(r.err, "{"))
		if r.code != cmdutil.ExitUsage || !oneLine {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line", args, r.code, r.err)
		}
	}
	if n := ts.callsTo("GET /api/v1/deals/" + ts.dealID() + "/requests"); n != 1 {
		// Only the --section case needs the list; bad enums fail first.
		t.Errorf("list fetched %d times for usage errors, want 1", n)
	}
}

func TestNotFoundAndAuthExitCodes(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "requests", "show", "9.9")
	if r.code != cmdutil.ExitNotFound || !strings.Contains(r.err, "no request numbered 9.9") {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
	r = run(t, ts, runOpts{}, "--deal", "nope", "requests", "ls")
	if r.code != cmdutil.ExitNotFound || !strings.Contains(r.err, `no deal "nope"`) {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
	r = run(t, ts, runOpts{env: map[string]string{"DEALCTL_API_KEY": "dlk_wrong"}}, "whoami")
	if r.code != cmdutil.ExitAuth || !strings.Contains(r.err, "auth login") {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
	r = run(t, ts, runOpts{env: map[string]string{"DEALCTL_API_KEY": "dlk_wrong"}}, "whoami", "--json")
	var er api.ErrorResponse
	if r.code != cmdutil.ExitAuth || json.Unmarshal([]byte(r.err), &er) != nil || er.Code != api.CodeUnauthenticated {
		t.Errorf("--json error: exit %d, stderr %q", r.code, r.err)
	}
	r = run(t, ts, runOpts{env: map[string]string{"DEALCTL_API_KEY": ""}}, "whoami")
	if r.code != cmdutil.ExitAuth || !strings.Contains(r.err, "no API key") {
		t.Errorf("no key: exit %d, stderr %q", r.code, r.err)
	}
	r = run(t, nil, runOpts{env: map[string]string{"DEALCTL_SERVER": ""}}, "whoami")
	if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, "no server chosen") {
		t.Errorf("no server: exit %d, stderr %q", r.code, r.err)
	}
}

func TestRequestsShow(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{tty: true}, "requests", "show", "1.1")
	r.must(t, 0)
	// The id is the one part the server makes up.
	golden(t, "requests_show.txt", strings.ReplaceAll(r.out, ts.id("1.1"), "ID-OF-1.1"))
	// By id, fetched directly rather than searched for in the list.
	r = run(t, ts, runOpts{}, "requests", "show", ts.id("1.2"), "--json")
	r.must(t, 0, `"number": "1.2"`)
	if ts.callsTo("GET /api/v1/deals/"+ts.dealID()+"/requests/"+ts.id("1.2")) != 1 {
		t.Error("a request id was not fetched directly")
	}
}

func TestRequestsCreateEditAssign(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{stdin: "Every meeting since 2020."}, "requests", "create", "--title", "Board minutes", "--parent", "1", "--priority", "high",
		"--due", "2026-04-01", "--assignee", "bob@acme.example", "-F", "-")
	r.must(t, 0, "1.3\topen\t")
	var created api.DealRequest
	for _, row := range ts.rows(t) {
		if row.Number == "1.3" {
			created = row
		}
	}
	if created.ParentID == nil || *created.ParentID != ts.id("1") || created.Priority != api.PriorityHigh ||
		deref(created.DueDate) != "2026-04-01" || deref(created.AssigneeID) != ts.person("bob") || created.Body != "Every meeting since 2020." {
		t.Errorf("created = %+v", created)
	}
	r = run(t, ts, runOpts{}, "requests", "create", "--title", "Dup", "--number", "1.1")
	if r.code != cmdutil.ExitConflict || !strings.Contains(r.err, "number 1.1 is already used") {
		t.Errorf("duplicate: exit %d, stderr %q", r.code, r.err)
	}
	run(t, ts, runOpts{}, "requests", "create").must(t, cmdutil.ExitUsage)

	r = run(t, ts, runOpts{}, "requests", "edit", "1.1", "--title", strings.Repeat("x", 501))
	if r.code != cmdutil.ExitValidation || !strings.Contains(r.err, "title: too long (max 500)") {
		t.Errorf("validation: exit %d, stderr %q", r.code, r.err)
	}
	run(t, ts, runOpts{}, "requests", "edit", "1.1").must(t, cmdutil.ExitUsage)
	run(t, ts, runOpts{}, "requests", "edit", "1.1", "--requester", "").must(t, 0)

	run(t, ts, runOpts{}, "requests", "assign", "1.2", "--to", "me", "--due", "tomorrow").must(t, 0)
	if row := ts.row(t, "1.2"); deref(row.AssigneeID) != ts.person("alice") || deref(row.DueDate) != "2026-03-07" {
		t.Errorf("assign: %v %v (tomorrow in Auckland is 7 March)", deref(row.AssigneeID), deref(row.DueDate))
	}
	run(t, ts, runOpts{}, "requests", "assign", "1.2", "--to", "none", "--due", "none").must(t, 0)
	if row := ts.row(t, "1.2"); row.AssigneeID != nil || row.DueDate != nil {
		t.Error("assign none did not clear")
	}
	r = run(t, ts, runOpts{}, "requests", "assign", "1.2", "--to", "zed@nowhere")
	if r.code != cmdutil.ExitNotFound || !strings.Contains(r.err, "people ls") {
		t.Errorf("unknown person: exit %d, stderr %q", r.code, r.err)
	}
}

func TestStatus(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "status", "2.1", "complete")
	r.confirms(t, 0, "2.1 is already complete")
	if ts.callsTo("PATCH") != 0 {
		t.Error("an already-complete request was PATCHed")
	}
	// 1.2 is partial; bob, on the counterparty's side, may only move it
	// forward.
	r = run(t, ts, runOpts{env: map[string]string{"DEALCTL_API_KEY": bobFalconKey}}, "status", "1.2", "open")
	if r.code != cmdutil.ExitConflict || !strings.Contains(r.err, "allowed moves: complete") {
		t.Errorf("forbidden move: exit %d, stderr %q", r.code, r.err)
	}
	r = run(t, ts, runOpts{}, "requests", "status", "1.1", "partial", "--json")
	r.must(t, 0, `"changed": true`, `"from": "open"`)
	if ts.row(t, "1.1").Status != api.StatusPartial {
		t.Error("status not moved")
	}
	run(t, ts, runOpts{}, "status", "1", "complete").must(t, cmdutil.ExitUsage)
	run(t, ts, runOpts{}, "status", "1.1", "done").must(t, cmdutil.ExitUsage)
}

func TestAnswer(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "answer", "1.1", "-m", "Here it is.", "--partial",
		"--link", "https://example.com/a=Registry", "--link", "https://example.com/q?x=1=Query")
	r.confirms(t, 0, "Here it is.", "1.1 is now partial", "link: Registry https://example.com/a", "link: Query https://example.com/q?x=1")
	r = run(t, ts, runOpts{stdin: "Final answer\n"}, "answer", "1.1", "-F", "-", "--json")
	r.must(t, 0, `"status": "complete"`, `"text": "Final answer\n"`)
	r = run(t, ts, runOpts{}, "answer", "1.1", "-m", "A note", "--kind", "internal_note", "--no-status", "--internal")
	r.confirms(t, 0, "(internal note, internal", "1.1: status unchanged (complete)")
	// No text and no terminal: fail at once instead of waiting for an editor.
	r = run(t, ts, runOpts{}, "answer", "1.1")
	if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, "-m TEXT or -F FILE") {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
	run(t, ts, runOpts{}, "answer", "1.1", "-m", "  ").must(t, cmdutil.ExitUsage)
	if n := ts.callsTo("POST /api/v1/deals/" + ts.dealID() + "/requests/" + ts.id("1.1") + "/messages"); n != 3 {
		t.Errorf("%d posts, want 3", n)
	}
}

func TestParseLink(t *testing.T) {
	t.Parallel()
	cases := map[string][2]string{
		"https://x.example/doc":            {"https://x.example/doc", ""},
		"https://x.example/doc=My doc":     {"https://x.example/doc", "My doc"},
		"https://x.example/?a=1":           {"https://x.example/?a=1", ""},
		"https://x.example/?a=1&b=2=Label": {"https://x.example/?a=1&b=2", "Label"},
	}
	for in, want := range cases {
		l, err := parseLink(in)
		if err != nil || l.URL != want[0] || deref(l.Label) != want[1] {
			t.Errorf("parseLink(%q) = %+v, %v; want %v", in, l, err, want)
		}
	}
	if _, err := parseLink("=label"); err == nil {
		t.Error("a link without URL was accepted")
	}
}

// A request named by id is read once: taken from the list when the
// command has read it already (download), else read on its own, and then
// that read's ETag is the If-Match, with no second read (status, edit,
// assign).
func TestRequestByIDReadOnce(t *testing.T) {
	t.Parallel()
	debug := runOpts{env: map[string]string{"DEALCTL_DEBUG": "api"}}
	readOf := func(ts *liveAPI, id string) string { return "GET /api/v1/deals/" + ts.dealID() + "/requests/" + id }
	for _, args := range []func(ts *liveAPI) []string{
		func(ts *liveAPI) []string { return []string{"status", ts.id("1.1"), "complete"} },
		func(ts *liveAPI) []string {
			return []string{"requests", "edit", ts.id("1.1"), "--title", "Certificate"}
		},
		func(ts *liveAPI) []string { return []string{"requests", "assign", ts.id("1.1"), "--to", "none"} },
	} {
		ts := newFalcon(t)
		r := run(t, ts, debug, args(ts)...)
		r.must(t, 0)
		if n := apiAttempts(r.err, readOf(ts, ts.id("1.1"))); n != 1 {
			t.Errorf("%v read the request %d times, want once:\n%s", args(ts), n, r.err)
		}
		reads := ts.sentTo(readOf(ts, ts.id("1.1")))
		patches := ts.sentTo("PATCH ")
		if len(reads) != 1 || reads[0].etag == "" || len(patches) != 1 || patches[0].Header.Get("If-Match") != reads[0].etag {
			t.Errorf("%v: want one PATCH with If-Match the ETag of the read, got %d PATCHes", args(ts), len(patches))
		}
	}

	ts := newFalcon(t)
	r := run(t, ts, debug, "download", ts.id("2.1"), "-o", t.TempDir())
	r.must(t, 0)
	if n := apiAttempts(r.err, readOf(ts, ts.id("2.1"))); n != 0 {
		t.Errorf("download by request id read the request %d times after the list:\n%s", n, r.err)
	}
	if n := apiAttempts(r.err, "GET /api/v1/deals/"+ts.dealID()+"/requests"); n != 1 {
		t.Errorf("download by request id read the list %d times, want once", n)
	}
}

// TestWritesShareOnePipedShapeAndQuiet: every write prints the request's
// NUMBER\tSTATUS\tID on a pipe, its confirmation on stderr; -q leaves
// only that line on a pipe and nothing at all on a terminal.
func TestWritesShareOnePipedShapeAndQuiet(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	writes := [][]string{
		{"status", "1.1", "partial"},
		{"answer", "1.1", "-m", "More to come", "--kind", "question"},
		{"requests", "edit", "1.1", "--priority", "low"},
		{"requests", "assign", "1.1", "--to", "none"},
	}
	line := regexp.MustCompile(`^1\.1\tpartial\t[0-9a-f-]{36}\n$`)
	for _, args := range writes {
		r := run(t, ts, runOpts{}, args...)
		if r.code != 0 || !line.MatchString(r.out) || r.err == "" {
			t.Errorf("%v piped: exit %d, stdout %q, stderr %q", args, r.code, r.out, r.err)
		}
		r = run(t, ts, runOpts{}, append([]string{"-q"}, args...)...)
		if r.code != 0 || !line.MatchString(r.out) || r.err != "" {
			t.Errorf("%v -q piped: exit %d, stdout %q, stderr %q", args, r.code, r.out, r.err)
		}
		r = run(t, ts, runOpts{tty: true}, append([]string{"-q"}, args...)...)
		if r.code != 0 || r.out != "" || r.err != "" {
			t.Errorf("%v -q on a terminal: exit %d, stdout %q, stderr %q", args, r.code, r.out, r.err)
		}
	}
}

// TestTablesAtTerminalWidthsGolden: the list and the people, on terminals
// 80 and 120 columns wide: every row on one line, the title after the
// number and cut to fit, less important columns dropped when narrow.
func TestTablesAtTerminalWidthsGolden(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	for _, width := range []int{80, 120} {
		for _, args := range [][]string{{"requests", "ls"}, {"people", "ls"}} {
			r := run(t, ts, runOpts{tty: true, width: width}, args...)
			r.must(t, 0)
			for _, line := range strings.Split(strings.TrimRight(r.out, "\n"), "\n") {
				if w := ansi.StringWidth(line); w > width {
					t.Errorf("%v at %d: a line %d wide: %q", args, width, w, line)
				}
			}
			golden(t, fmt.Sprintf("%s_%s_%d.txt", args[0], args[1], width), r.out)
		}
	}
}
