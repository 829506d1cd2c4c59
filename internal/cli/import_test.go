package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/importplan"
)

const spreadsheets = "../../testdata/spreadsheets"

// TestImportTemplateThenReRunChangesNothing imports a buyer's template
// into Falcon (which already holds 1, 1.1, 1.2, 2, 2.1), then plans again.
// The template has no IDs of Falcon's, so its rows on Falcon's numbers
// are conflicts, left alone, until --match number says they are Falcon's
// rows; the plan then shows each change old → new, and a run without a
// terminal writes only with --yes.
func TestImportTemplateThenReRunChangesNothing(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	file := filepath.Join(spreadsheets, "buyer-ddrl.xlsx")

	plan, r := planOf(t, ls.URL, file, "--dry-run")
	if r.code != cmdutil.ExitConflict || plan.Summary.Create != 4 || plan.Summary.Update != 0 || plan.Summary.NumberTaken != 4 ||
		!strings.Contains(r.err, "row 8, 1.2 is on the deal with other content, left alone") ||
		!strings.Contains(r.err, `title: deal "Board minutes", sheet "Register of members"`) {
		t.Fatalf("template over Falcon: exit %d, summary %+v, want 5 with 4 conflicts:\n%s", r.code, plan.Summary, r.err)
	}

	r = runLive(t, ls.URL, "import", file, "--dry-run", "--match", "number")
	if r.code != 0 {
		t.Fatalf("dry run: exit %d: %s", r.code, r.err)
	}
	for _, want := range []string{"row 8, 1.2 (matched by number):", `  title: "Board minutes" → "Register of members"`,
		`  due_date: "2099-01-01" → "2026-03-16"`, `  title: "Finance" → "Financial"`} {
		if !strings.Contains(r.err, want) {
			t.Errorf("the dry run does not show %q:\n%s", want, r.err)
		}
	}
	plan, r = planOf(t, ls.URL, file, "--dry-run", "--match", "number")
	// New: 1.10, 2.2, 3, 3.1. Changed: 1.1, 1.2 (fields), 2 and 2.1 (titles).
	if s := plan.Summary; s.Create != 4 || s.Update != 4 || s.Unchanged != 1 || s.StatusMoves != 0 || s.ByNumber != 4 {
		t.Errorf("summary = %+v", s)
	}
	if !strings.Contains(r.err, "Ignoring columns dealctl does not use: Comments") {
		t.Errorf("no note about the ignored column:\n%s", r.err)
	}
	if r := runLive(t, ls.URL, "import", file, "--match", "number"); r.code != cmdutil.ExitUsage ||
		!strings.Contains(r.err, "--match number would overwrite 4 rows of the deal by number, and there is no terminal to ask: nothing was written; pass --yes to write them, or --dry-run to see each change") {
		t.Errorf("--match number without a terminal or --yes: exit %d:\n%s", r.code, r.err)
	}
	if before := liveRows(t, ls.URL); len(before) != 5 {
		t.Fatalf("the dry run wrote: %d rows", len(before))
	}

	r = runLive(t, ls.URL, "import", file, "--match", "number", "--yes")
	if r.code != 0 || !strings.Contains(r.err, `  title: "Board minutes" → "Register of members"`) {
		t.Fatalf("import --yes: exit %d, want the changes on record:\n%s", r.code, r.err)
	}
	rows := liveRows(t, ls.URL)
	assertNoDuplicates(t, rows)
	if len(rows) != 9 {
		t.Errorf("the deal has %d rows, want 9", len(rows))
	}
	byNumber := map[string]string{}
	for _, row := range rows {
		byNumber[row.Number] = row.Title
		if row.Number == "3.1" && (row.ParentID == nil || row.DueDate == nil || *row.DueDate != "2026-04-01") {
			t.Errorf("3.1 = %+v, want under 3, due 2026-04-01", row)
		}
	}
	if byNumber["2"] != "Financial" {
		t.Errorf("section 2 is %q, want Financial", byNumber["2"])
	}

	plan, r = planOf(t, ls.URL, file, "--dry-run")
	if s := plan.Summary; r.code != 0 || s.Create != 0 || s.Update != 0 || s.Unchanged != 9 {
		t.Errorf("re-plan after import: exit %d, summary %+v", r.code, s)
	}
}

