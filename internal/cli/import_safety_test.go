package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/importplan"
)

// byNumber indexes a deal's rows.
func byNumber(rows []api.DealRequest) map[string]api.DealRequest {
	m := make(map[string]api.DealRequest, len(rows))
	for _, r := range rows {
		m[r.Number] = r
	}
	return m
}

// mustLive runs a command that must succeed.
func mustLive(t *testing.T, url string, args ...string) result {
	t.Helper()
	r := runLive(t, url, args...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d: %s", args, r.code, r.err)
	}
	return r
}

// withFiveSections gives Falcon sections 3, 4, 5 beside its 1 Corporate
// and 2 Finance, as a deal organised by workstream.
func withFiveSections(t *testing.T, url string) {
	t.Helper()
	for n, title := range map[string]string{"3": "Tax", "4": "People", "5": "IT"} {
		mustLive(t, url, "requests", "create", "--kind", "section", "--number", n, "--title", title)
	}
}

// sameRows fails when a row of before changed (or went) in after.
func sameRows(t *testing.T, before, after []api.DealRequest) {
	t.Helper()
	now := byNumber(after)
	for _, b := range before {
		a, ok := now[b.Number]
		if !ok || a.ID != b.ID || a.Kind != b.Kind || a.Title != b.Title || a.Body != b.Body || a.Status != b.Status ||
			deref(a.AssigneeID) != deref(b.AssigneeID) || deref(a.DueDate) != deref(b.DueDate) {
			t.Errorf("%s changed: was %+v, now %+v", b.Number, b, a)
		}
	}
}

// TestImportWorkstreamTabNeverTouchesSections: a tab numbered 1–5,
// imported into a deal whose sections are 1–5, is refused row by row with
// the way through, and nothing is written; --under puts it in place.
func TestImportWorkstreamTabNeverTouchesSections(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	withFiveSections(t, ls.URL)
	file := filepath.Join(spreadsheets, "workstream-tabs.xlsx")
	before := liveRows(t, ls.URL)

	for _, dry := range []bool{true, false} {
		args := []string{"import", file, "--sheet", "Financial"}
		if dry {
			args = append(args, "--dry-run")
		}
		r := runLive(t, ls.URL, args...)
		if r.code != cmdutil.ExitValidation {
			t.Fatalf("%v: exit %d, want 6:\n%s", args, r.code, r.err)
		}
		for _, want := range []string{
			`row 4, No.: 1 is the section "Corporate" on the deal, and the sheet's "Audited accounts" is a request: import never turns a section into a request`,
			`row 5, No.: 2 is the section "Finance" on the deal`,
			`row 8, No.: 5 is the section "IT" on the deal`,
			"--deal Falcon --sheet Financial --renumber",
			"dealctl requests create --kind section --number 6 --title 'From workstream-tabs.xlsx' --deal Falcon && dealctl import " + file + " --deal Falcon --sheet Financial --under 6",
			"5 rows of workstream-tabs.xlsx are invalid",
		} {
			if !strings.Contains(r.err, want) {
				t.Errorf("%v: stderr lacks %q:\n%s", args, want, r.err)
			}
		}
	}
	after := liveRows(t, ls.URL)
	sameRows(t, before, after)
	if len(after) != len(before) {
		t.Errorf("rows: %d before, %d after a refused import", len(before), len(after))
	}
	followEachWay(t, runLive(t, ls.URL, "import", file, "--sheet", "Financial").err, func(t *testing.T) string {
		ls := startLiveServer(t, 0)
		withFiveSections(t, ls.URL)
		return ls.URL
	})

	// Under section 2: 1 → 2.1 (Falcon's own "Audited accounts" with
	// other fields: left alone, as the sheet has no ID of it), 2–5 →
	// 2.2–2.5, new requests under Finance.
	plan, r := planOf(t, ls.URL, file, "--sheet", "Financial", "--under", "2")
	if r.code != cmdutil.ExitConflict {
		t.Fatalf("--under 2: exit %d: %s", r.code, r.err)
	}
	if s := plan.Summary; s.Create != 4 || s.Update != 0 || s.NumberTaken != 1 || plan.Under != "2" {
		t.Errorf("--under 2: summary %+v, under %q", s, plan.Under)
	}
	rows := byNumber(liveRows(t, ls.URL))
	finance := rows["2"]
	if finance.Title != "Finance" || finance.Kind != api.KindSection {
		t.Errorf("section 2 is now %+v", finance)
	}
	if a := rows["2.1"]; a.Title != "Audited accounts" || a.DueDate != nil || a.Status != api.StatusPartial {
		t.Errorf("2.1 = %+v, want Audited accounts as it was: no due date, still partial", a)
	}
	for n, title := range map[string]string{"2.2": "Monthly management accounts FY2025", "2.5": "Capex plan"} {
		got := rows[n]
		if got.Title != title || got.Kind != api.KindRequest || got.ParentID == nil || *got.ParentID != finance.ID {
			t.Errorf("%s = %+v, want request %q under 2", n, got, title)
		}
	}
	for _, n := range []string{"1", "3", "4", "5"} {
		if rows[n].Kind != api.KindSection {
			t.Errorf("section %s became %+v", n, rows[n])
		}
	}
	for _, it := range plan.Items {
		if it.Number == "2.3" && it.SheetNumber != "3" {
			t.Errorf("2.3's sheet number = %q, want 3", it.SheetNumber)
		}
	}
	assertNoDuplicates(t, liveRows(t, ls.URL))
}

