package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// Reading sheets as people write them, end to end: dealctl import against
// the real server in process, with the foreign sheets of
// testdata/spreadsheets.

func rowsByNumber(rows []api.DealRequest) map[string]api.DealRequest {
	m := map[string]api.DealRequest{}
	for _, r := range rows {
		m[r.Number] = r
	}
	return m
}

// TestImportWindows1252CSV: LibreOffice's default csv is Windows-1252;
// "–" and "£" reach the deal as themselves, with a note saying how the
// file was read; the same list as UTF-16 text then plans no change.
func TestImportWindows1252CSV(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	plan, r := planOf(t, ls.URL, filepath.Join(spreadsheets, "advisor-libreoffice-1252.csv"))
	if r.code != 0 || !plan.Applied || plan.Summary.Create != 7 {
		t.Fatalf("exit %d, summary %+v:\n%s", r.code, plan.Summary, r.err)
	}
	if !strings.Contains(r.err, "note: advisor-libreoffice-1252.csv is not UTF-8: read it as Windows-1252") {
		t.Errorf("no note about the encoding:\n%s", r.err)
	}
	rows := liveRows(t, ls.URL)
	by := rowsByNumber(rows)
	if got := by["3.1"]; got.Title != "Revenue bridge FY24–FY25" || got.Body != "Monthly, in £000, with the budget – actual variance." ||
		got.DueDate == nil || *got.DueDate != "2026-04-15" {
		t.Errorf("3.1 = %q / %q / %v", got.Title, got.Body, got.DueDate)
	}
	if got := by["3.3"].Title; got != "Café leases – rent reviews" {
		t.Errorf("3.3 = %q", got)
	}
	for _, row := range rows {
		if strings.ContainsRune(row.Title+row.Body, '\uFFFD') {
			t.Errorf("%s lost characters: %q %q", row.Number, row.Title, row.Body)
		}
	}

	plan, r = planOf(t, ls.URL, filepath.Join(spreadsheets, "advisor-unicode-text.txt"), "--dry-run")
	if s := plan.Summary; r.code != 0 || s.Create != 0 || s.Update != 0 || s.Unchanged != 7 {
		t.Errorf("the UTF-16 copy: exit %d, summary %+v\n%s", r.code, s, r.err)
	}
}

// TestImportRefusesTextItCannotRead: told the Windows-1252 file is UTF-8,
// import names the line, writes nothing and exits 6.
func TestImportRefusesTextItCannotRead(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	r := runLive(t, ls.URL, "import", filepath.Join(spreadsheets, "advisor-libreoffice-1252.csv"), "--encoding", "utf-8")
	if r.code != cmdutil.ExitValidation || !strings.Contains(r.err, "advisor-libreoffice-1252.csv: line 1: this line is not UTF-8") ||
		!strings.Contains(r.err, "nothing was written") {
		t.Fatalf("exit %d:\n%s", r.code, r.err)
	}
	if rows := liveRows(t, ls.URL); len(rows) != 5 {
		t.Errorf("the deal has %d rows, want the 5 it had", len(rows))
	}
}

// TestImportUSTracker: 600 rows of US dates; the column's 7/17/2026 makes
// every date month/day, priorities 1/2/3 read as high/medium/low.
func TestImportUSTracker(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	file := filepath.Join(spreadsheets, "us-vdr-tracker.csv")
	plan, r := planOf(t, ls.URL, file, "--dry-run")
	if r.code != 0 || plan.Summary.Create != 600 || len(plan.Problems) != 0 {
		t.Fatalf("dry run: exit %d, summary %+v, problems %v\n%s", r.code, plan.Summary, plan.Problems, r.err)
	}
	if !strings.Contains(r.err, `note: Due Date: dates read as month/day, as row 256 ("7/17/2026")`) {
		t.Errorf("no note about the date order:\n%s", r.err)
	}
	if rows := liveRows(t, ls.URL); len(rows) != 5 {
		t.Fatalf("the dry run wrote: %d rows", len(rows))
	}

	plan, r = planOf(t, ls.URL, file)
	if r.code != 0 || !plan.Applied {
		t.Fatalf("import: exit %d\n%s", r.code, r.err)
	}
	rows := liveRows(t, ls.URL)
	assertNoDuplicates(t, rows)
	by := rowsByNumber(rows)
	if len(rows) != 605 {
		t.Errorf("the deal has %d rows, want 605", len(rows))
	}
	for n, want := range map[string]string{"3.1": "2026-01-01 high legal", "3.2": "2026-01-02 medium legal", "16.7": "2026-07-02 medium accounting"} {
		got := by[n]
		if got.DueDate == nil || *got.DueDate+" "+string(got.Priority)+" "+string(got.Category) != want {
			t.Errorf("%s = %v %s %s, want %s", n, got.DueDate, got.Priority, got.Category, want)
		}
	}
	plan, r = planOf(t, ls.URL, file, "--dry-run")
	if s := plan.Summary; r.code != 0 || s.Create != 0 || s.Update != 0 {
		t.Errorf("re-plan: exit %d, summary %+v", r.code, s)
	}
}

