package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// answeredFalcon gives Falcon the rest of 1.1–3.3 (1.3, 2.2, 2.3, a
// section 3 Tax and 3.1–3.3), complete: a deal whose own list is well
// under way, beside its 2.1 with the other side's answer and files.
func answeredFalcon(t *testing.T) string {
	t.Helper()
	ls := startLiveServer(t, 0)
	own := writeSheet(t, "Number,Kind,Title,Status\n1.3,request,Share register,complete\n2.2,request,Management accounts,complete\n"+
		"2.3,request,Debt schedule,complete\n3,section,Tax,\n3.1,request,Tax returns,complete\n3.2,request,Tax clearance certificates,complete\n"+
		"3.3,request,Transfer pricing policy,complete\n")
	mustLive(t, ls.URL, "import", own, "--apply-status")
	return ls.URL
}

// TestImportCounselTemplateChangesNothing is finding 1: a counsel's
// standard template (1 CORPORATE / 2 FINANCIAL / 3 TAX over 1.1–3.3 that
// are other documents) imported into a deal that has 1.1–3.3 answered
// plans no update, lists each row as a conflict with the deal's text
// beside the sheet's, exits 5 and changes nothing; every way through it
// prints then succeeds, and --renumber adds the template's rows without
// touching the deal's, once however often it runs.
func TestImportCounselTemplateChangesNothing(t *testing.T) {
	t.Parallel()
	url := answeredFalcon(t)
	file := filepath.Join(spreadsheets, "counsel-template.xlsx")
	before := liveRows(t, url)

	for _, dry := range []bool{true, false} {
		args := []string{file}
		if dry {
			args = append(args, "--dry-run")
		}
		plan, r := planOf(t, url, args...)
		if r.code != cmdutil.ExitConflict {
			t.Fatalf("%v: exit %d, want 5:\n%s", args, r.code, r.err)
		}
		if s := plan.Summary; s.Create != 0 || s.Update != 0 || s.StatusMoves != 0 || s.Conflicts != 10 || s.NumberTaken != 10 || s.Unchanged != 2 {
			t.Errorf("%v: summary %+v, want 10 conflicts (9 requests and FINANCIAL), CORPORATE and TAX unchanged", args, s)
		}
		for _, want := range []string{
			"row 10, 2.1 is on the deal with other content, left alone",
			`  title: deal "Audited accounts", sheet "Financial statements of the pension scheme"`,
			`  title: deal "Finance", sheet "FINANCIAL"`,
			"10 rows were left alone: 10 rows' numbers are on the deal with other content",
		} {
			if !strings.Contains(r.err, want) {
				t.Errorf("%v: stderr lacks %q:\n%s", args, want, r.err)
			}
		}
	}
	after := liveRows(t, url)
	sameRows(t, before, after)
	if len(after) != len(before) {
		t.Errorf("the deal had %d rows, now %d", len(before), len(after))
	}
	r := runLive(t, url, "import", file)
	followEachWay(t, r.err, answeredFalcon)
	if ways := waysIn(r.err); len(ways) != 3 {
		t.Errorf("%d ways through, want --renumber, a new section, and --match number:\n%s", len(ways), r.err)
	}

	for range 2 {
		plan, r := planOf(t, url, file, "--renumber")
		if r.code != 0 {
			t.Fatalf("--renumber: exit %d:\n%s", r.code, r.err)
		}
		if s := plan.Summary; s.Update != 0 || s.Conflicts != 0 {
			t.Errorf("--renumber: summary %+v", s)
		}
	}
	rows := byNumber(liveRows(t, url))
	sameRows(t, before, liveRows(t, url))
	if len(rows) != len(before)+10 {
		t.Errorf("after --renumber twice the deal has %d rows, want the %d it had and the template's 10", len(rows), len(before))
	}
	if rows["4"].Title != "FINANCIAL" || rows["4.1"].Title != "Financial statements of the pension scheme" || rows["1.4"].Title != "Group structure chart" {
		t.Errorf("--renumber put 4 = %q, 4.1 = %q, 1.4 = %q", rows["4"].Title, rows["4.1"].Title, rows["1.4"].Title)
	}
	// A row --renumber made, changed on the deal since, is a conflict the
	// next --renumber leaves alone, with no way through to loop on.
	mustLive(t, url, "requests", "edit", "1.4", "--body", "Our own wording now.")
	plan, r := planOf(t, url, file, "--renumber")
	if r.code != cmdutil.ExitConflict || plan.Summary.Create != 0 || plan.Summary.Conflicts != 1 || len(waysIn(r.err)) != 0 {
		t.Errorf("--renumber after an edit of 1.4: exit %d, summary %+v:\n%s", r.code, plan.Summary, r.err)
	}

	// The counterparty's dry run exits as its run does: it may not create.
	for _, dry := range []bool{true, false} {
		args := []string{"import", file, "--renumber"}
		if dry {
			args = append(args, "--dry-run")
		}
		r := runAs(t, url, bobKey, runOpts{}, append(args, "--sheet", "DD Request List", "--under", "2")...)
		if r.code != cmdutil.ExitAuth || !strings.Contains(r.err, "only admins and editors of the owning side may create requests") {
			t.Errorf("bob %v: exit %d, want 4:\n%s", args, r.code, r.err)
		}
	}
}