// TestImportUnderSection: a tab with its own heading over 1.1–1.3 goes
// into the section it is named like (1 → 3); --under a number that is
// not a section is refused before anything is read from the sheet's rows.
func TestImportUnderSection(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	withFiveSections(t, ls.URL)
	file := filepath.Join(spreadsheets, "workstream-tabs.xlsx")

	plan, r := planOf(t, ls.URL, file, "--sheet", "Tax", "--under", "3")
	if r.code != 0 {
		t.Fatalf("Tax --under 3: exit %d: %s", r.code, r.err)
	}
	if s := plan.Summary; s.Create != 3 || s.Update != 0 || s.Unchanged != 1 {
		t.Errorf("Tax --under 3: summary %+v, want 3 created under section 3, itself unchanged", s)
	}
	if !strings.Contains(r.err, `the sheet's section 1 "TAX" is 3 "Tax" on the deal`) {
		t.Errorf("no note of the mapping:\n%s", r.err)
	}
	rows := byNumber(liveRows(t, ls.URL))
	if rows["3"].Title != "Tax" || rows["3.3"].Title != "Transfer pricing documentation" || rows["3.3"].ParentID == nil || *rows["3.3"].ParentID != rows["3"].ID {
		t.Errorf("3 = %+v, 3.3 = %+v", rows["3"], rows["3.3"])
	}

	for _, c := range []struct {
		under string
		code  int
		want  string
	}{
		{"9", cmdutil.ExitNotFound, "--under 9: the deal has no row 9; its sections: 1 Corporate, 2 Finance, 3 Tax, 4 People, 5 IT"},
		{"1.1", cmdutil.ExitUsage, `--under 1.1: 1.1 is a request ("Certificate of incorporation"), and only a section holds rows`},
	} {
		r := runLive(t, ls.URL, "import", file, "--sheet", "People", "--under", c.under)
		if r.code != c.code || !strings.Contains(r.err, c.want) {
			t.Errorf("--under %s: exit %d, want %d with %q:\n%s", c.under, r.code, c.code, c.want, r.err)
		}
	}
}

// editCSV rewrites one cell of an exported csv: the row numbered number,
// the column headed header.
func editCSV(t *testing.T, path, number, header, value string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for i, h := range recs[0] {
		if h == header {
			col = i
		}
	}
	done := false
	for _, rec := range recs[1:] {
		if rec[0] == number && col >= 0 {
			rec[col], done = value, true
		}
	}
	if !done {
		t.Fatalf("no cell %s/%s in %s", number, header, path)
	}
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(out)
	if err := w.WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	out.Close()
}

