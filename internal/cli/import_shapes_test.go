package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

// TestImportSheetsReadAsMeant runs the sheets shaped as deal teams' own
// lists (testdata/spreadsheets, genshapes) through `import --dry-run` and
// the import itself on the real server: a sheet whose cells cannot be
// read as meant writes nothing (exit 6, with the cause and the fix); a
// tracker's totals, key and note are named and never written.
func TestImportSheetsReadAsMeant(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	for file, want := range map[string]string{
		"german-excel-dates.xlsx":      "row 3, Nr.: Excel turned 13.1 into a date",
		"unknown-number-header.csv":    `--map number=Pos.`,
		"formulas-without-values.xlsx": "are formulas (=ROW()-1) saved without their values",
		"vdr-qa-export.csv":            "is a count (days after signing), not a date",
	} {
		for _, args := range [][]string{{"--dry-run"}, {}} {
			r := runLive(t, ls.URL, append([]string{"import", filepath.Join(spreadsheets, file)}, args...)...)
			if r.code != cmdutil.ExitValidation || !strings.Contains(r.err, want) || !strings.Contains(r.err, "nothing was written") {
				t.Errorf("import %s %v: exit %d, want 6 saying %q:\n%s", file, args, r.code, want, r.err)
			}
		}
	}
	if rows := liveRows(t, ls.URL); len(rows) != 5 {
		t.Fatalf("the deal has %d rows after refused imports, want the 5 it had", len(rows))
	}

	// The tracker goes under a new section 7: its 1, 2 become 7.1, 7.2.
	if r := runLive(t, ls.URL, "requests", "create", "--title", "Bank", "--number", "7", "--kind", "section"); r.code != 0 {
		t.Fatalf("requests create: exit %d: %s", r.code, r.err)
	}
	file := filepath.Join(spreadsheets, "bank-tracker-totals.xlsx")
	plan, r := planOf(t, ls.URL, file, "--dry-run", "--under", "7")
	if r.code != 0 || plan.Summary.Create != 7 {
		t.Fatalf("dry run: exit %d, summary %+v:\n%s", r.code, plan.Summary, r.err)
	}
	for _, w := range []string{`note: rows 14–16 ("Total requests", "Outstanding", "Complete") are a totals block, not requests: not imported`,
		`note: rows 18–21 ("Priority key"`, `note: row 12 ("Note: documents`} {
		if !strings.Contains(r.err, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.err)
		}
	}
	if _, r = planOf(t, ls.URL, file, "--under", "7"); r.code != 0 {
		t.Fatalf("import: exit %d:\n%s", r.code, r.err)
	}
	rows := liveRows(t, ls.URL)
	if len(rows) != 13 {
		t.Errorf("the deal has %d rows, want 13: its 5, section 7 and the tracker's 7", len(rows))
	}
	for _, row := range rows {
		for _, stray := range []string{"Total", "Outstanding", "Complete", "key", "–", "Note"} {
			if strings.HasPrefix(row.Title, stray) || strings.Contains(row.Title, " "+stray+" ") {
				t.Errorf("%s %q was written", row.Number, row.Title)
			}
		}
	}

	// The advice leads somewhere: the --map each refusal names reads the
	// sheet (under new sections, clear of the deal's own numbers).
	for n, c := range map[string][]string{
		"8": {"unknown-number-header.csv", "--map", "number=Pos."},
		"9": {"vdr-qa-export.csv", "--map", "due:5=", "--map", "due:10=", "--map", "due:TBC=", "--map", "due:Signing="},
	} {
		if r := runLive(t, ls.URL, "requests", "create", "--title", "Section "+n, "--number", n, "--kind", "section"); r.code != 0 {
			t.Fatalf("requests create: exit %d: %s", r.code, r.err)
		}
		args := append([]string{filepath.Join(spreadsheets, c[0]), "--under", n}, c[1:]...)
		if plan, r := planOf(t, ls.URL, args...); r.code != 0 || plan.Summary.Create != 5 {
			t.Errorf("import %v: exit %d, summary %+v:\n%s", args, r.code, plan.Summary, r.err)
		}
	}
}