// TestImportApplyStatus moves statuses only when asked, through allowed
// moves.
func TestImportApplyStatus(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	file := filepath.Join(spreadsheets, "buyer-ddrl.xlsx")
	plan, r := planOf(t, ls.URL, file, "--apply-status", "--match", "number", "--yes")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	// 1.10 is created then moved to partial; 2.1 goes partial → complete.
	if plan.Summary.StatusMoves != 2 {
		t.Errorf("status moves = %d, want 2", plan.Summary.StatusMoves)
	}
	for _, row := range liveRows(t, ls.URL) {
		want := map[string]string{"1.10": "partial", "2.1": "complete", "1.1": "open"}[row.Number]
		if want != "" && string(row.Status) != want {
			t.Errorf("%s is %s, want %s", row.Number, row.Status, want)
		}
	}
}

// TestImportBadRowsWriteNothing: every bad row is reported by its sheet
// row number, the exit code is 6, and the deal is untouched.
func TestImportBadRowsWriteNothing(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	path := filepath.Join(t.TempDir(), "bad.csv")
	csv := "Buyer list,,,,\n" +
		"No.,Request,Due,Assigned to,Priority\n" +
		"5,New section,,,\n" +
		"5.1,Fine row,2026-05-01,bob@acme.example,high\n" +
		"5.2,,2026-05-01,,\n" +
		"5.3,Bad date,2026-13-45,,\n" +
		"5.4,Nobody,,carol@nowhere.example,\n" +
		"7.1,Orphan,,,low\n" +
		"1.1.1,Under a request,,,\n"
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runLive(t, ls.URL, "import", path)
	if r.code != cmdutil.ExitValidation {
		t.Fatalf("exit %d, want 6:\n%s", r.code, r.err)
	}
	for _, want := range []string{
		"row 5, Request: the title is empty",
		"row 6, Due: \"2026-13-45\" is not a date",
		"row 7, Assigned to: no person \"carol@nowhere.example\" on the deal",
		"row 8, No.: 7.1 sits under section 7, which is neither in the sheet",
		"row 9, No.: 1.1.1 sits under 1.1, which is a request on the deal",
		"5 rows of bad.csv are invalid (5 problems): nothing was written",
	} {
		if !strings.Contains(r.err, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.err)
		}
	}
	if rows := liveRows(t, ls.URL); len(rows) != 5 {
		t.Errorf("the deal has %d rows after a failed import, want the 5 it had", len(rows))
	}
}

// TestExportImportRoundTrip: an exported xlsx or csv, imported back,
// plans zero changes, with or without --apply-status.
func TestExportImportRoundTrip(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	// Give the list some texture first: multi-line bodies, dates, a
	// requester, an unnumbered row, 1.10 beside 1.1.
	if _, r := planOf(t, ls.URL, filepath.Join(spreadsheets, "buyer-ddrl.xlsx"), "--match", "number", "--yes"); r.code != 0 {
		t.Fatal(r.err)
	}
	if _, r := planOf(t, ls.URL, filepath.Join(spreadsheets, "libreoffice-tracker.xlsx"), "--match", "number", "--yes"); r.code != 0 {
		t.Fatal(r.err)
	}
	dir := t.TempDir()
	for _, name := range []string{"list.xlsx", "list.csv"} {
		out := filepath.Join(dir, name)
		if r := runLive(t, ls.URL, "export", "-o", out); r.code != 0 {
			t.Fatalf("export %s: %s", name, r.err)
		}
		for _, extra := range [][]string{nil, {"--apply-status"}} {
			plan, r := planOf(t, ls.URL, append([]string{out, "--dry-run"}, extra...)...)
			if r.code != 0 {
				t.Fatalf("%s: exit %d %s", name, r.code, r.err)
			}
			if s := plan.Summary; s.Create+s.Update+s.StatusMoves+s.Absent != 0 || s.Unchanged == 0 {
				t.Errorf("%s %v re-imported plans changes: %+v", name, extra, s)
				for _, it := range plan.Items {
					if it.Action != importplan.ActionUnchanged {
						t.Logf("  %+v", *it)
					}
				}
			}
			if len(plan.Ignored) != 0 {
				t.Errorf("%s: export columns noted as unknown: %v", name, plan.Ignored)
			}
		}
	}
}