// TestImportStaleExportLeavesNewerWorkAlone: export; a colleague
// completes 2.1 and retitles 1.2 through the API; the old export comes
// back with --apply-status and one edit of its own. The colleague's work
// stays (conflicts listed, exit 5), the edit lands; --overwrite takes the
// sheet's values.
func TestImportStaleExportLeavesNewerWorkAlone(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"list.csv", "list.xlsx"} {
		t.Run(name, func(t *testing.T) {
			ls := startLiveServer(t, 0)
			file := filepath.Join(t.TempDir(), name)
			mustLive(t, ls.URL, "export", "-o", file)
			if strings.HasSuffix(name, ".csv") {
				editCSV(t, file, "1.1", "Title", "Certificate of incorporation (certified)")
			}
			mustLive(t, ls.URL, "status", "2.1", "complete")
			mustLive(t, ls.URL, "requests", "edit", "1.2", "--title", "Board minutes 2023-2025")

			plan, r := planOf(t, ls.URL, file, "--apply-status")
			if r.code != cmdutil.ExitConflict {
				t.Fatalf("stale export: exit %d, want 5:\n%s", r.code, r.err)
			}
			if !plan.Applied || !plan.Exported || plan.Summary.Conflicts != 2 {
				t.Errorf("applied %v, exported %v, summary %+v", plan.Applied, plan.Exported, plan.Summary)
			}
			want := map[string]importplan.Conflict{
				"2.1/status": {Number: "2.1", Field: "status", Sheet: "partial", Server: "complete"},
				"1.2/title":  {Number: "1.2", Field: "title", Sheet: "Board minutes", Server: "Board minutes 2023-2025"},
			}
			for _, c := range plan.Conflicts {
				w, ok := want[c.Number+"/"+c.Field]
				if !ok || c.Sheet != w.Sheet || c.Server != w.Server || c.Row == 0 || !c.ServerUpdated.After(c.SheetUpdated) {
					t.Errorf("conflict %+v, want one of %+v", c, want)
				}
				delete(want, c.Number+"/"+c.Field)
			}
			if len(want) != 0 {
				t.Errorf("conflicts not listed: %+v", want)
			}
			for _, s := range []string{`1.2 title: kept the deal's "Board minutes 2023-2025"`, `the sheet has "Board minutes"`,
				"2 rows were left alone", "--overwrite"} {
				if !strings.Contains(r.err, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.err)
				}
			}
			rows := byNumber(liveRows(t, ls.URL))
			if rows["2.1"].Status != api.StatusComplete || rows["1.2"].Title != "Board minutes 2023-2025" {
				t.Errorf("the colleague's work was undone: 2.1 %s, 1.2 %q", rows["2.1"].Status, rows["1.2"].Title)
			}
			if strings.HasSuffix(name, ".csv") && rows["1.1"].Title != "Certificate of incorporation (certified)" {
				t.Errorf("the sheet's own edit of 1.1 was not applied: %q", rows["1.1"].Title)
			}

			// Again: the same conflicts, nothing more written (exit 5 again).
			if _, r := planOf(t, ls.URL, file, "--apply-status", "--dry-run"); r.code != cmdutil.ExitConflict {
				t.Errorf("dry run of the stale export: exit %d, want 5", r.code)
			}
			plan, r = planOf(t, ls.URL, file, "--apply-status", "--overwrite")
			if r.code != 0 || plan.Summary.Conflicts != 0 {
				t.Fatalf("--overwrite: exit %d, summary %+v: %s", r.code, plan.Summary, r.err)
			}
			rows = byNumber(liveRows(t, ls.URL))
			if rows["1.2"].Title != "Board minutes" {
				t.Errorf("--overwrite: 1.2 is %q, want the sheet's", rows["1.2"].Title)
			}
		})
	}
}

// TestImportForeignBlanksKeepDealValues: counsel's list (no Updated
// column) with blank Assigned to and Due cells, after the owning side
// assigned 1.2: the blanks keep the deal's assignee and due dates, the
// plan says so, and --clear-blanks clears them.
func TestImportForeignBlanksKeepDealValues(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	mustLive(t, ls.URL, "requests", "assign", "1.2", "--to", "bob@acme.example")
	file := filepath.Join(spreadsheets, "counsel-followup.csv")

	plan, r := planOf(t, ls.URL, file, "--match", "number", "--yes")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	if plan.Exported || plan.BlankCells != "keep" {
		t.Errorf("exported %v, blank_cells %q; want a foreign sheet whose blanks keep", plan.Exported, plan.BlankCells)
	}
	kept := map[string]string{}
	for _, it := range plan.Items {
		kept[it.Number] = strings.Join(it.Kept, ",")
		if it.Number == "1.2" && (it.Action != importplan.ActionUpdate || strings.Join(it.Changes, ",") != "body") {
			t.Errorf("1.2: %+v, want a body update only", it)
		}
	}
	if kept["1.1"] != "due_date,assignee" || kept["1.2"] != "due_date,assignee" {
		t.Errorf("kept = %v", kept)
	}
	rows := byNumber(liveRows(t, ls.URL))
	if rows["1.2"].AssigneeID == nil || rows["1.1"].AssigneeID == nil || deref(rows["1.1"].DueDate) != "2020-01-01" {
		t.Errorf("blank cells cleared the deal's values: 1.1 %+v, 1.2 %+v", rows["1.1"], rows["1.2"])
	}
	if !strings.Contains(rows["1.2"].Body, "since 2023") {
		t.Errorf("1.2's body was not written: %q", rows["1.2"].Body)
	}

	plan, r = planOf(t, ls.URL, file, "--clear-blanks", "--match", "number", "--yes")
	if r.code != 0 || plan.BlankCells != "clear" || plan.Summary.Update != 2 {
		t.Fatalf("--clear-blanks: exit %d, blank_cells %q, summary %+v: %s", r.code, plan.BlankCells, plan.Summary, r.err)
	}
	rows = byNumber(liveRows(t, ls.URL))
	if rows["1.2"].AssigneeID != nil || rows["1.1"].DueDate != nil {
		t.Errorf("--clear-blanks kept values: 1.1 %+v, 1.2 %+v", rows["1.1"], rows["1.2"])
	}
}