// TestImportForeignSheetKeepsBodiesAndSections is finding 6: a foreign
// sheet with other bodies for 4.1 and 4.3 and a heading in capitals
// replaces no body and retitles no section; its new row is created.
func TestImportForeignSheetKeepsBodiesAndSections(t *testing.T) {
	t.Parallel()
	setup := func(t *testing.T) string {
		ls := startLiveServer(t, 0)
		mustLive(t, ls.URL, "requests", "create", "--kind", "section", "--number", "4", "--title", "People")
		for n, title := range map[string]string{"4.1": "Employee census", "4.2": "Employment contracts", "4.3": "Pension arrangements"} {
			mustLive(t, ls.URL, "requests", "create", "--parent", "4", "--number", n, "--title", title, "--body", "Our own wording of "+n+".")
		}
		return ls.URL
	}
	url := setup(t)
	before := liveRows(t, url)
	file := filepath.Join(spreadsheets, "foreign-bodies.csv")
	plan, r := planOf(t, url, file)
	if r.code != cmdutil.ExitConflict {
		t.Fatalf("exit %d, want 5:\n%s", r.code, r.err)
	}
	if s := plan.Summary; s.Create != 1 || s.Update != 0 || s.Conflicts != 2 || s.Unchanged != 2 {
		t.Errorf("summary %+v, want 4.4 created, 4.1 and 4.3 left alone, 4 and 4.2 unchanged", s)
	}
	if !strings.Contains(r.err, `  body: deal "Our own wording of 4.1.", sheet "Anonymised census of all staff."`) {
		t.Errorf("the conflict does not show both bodies:\n%s", r.err)
	}
	sameRows(t, before, liveRows(t, url))
	rows := byNumber(liveRows(t, url))
	if rows["4"].Title != "People" || rows["4.4"].Title != "Share option plans" {
		t.Errorf("4 = %q, 4.4 = %q", rows["4"].Title, rows["4.4"].Title)
	}
	followEachWay(t, r.err, func(t *testing.T) string {
		url := setup(t)
		mustLive(t, url, "requests", "create", "--parent", "4", "--number", "4.4", "--title", "Share option plans", "--body", "Rules and grants.")
		return url
	})
}

// TestImportMatchNumberAsks: a run of --match number on a terminal shows
// each change old → new and asks; "n" writes nothing, "y" writes.
func TestImportMatchNumberAsks(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	long := "Minutes of every board meeting.\nSigned by the chair.\nWith all written resolutions.\nAnd committee minutes.\nSince 2020."
	sheet := writeSheet(t, "Number,Title,Details\n1.2,Board minutes and resolutions,\""+strings.ReplaceAll(long, "Since 2020", "Since 2019")+"\"\n")
	mustLive(t, ls.URL, "requests", "edit", "1.2", "--body", long)
	prompt := func(answer string) result {
		return run(t, nil, runOpts{prompt: true, stdin: answer, env: map[string]string{"DEALCTL_SERVER": ls.URL, "DEALCTL_API_KEY": aliceKey}},
			"import", sheet, "--match", "number")
	}
	r := prompt("n\n")
	if r.code != cmdutil.ExitFailure || !strings.Contains(r.err, "nothing was written") {
		t.Errorf("answered n: exit %d:\n%s", r.code, r.err)
	}
	for _, want := range []string{"row 2, 1.2 (matched by number):", `  title: "Board minutes" → "Board minutes and resolutions"`,
		"  body:", "      And committee minutes.\n    - Since 2020.\n    + Since 2019.", "      … 2 unchanged lines", "Overwrite 1 row of the deal matched by number, as shown above? [y/N]"} {
		if !strings.Contains(r.err, want) {
			t.Errorf("the question lacks %q:\n%s", want, r.err)
		}
	}
	if got := byNumber(liveRows(t, ls.URL))["1.2"]; got.Title != "Board minutes" || got.Body != long {
		t.Errorf("answered n, and 1.2 is now %q", got.Title)
	}
	if r := prompt("y\n"); r.code != 0 {
		t.Fatalf("answered y: exit %d:\n%s", r.code, r.err)
	}
	if got := byNumber(liveRows(t, ls.URL))["1.2"]; got.Title != "Board minutes and resolutions" || !strings.HasSuffix(got.Body, "Since 2019.") {
		t.Errorf("answered y, and 1.2 is %q: %q", got.Title, got.Body)
	}
}