// oneNewRowSheet is a csv that adds 1.3 to testdata/falcon.yaml's Falcon.
func oneNewRowSheet(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "one.csv")
	if err := os.WriteFile(path, []byte("Number,Kind,Title\n1,section,Corporate\n1.3,request,Board minutes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A create whose connection keeps dropping is retried by the client alone
// (1 + its 3 retries, under one Idempotency-Key), not again by import on
// top; with DEALCTL_NO_EXTENSIONS import sends no Idempotency-Key, even
// where the server advertises them, and the client does not resend.
func TestImportRetriesInOneLayer(t *testing.T) {
	t.Parallel()
	debug := map[string]string{"DEALCTL_DEBUG": "api"}

	ts := newFalcon(t)
	post := "POST /api/v1/deals/" + ts.dealID() + "/requests" // the same deal id on every copy
	ts.set(func(ts *liveAPI) { ts.dropPOS = 2 })
	freshConnections(ts)
	r := run(t, ts, runOpts{env: debug, quickRetries: true}, "import", oneNewRowSheet(t))
	r.must(t, 0)
	if n := apiAttempts(r.err, post); n != 3 {
		t.Errorf("two dropped answers: %d POST attempts, want 3\n%s", n, r.err)
	}
	keys := map[string]bool{}
	for _, p := range ts.sentTo("POST ") {
		keys[p.Header.Get("Idempotency-Key")] = true
	}
	if len(keys) != 1 || keys[""] {
		t.Errorf("Idempotency-Keys sent: %v, want one, on every attempt", keys)
	}

	ts = newFalcon(t)
	ts.set(func(ts *liveAPI) { ts.dropPOS = 1000 })
	freshConnections(ts)
	r = run(t, ts, runOpts{env: debug, quickRetries: true}, "import", oneNewRowSheet(t))
	r.must(t, cmdutil.ExitFailure)
	if n := apiAttempts(r.err, post); n != 4 {
		t.Errorf("a network that stays down: %d POST attempts, want 4 (the client's 1 + 3 retries)", n)
	}
	if n := len(ts.sentTo(post)); n != 4 {
		t.Errorf("a network that stays down: the server got %d POSTs, want 4", n)
	}

	ts = newFalcon(t)
	ts.set(func(ts *liveAPI) { ts.dropPOS = 1 })
	freshConnections(ts)
	r = run(t, ts, runOpts{env: map[string]string{"DEALCTL_DEBUG": "api", "DEALCTL_NO_EXTENSIONS": "1"}, quickRetries: true}, "import", oneNewRowSheet(t))
	r.must(t, cmdutil.ExitFailure)
	if !strings.Contains(r.err, "run the same command again to finish") {
		t.Errorf("stderr = %q, want the advice to run again", r.err)
	}
	if n := apiAttempts(r.err, post); n != 1 {
		t.Errorf("extensions off: %d POST attempts, want 1 (no replay, so no resend)", n)
	}
	for _, p := range ts.sentTo("POST ") {
		if k := p.Header.Get("Idempotency-Key"); k != "" {
			t.Errorf("extensions off: POST sent Idempotency-Key %q", k)
		}
	}
}

// TestImportUnterminatedQuote: a csv whose quote is never closed fails
// with the line, exit 6, and writes nothing (a dry run says so too),
// rather than reading the lines after it into one cell.
func TestImportUnterminatedQuote(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	file := filepath.Join(t.TempDir(), "list.csv")
	data := "Number,Title\n9,Environment\n9.1,\"Site surveys\n9.2,Permits\n9.3,Waste\n"
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	before := len(liveRows(t, ls.URL))
	for _, args := range [][]string{{"--dry-run"}, {}} {
		r := runLive(t, ls.URL, append([]string{"import", file}, args...)...)
		if r.code != cmdutil.ExitValidation || !strings.Contains(r.err, "list.csv: line 3: unterminated quote") ||
			!strings.Contains(r.err, "nothing was written") {
			t.Errorf("import %v: exit %d, stderr %q", args, r.code, r.err)
		}
	}
	if after := len(liveRows(t, ls.URL)); after != before {
		t.Errorf("rows went from %d to %d", before, after)
	}
}

// TestImportProblemsNeverActOnTheTerminal: a sheet from the other side
// may carry escape sequences; the problems that quote its cells reach
// stderr as visible text.
func TestImportProblemsNeverActOnTheTerminal(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	path := filepath.Join(t.TempDir(), "hostile.csv")
	csv := "Number,Title,Assigned to\n" +
		"1,Corporate,\n" +
		"1.7,\x1b]52;c;cm0gLXJmIH4K\x07Board minutes,\n" +
		"1.8,Articles,\x1b[2J\u202eevil@x.example\n"
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runLive(t, ls.URL, "import", path, "--dry-run")
	if r.code != cmdutil.ExitValidation {
		t.Fatalf("exit %d, want 6:\n%s", r.code, r.err)
	}
	if strings.ContainsAny(r.err, "\x1b\x07\u202e") {
		t.Errorf("stderr carries control characters: %q", r.err)
	}
}