// writeSheet writes a csv for one test.
func writeSheet(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "list.csv")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestImportIdentityMismatches: a row that says it is a request where the
// deal has a section (or back) is refused with the ways through, and
// nothing is written; a row without the deal's ID on a number the deal
// has with other content is a conflict, left alone (exit 5), until
// --match number says it is the deal's row. Every way through printed
// then succeeds.
func TestImportIdentityMismatches(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	before := liveRows(t, ls.URL)
	kind := writeSheet(t, "Number,Kind,Title\n2,request,Finance\n1.1,section,Certificate of incorporation\n1.1.1,request,Apostille\n")
	r := runLive(t, ls.URL, "import", kind)
	if r.code != cmdutil.ExitValidation {
		t.Fatalf("kind mismatch: exit %d, want 6:\n%s", r.code, r.err)
	}
	for _, want := range []string{
		`row 2, Kind: 2 is the section "Finance" on the deal, and the sheet's "Finance" is a request: import never turns a section into a request`,
		`row 3, Kind: 1.1 is the request "Certificate of incorporation" on the deal, and the sheet's "Certificate of incorporation" is a section`,
	} {
		if !strings.Contains(r.err, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.err)
		}
	}
	if strings.Contains(r.err, "--match number") {
		t.Errorf("--match number offered for a kind mismatch, where it cannot help:\n%s", r.err)
	}
	followEachWay(t, r.err, func(t *testing.T) string { return startLiveServer(t, 0).URL })
	// A sheet at odds with itself (a request holding rows) is fixed first:
	// no flag gets it through, so none is offered.
	odd := writeSheet(t, "Number,Kind,Title\n1,request,Corporate\n1.1,section,Certificate of incorporation\n1.1.1,request,Apostille\n")
	if r := runLive(t, ls.URL, "import", odd); r.code != cmdutil.ExitValidation || len(waysIn(r.err)) != 0 {
		t.Errorf("a sheet at odds with itself: exit %d, ways offered:\n%s", r.code, r.err)
	}

	title := writeSheet(t, "Number,Title,Due date\n1.2,Environmental permits,2026-06-01\n2.1,Audited accounts FY2025,2026-06-01\n1.3,Share register,\n")
	plan, r := planOf(t, ls.URL, title)
	if r.code != cmdutil.ExitConflict || plan.Summary.NumberTaken != 2 || plan.Summary.Create != 1 ||
		!strings.Contains(r.err, `row 2, 1.2 is on the deal with other content, left alone`) ||
		!strings.Contains(r.err, `title: deal "Board minutes", sheet "Environmental permits"`) {
		t.Errorf("taken numbers: exit %d, summary %+v:\n%s", r.code, plan.Summary, r.err)
	}
	rows := byNumber(liveRows(t, ls.URL))
	sameRows(t, before, liveRows(t, ls.URL))
	if rows["1.3"].Title != "Share register" {
		t.Errorf("the rest of the sheet was not imported: %+v", rows["1.3"])
	}
	followEachWay(t, r.err, func(t *testing.T) string {
		ls := startLiveServer(t, 0)
		mustLive(t, ls.URL, "requests", "create", "--parent", "1", "--number", "1.3", "--title", "Share register")
		return ls.URL
	})

	if plan, r := planOf(t, ls.URL, title, "--match", "number", "--yes"); r.code != 0 || plan.Summary.Update != 2 {
		t.Errorf("--match number: exit %d, summary %+v: %s", r.code, plan.Summary, r.err)
	}
	if got := byNumber(liveRows(t, ls.URL))["1.2"].Title; got != "Environmental permits" {
		t.Errorf("--match number: 1.2 is %q", got)
	}
}