// TestImportUnknownValuesThenMap: one problem per column lists each
// unknown value once; the --map flags it suggests then import the sheet.
func TestImportUnknownValuesThenMap(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	file := filepath.Join(spreadsheets, "unknown-values.csv")
	r := runLive(t, ls.URL, "import", file)
	if r.code != cmdutil.ExitValidation {
		t.Fatalf("exit %d, want 6:\n%s", r.code, r.err)
	}
	if n := strings.Count(r.err, `"Regulatory" (`); n != 1 {
		t.Errorf("Regulatory is named %d times, want once:\n%s", n, r.err)
	}
	for _, want := range []string{`"Regulatory" (rows 3, 4, 5), "ESG" (row 6)`, "--map category:Regulatory=", `"N/A" (rows 4, 6)`,
		"5 rows of unknown-values.csv are invalid (3 problems)"} {
		if !strings.Contains(r.err, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.err)
		}
	}
	plan, r := planOf(t, ls.URL, file, "--map", "category:Regulatory=legal", "--map", "Workstream:ESG=business",
		"--map", "status:N/A=", "--map", "due:TBC=")
	if r.code != 0 || plan.Summary.Create != 6 {
		t.Fatalf("with --map: exit %d, summary %+v\n%s", r.code, plan.Summary, r.err)
	}
	by := rowsByNumber(liveRows(t, ls.URL))
	if got := by["10.2"]; got.Category != api.CategoryLegal || got.DueDate != nil || got.Priority != api.PriorityMedium {
		t.Errorf("10.2 = %+v", got)
	}
	if got := by["10.4"]; got.Category != api.CategoryBusiness {
		t.Errorf("10.4 = %+v", got)
	}
}

// TestImportReadFlagsAreChecked: a mistake in a read flag is a usage
// error (exit 2) that says what to write instead.
func TestImportReadFlagsAreChecked(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	file := filepath.Join(spreadsheets, "unknown-values.csv")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--encoding", "klingon"}, `--encoding: unknown encoding "klingon": use utf-8, windows-1252`},
		{[]string{"--date-order", "ydm"}, `--date-order: unknown date order "ydm": use dmy`},
		{[]string{"--map", "title:x=y"}, `"title" is not a column --map applies to`},
		{[]string{"--map", "category:Regulatory=legl"}, `unknown category "legl"`},
	} {
		r := runLive(t, ls.URL, append([]string{"import", file}, c.args...)...)
		if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, c.want) {
			t.Errorf("%v: exit %d, want 2 saying %q:\n%s", c.args, r.code, c.want, r.err)
		}
	}
	r := runLive(t, ls.URL, "import", filepath.Join(spreadsheets, "buyer-ddrl.xlsx"), "--encoding", "utf-8")
	if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, "--encoding applies to text files") {
		t.Errorf("--encoding with a workbook: exit %d\n%s", r.code, r.err)
	}
}

// TestImportSheetWithoutTitleColumn says so, not "no header row".
func TestImportSheetWithoutTitleColumn(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	path := filepath.Join(t.TempDir(), "owners.csv")
	if err := os.WriteFile(path, []byte("Tracker\nNo.,Status,Owner\n1.1,Open,bob@acme.example\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runLive(t, ls.URL, "import", path)
	if r.code != cmdutil.ExitValidation || !strings.Contains(r.err, "row 2 names columns (No., Status, Owner) but none of them holds the titles") {
		t.Fatalf("exit %d:\n%s", r.code, r.err)
	}
}

// TestImportSheetLayouts: the Description-only list, the sheet with a
// hidden column and a filtered-out row, and the counsel's merged headings
// import as they read, with their notes, and plan no change when run
// again.
func TestImportSheetLayouts(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	for _, c := range []struct {
		file, note string
		want       map[string]string // number -> title on the deal
		absent     string            // a number that must not reach the deal
	}{
		{"description-only.xlsx", `the "Description" column is read as the titles`,
			map[string]string{"5": "Contracts", "5.1": "Material customer contracts"}, ""},
		{"hidden-column-row.xlsx", `hidden columns B ("Request"), D ("Internal") not read`,
			map[string]string{"6": "People", "6.1": "Employment contracts of the top 20"}, "6.3"},
		{"merged-headings.xlsx", "",
			map[string]string{"7": "ENVIRONMENTAL", "8": "HEALTH AND SAFETY", "9": "INSURANCE", "9.1": "Insurance policies"}, ""},
	} {
		file := filepath.Join(spreadsheets, c.file)
		plan, r := planOf(t, ls.URL, file)
		if r.code != 0 || !plan.Applied {
			t.Fatalf("%s: exit %d\n%s", c.file, r.code, r.err)
		}
		if !strings.Contains(r.err, c.note) {
			t.Errorf("%s: stderr lacks the note %q:\n%s", c.file, c.note, r.err)
		}
		by := rowsByNumber(liveRows(t, ls.URL))
		for n, title := range c.want {
			if by[n].Title != title {
				t.Errorf("%s: %s is %q on the deal, want %q", c.file, n, by[n].Title, title)
			}
		}
		if _, ok := by[c.absent]; c.absent != "" && ok {
			t.Errorf("%s: the hidden row %s reached the deal", c.file, c.absent)
		}
		plan, r = planOf(t, ls.URL, file, "--dry-run")
		if s := plan.Summary; r.code != 0 || s.Create != 0 || s.Update != 0 {
			t.Errorf("%s again: exit %d, summary %+v", c.file, r.code, s)
		}
	}
	by := rowsByNumber(liveRows(t, ls.URL))
	if by["5"].Kind != api.KindSection || by["7.2"].Category != api.CategoryLegal {
		t.Errorf("5 is a %s, 7.2 is in %q", by["5"].Kind, by["7.2"].Category)
	}
	// The description too long for a title keeps its whole text as the body.
	if long := by["5.2"]; !strings.HasSuffix(long.Title, "since 2021.") || !strings.HasPrefix(long.Body, long.Title) ||
		!strings.HasSuffix(long.Body, "change of control clause.") {
		t.Errorf("5.2 = %q / %q", long.Title, long.Body)
	}
}