// TestImportStatesStatusesOfAFirstImport: a first import of a tracker
// with a Status column says, before writing, that its new rows are
// created open and how to take the sheet's statuses.
func TestImportStatesStatusesOfAFirstImport(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	sheet := writeSheet(t, "No.,Request,Status\n5,Commercial,\n5.1,Customer contracts,Complete\n5.2,Supplier contracts,Open\n")
	plan, r := planOf(t, ls.URL, sheet)
	want := "1 new row has a status in the sheet (5.1 complete): new rows are created open; --apply-status gives them the sheet's"
	if r.code != 0 || !strings.Contains(r.err, want) {
		t.Errorf("exit %d, want %q:\n%s", r.code, want, r.err)
	}
	if plan.Summary.StatusMoves != 0 || byNumber(liveRows(t, ls.URL))["5.1"].Status != api.StatusOpen {
		t.Errorf("a status was applied without --apply-status: %+v", plan.Summary)
	}
}

// TestImportSectionOverRequestHasAWayThrough: the sheet makes 2.1 a
// section over 2.1.1 and 2.1.2 where the deal's 2.1 is a request (the
// preview's loop: "make it a section", then refused). The refusal's ways
// through succeed: --renumber moves 2.1 with its rows to 2.2.
func TestImportSectionOverRequestHasAWayThrough(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	sheet := writeSheet(t, "Number,Kind,Title\n2,section,Finance\n2.1,section,Audited accounts\n2.1.1,request,FY2024 accounts\n2.1.2,request,FY2025 accounts\n")
	r := runLive(t, ls.URL, "import", sheet)
	if r.code != cmdutil.ExitValidation || !strings.Contains(r.err, `row 3, Kind: 2.1 is the request "Audited accounts" on the deal, and the sheet's "Audited accounts" is a section`) {
		t.Fatalf("exit %d:\n%s", r.code, r.err)
	}
	followEachWay(t, r.err, func(t *testing.T) string { return startLiveServer(t, 0).URL })
	mustLive(t, ls.URL, "import", sheet, "--renumber")
	rows := byNumber(liveRows(t, ls.URL))
	if rows["2.1"].Kind != api.KindRequest || rows["2.2"].Kind != api.KindSection || rows["2.2.2"].Title != "FY2025 accounts" {
		t.Errorf("2.1 %+v, 2.2 %+v, 2.2.2 %+v", rows["2.1"], rows["2.2"], rows["2.2.2"])
	}
}

// TestImportRenumberedExportAdviceWorks: an export whose 1.2 was
// renumbered 1.5 in the sheet is refused with a command that renumbers it
// on the deal; that command succeeds, and the sheet then imports.
func TestImportRenumberedExportAdviceWorks(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	file := filepath.Join(t.TempDir(), "falcon.csv")
	mustLive(t, ls.URL, "export", "-o", file)
	editCSV(t, file, "1.2", "Number", "1.5")
	r := runLive(t, ls.URL, "import", file)
	advice := "'dealctl requests edit 1.2 --number 1.5'"
	if r.code != cmdutil.ExitValidation || !strings.Contains(r.err, advice) {
		t.Fatalf("exit %d, want 6 with %s:\n%s", r.code, advice, r.err)
	}
	mustLive(t, ls.URL, shellWords(strings.Trim(advice, "'"))[1:]...)
	if plan, r := planOf(t, ls.URL, file); r.code != 0 || plan.Summary.Create+plan.Summary.Update != 0 {
		t.Errorf("after the advice: exit %d, summary %+v:\n%s", r.code, plan.Summary, r.err)
	}
}

// TestImportMatchTakesIDOrNumber: --match takes id or number; anything
// else (a guess by title included) is a usage error before the sheet is
// read.
func TestImportMatchTakesIDOrNumber(t *testing.T) {
	t.Parallel()
	r := runLive(t, "http://127.0.0.1:1", "import", "nowhere.csv", "--match", "title")
	if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, "--match title: use id (rows without the deal's IDs only create) or number") {
		t.Errorf("exit %d:\n%s", r.code, r.err)
	}
}