// TestImportPlanJSONAgreesWithTable: every row's action is the same in
// -o json and in the piped table, a status-only move is "status" in both
// and counted apart from "unchanged", and a status difference without
// --apply-status is mentioned once.
func TestImportPlanJSONAgreesWithTable(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	sheet := writeSheet(t, "Number,Kind,Title,Status\n1,section,Corporate,\n1.1,request,Certificate of incorporation,complete\n"+
		"1.2,request,Board minutes,open\n1.3,request,Share register,\n2,section,Finance,\n2.1,request,Audited accounts,complete\n")
	for _, extra := range [][]string{{"--apply-status"}, nil} {
		args := append([]string{sheet, "--dry-run", "--match", "number"}, extra...)
		plan, r := planOf(t, ls.URL, args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, r.code, r.err)
		}
		table := runLive(t, ls.URL, append([]string{"import"}, args...)...)
		lines := strings.Split(strings.TrimSpace(table.out), "\n")
		if len(lines) != len(plan.Items) {
			t.Fatalf("%v: %d table rows, %d plan items:\n%s", extra, len(lines), len(plan.Items), table.out)
		}
		actions := map[string]string{}
		for i, it := range plan.Items {
			cells := strings.Split(lines[i], "\t")
			if len(cells) < 3 || cells[1] != it.Action || cells[2] != it.Number {
				t.Errorf("%v: table row %q, json %s %s", extra, lines[i], it.Action, it.Number)
			}
			actions[it.Number] = it.Action
		}
		s := plan.Summary
		if extra != nil {
			if actions["1.1"] != importplan.ActionStatus || actions["2.1"] != importplan.ActionStatus || s.StatusMoves != 2 || s.Unchanged != 3 || s.Create != 1 {
				t.Errorf("--apply-status: actions %v, summary %+v", actions, s)
			}
			continue
		}
		if actions["1.1"] != importplan.ActionUnchanged || s.StatusMoves != 0 {
			t.Errorf("without --apply-status: actions %v, summary %+v", actions, s)
		}
		want := "2 rows have a status in the sheet other than the deal's (1.1, 2.1): statuses are left as they are; --apply-status moves them"
		if !strings.Contains(strings.Join(plan.Warnings, "\n"), want) || strings.Count(r.err, "--apply-status moves them") != 1 {
			t.Errorf("status difference not mentioned once:\nwarnings %q\nstderr %s", plan.Warnings, r.err)
		}
	}
}

// TestImportWarningsCappedAndQuietOnReRun: 60 unnumbered near-duplicate
// rows give a few warnings of each kind and a count of the rest, not 120
// lines; the same list imported again (now on the deal) warns of nothing.
func TestImportWarningsCappedAndQuietOnReRun(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	var b strings.Builder
	b.WriteString("Title,Priority\n")
	for i := 0; i < 60; i++ {
		if i%2 == 0 {
			b.WriteString("Copies of all customer contracts,high\n")
		} else {
			b.WriteString("Customer contracts,low\n")
		}
	}
	sheet := writeSheet(t, b.String())
	plan, r := planOf(t, ls.URL, sheet)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	if plan.Summary.Warnings < 100 || len(plan.Warnings) > 12 {
		t.Errorf("warnings: %d in all, %d listed; want >= 100 counted and at most 12 lines", plan.Summary.Warnings, len(plan.Warnings))
	}
	for _, want := range []string{"more rows without a number, numbered by import", "more near-duplicate titles"} {
		if !strings.Contains(r.err, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.err)
		}
	}
	if n := strings.Count(r.err, "\n"); n > 16 {
		t.Errorf("stderr has %d lines:\n%s", n, r.err)
	}

	// An export of the result, imported back: nothing to say.
	out := filepath.Join(t.TempDir(), "again.xlsx")
	mustLive(t, ls.URL, "export", "-o", out)
	plan, r = planOf(t, ls.URL, out, "--dry-run")
	if r.code != 0 || len(plan.Warnings) != 0 || plan.Summary.Create+plan.Summary.Update != 0 {
		t.Errorf("unchanged export: exit %d, warnings %q, summary %+v", r.code, plan.Warnings, plan.Summary)
	}
}

// TestImportNULFailsPlanning: a NUL in a cell is refused while planning
// (exit 6, the row named, nothing written), not by the server halfway.
func TestImportNULFailsPlanning(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	sheet := writeSheet(t, "Number,Title,Details\n1,Corporate,\n1.3,Share\x00register,\n1.4,Options,text\x00more\n")
	for _, args := range [][]string{{"--dry-run"}, nil} {
		r := runLive(t, ls.URL, append([]string{"import", sheet}, args...)...)
		if r.code != cmdutil.ExitValidation || !strings.Contains(r.err, "row 3, Title: the title holds a NUL character") ||
			!strings.Contains(r.err, "row 4, Details: the text holds a NUL character") {
			t.Errorf("%v: exit %d:\n%s", args, r.code, r.err)
		}
	}
	if n := len(liveRows(t, ls.URL)); n != 5 {
		t.Errorf("the deal has %d rows, want its 5", n)
	}
}
