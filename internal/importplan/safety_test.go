package importplan

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/sheets"
)

const (
	idCorp  = "0190a000-0000-7000-8000-000000000001"
	idBoard = "0190a000-0000-7000-8000-000000000002"
	idGone  = "0190a000-0000-7000-8000-0000000000ff"
)

var exportedAt = time.Date(2026, 11, 2, 9, 30, 15, 123456000, time.UTC)

// falcon is a deal of two sections and three requests, last changed at
// exportedAt.
func falcon() []api.DealRequest {
	rows := []api.DealRequest{
		dealRow(idCorp, "1", api.KindSection, "Corporate", ""),
		dealRow(idBoard, "1.1", api.KindRequest, "Board minutes", idCorp),
		dealRow("r12", "1.2", api.KindRequest, "Share register", idCorp),
		dealRow("s2", "2", api.KindSection, "Finance", ""),
		dealRow("r21", "2.1", api.KindRequest, "Audited accounts", "s2"),
	}
	for i := range rows {
		rows[i].UpdatedAt = exportedAt
		rows[i].AllowedStatuses = []api.RequestStatus{api.StatusPartial, api.StatusComplete}
	}
	bob := "p-bob"
	rows[1].AssigneeID = &bob
	return rows
}

func mustBuild(t *testing.T, csv string, current []api.DealRequest, o Options) *Plan {
	t.Helper()
	people := []api.Person{{ID: "p-bob", Email: "bob@acme.example"}}
	plan, err := Build(sheetOf(t, csv), current, people, o)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

func item(plan *Plan, number string) *Item {
	for _, it := range plan.Items {
		if it.Number == number {
			return it
		}
	}
	return nil
}

func problemsText(plan *Plan) string {
	var b strings.Builder
	for _, p := range plan.Problems {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

const exportHeader = "Number,Kind,Title,Status,Assignee,Updated,ID\n"

// An exported row matches by ID; one changed on the deal after its
// Updated is a conflict with both values; --overwrite takes the sheet's.
func TestExportedRowsMatchByIDAndConflictWhenStale(t *testing.T) {
	stamp := exportedAt.Format(sheets.UpdatedLayout)
	csv := exportHeader + "1,section,Corporate,,," + stamp + "," + idCorp + "\n" +
		"1.1,request,Board minutes 2024,complete,bob@acme.example," + stamp + "," + idBoard + "\n"

	fresh := mustBuild(t, csv, falcon(), Options{ApplyStatus: true})
	if it := item(fresh, "1.1"); it == nil || it.MatchedBy != MatchedByID || it.Action != ActionUpdate || it.StatusTo != api.StatusComplete {
		t.Fatalf("fresh row: %+v", it)
	}

	current := falcon()
	current[1].UpdatedAt = exportedAt.Add(2 * time.Millisecond) // a colleague, a moment later
	stale := mustBuild(t, csv, current, Options{ApplyStatus: true})
	it := item(stale, "1.1")
	if it == nil || it.Action != ActionConflict || it.HasWrite() || strings.Join(it.Conflicts, ",") != "title,status" {
		t.Fatalf("stale row: %+v", it)
	}
	if s := stale.Summary; s.Conflicts != 1 || s.Update != 0 || s.StatusMoves != 0 || s.Unchanged != 1 {
		t.Errorf("summary %+v", s)
	}
	if c := stale.Conflicts[0]; c.Field != "title" || c.Sheet != "Board minutes 2024" || c.Server != "Board minutes" || c.Row != 3 {
		t.Errorf("conflict %+v", c)
	}

	over := mustBuild(t, csv, current, Options{ApplyStatus: true, Overwrite: true})
	if it := item(over, "1.1"); it.Action != ActionUpdate || !it.Overwritten || it.StatusTo != api.StatusComplete {
		t.Errorf("--overwrite: %+v", it)
	}
}

// Updated kept to the second (a csv re-saved by a spreadsheet) still
// reads as fresh for the row it was exported from.
func TestUpdatedPrecisionDoesNotMakeFalseConflicts(t *testing.T) {
	csv := exportHeader + "1.1,request,Board minutes 2024,,bob@acme.example," + exportedAt.Format(time.RFC3339) + "," + idBoard + "\n"
	plan := mustBuild(t, csv, falcon(), Options{})
	if it := item(plan, "1.1"); it == nil || it.Action != ActionUpdate {
		t.Errorf("row exported at %s, Updated to the second: %+v", exportedAt, it)
	}
	current := falcon()
	current[1].UpdatedAt = exportedAt.Add(time.Second)
	if it := item(mustBuild(t, csv, current, Options{}), "1.1"); it == nil || it.Action != ActionConflict {
		t.Errorf("changed a second later: %+v", it)
	}
}

func TestIdentityProblems(t *testing.T) {
	stamp := exportedAt.Format(sheets.UpdatedLayout)
	cases := []struct{ name, csv, want string }{
		{"renumbered", exportHeader + "1.5,request,Board minutes,,," + stamp + "," + idBoard + "\n",
			"this row (by its ID) is 1.1 on the deal, and the sheet numbers it 1.5: import does not renumber"},
		{"renumbered onto a taken number", exportHeader + "1.2,request,Board minutes,,," + stamp + "," + idBoard + "\n",
			`this row (by its ID) is 1.1 on the deal, and the sheet numbers it 1.2, which is "Share register" on the deal: import does not renumber; put back 1.1 in the sheet`},
		{"id twice", exportHeader + "1.1,request,Board minutes,,," + stamp + "," + idBoard + "\n1.3,request,Other,,," + stamp + "," + idBoard + "\n",
			"this row's ID is also on row 2"},
		{"request over a section", "Number,Title,Due date\n2,Bank statements,2026-05-01\n",
			`2 is the section "Finance" on the deal, and the sheet's "Bank statements" is a request`},
	}
	for _, c := range cases {
		plan := mustBuild(t, c.csv, falcon(), Options{})
		if got := problemsText(plan); !strings.Contains(got, c.want) {
			t.Errorf("%s: problems\n%s\nwant %q", c.name, got, c.want)
		}
	}
	// A heading written as a plain row (no kind, nothing but the title) is
	// the deal's section of its number, and its capitals retitle nothing.
	plan := mustBuild(t, "Number,Title\n2,FINANCE\n", falcon(), Options{})
	if it := item(plan, "2"); len(plan.Problems) != 0 || it == nil || it.Kind != api.KindSection || it.Action != ActionUnchanged {
		t.Errorf("heading row: %s %+v", problemsText(plan), it)
	}
	// A foreign id on a free number creates the row; on a taken number it
	// is a row like any without this deal's ID: a conflict.
	plan = mustBuild(t, exportHeader+"1.7,request,Data room index,,,"+stamp+","+idGone+"\n", falcon(), Options{})
	if it := item(plan, "1.7"); len(plan.Problems) != 0 || it == nil || it.Action != ActionCreate {
		t.Errorf("foreign id, free number: %s %+v", problemsText(plan), it)
	}
	plan = mustBuild(t, exportHeader+"1.2,request,Data room index,,,"+stamp+","+idGone+"\n", falcon(), Options{})
	if it := item(plan, "1.2"); len(plan.Problems) != 0 || it == nil || it.Action != ActionConflict || it.ConflictReason != ConflictNumberTaken {
		t.Errorf("foreign id, taken number: %s %+v", problemsText(plan), it)
	}
}

func TestBlankCellsOfAForeignSheet(t *testing.T) {
	csv := "Number,Title,Assignee\n1.1,Board minutes,\n"
	keep := mustBuild(t, csv, falcon(), Options{})
	if it := item(keep, "1.1"); keep.BlankCells != "keep" || it.Action != ActionUnchanged || strings.Join(it.Kept, ",") != "assignee" {
		t.Errorf("keep: %q %+v", keep.BlankCells, it)
	}
	clear := mustBuild(t, csv, falcon(), Options{ClearBlanks: true, MatchNumber: true})
	if it := item(clear, "1.1"); clear.BlankCells != "clear" || it.Action != ActionUpdate || !it.Update.AssigneeID.Null {
		t.Errorf("clear: %q %+v", clear.BlankCells, it)
	}
}

func TestUnder(t *testing.T) {
	plan := mustBuild(t, "No.,Request\n1,Audited accounts FY2025\n2,Debt schedule\n2.1,Facility letters\n,Covenant certificates\n3,Capex plan\n", falcon(), Options{Under: "2"})
	if len(plan.Problems) != 0 {
		t.Fatal(problemsText(plan))
	}
	want := map[string]string{"Audited accounts FY2025": "2.1", "Debt schedule": "2.2", "Facility letters": "2.2.1",
		"Covenant certificates": "2.4", "Capex plan": "2.3"}
	for _, it := range plan.Items {
		if want[it.Title] != it.Number {
			t.Errorf("%q is %s, want %s", it.Title, it.Number, want[it.Title])
		}
	}
	if it := item(plan, "2.1"); it.Action != ActionConflict || it.MatchedBy != MatchedByNumber || it.ConflictReason != ConflictNumberTaken {
		t.Errorf("2.1 = %+v, want Falcon's 2.1 left alone", it)
	}
	if it := item(plan, "2.2"); it.Kind != api.KindSection || it.SheetNumber != "2" || it.Parent != "2" || it.Action != ActionCreate {
		t.Errorf("2.2 = %+v", it)
	}
	if it := item(plan, "2.3"); it.Parent != "2" || it.Kind != api.KindRequest {
		t.Errorf("2.3 = %+v", it)
	}
	if len(plan.Absent) != 1 || plan.Absent[0].Number != "2" {
		t.Errorf("absent under 2: %+v, want only the section itself", plan.Absent)
	}

	// Under 2 the tab's 1 is Falcon's 2.1; with --renumber it takes 2.3,
	// the next number free of the deal's 2.1 and the tab's own 2.2.
	plan = mustBuild(t, "No.,Request\n1,Bank statements\n2,Debt schedule\n", falcon(), Options{Under: "2", Renumber: true})
	if it := item(plan, "2.3"); len(plan.Problems) != 0 || it == nil || it.Title != "Bank statements" || it.Action != ActionCreate || it.SheetNumber != "1" {
		t.Errorf("--under 2 --renumber: %s %+v", problemsText(plan), plan.Items)
	}

	// Already numbered under the section: kept.
	plan = mustBuild(t, "No.,Request\n2.2,Bank statements\n", falcon(), Options{Under: "2"})
	if it := item(plan, "2.2"); it == nil || it.Parent != "2" || it.SheetNumber != "" {
		t.Errorf("kept numbering: %+v %s", plan.Items, problemsText(plan))
	}

	for _, c := range []struct {
		under    string
		notFound bool
	}{{"7", true}, {"1.1", false}} {
		_, err := Build(sheetOf(t, "No.,Request\n1,X\n"), falcon(), nil, Options{Under: c.under})
		var ue *UnderError
		if !errors.As(err, &ue) || ue.NotFound != c.notFound {
			t.Errorf("--under %s: %v", c.under, err)
		}
	}
}

func TestWarningsAreCappedByKind(t *testing.T) {
	var b strings.Builder
	b.WriteString("Title,Priority\n")
	for i := 0; i < 30; i++ {
		b.WriteString("Customer contracts,high\n")
	}
	plan := mustBuild(t, b.String(), falcon(), Options{})
	if plan.Summary.Warnings != 30+29 {
		t.Errorf("warnings counted: %d, want 59", plan.Summary.Warnings)
	}
	if len(plan.Warnings) != 2*(warnCap+1) {
		t.Errorf("warnings listed: %d\n%s", len(plan.Warnings), strings.Join(plan.Warnings, "\n"))
	}
	if last := plan.Warnings[len(plan.Warnings)-1]; last != "…and 24 more near-duplicate titles (29 in all)" {
		t.Errorf("summary line %q", last)
	}
}

// Numbers import gives follow the domain's rule: 1.10 beside 1.9 makes
// the next 1.11, not 1.10 again.
func TestUnnumberedRowsTakeTheDomainsNextNumber(t *testing.T) {
	current := append(falcon(), dealRow("r19", "1.9", api.KindRequest, "Leases", idCorp), dealRow("r110", "1.10", api.KindRequest, "Loans", idCorp))
	plan := mustBuild(t, "Number,Kind,Title\n1,section,Corporate\n,request,Pensions\n", current, Options{})
	if it := item(plan, "1.11"); it == nil || it.Title != "Pensions" || !it.NumberAssigned {
		for _, it := range plan.Items {
			t.Logf("%+v", *it)
		}
		t.Error(problemsText(plan))
	}
}

func TestTextTheServerRefusesFailsPlanning(t *testing.T) {
	// The reader decodes a file that is not UTF-8 (as Windows-1252, or
	// refuses it), so invalid UTF-8 reaches the planner only in a sheet
	// built otherwise: the check stays as a last guard.
	sheet := sheetOf(t, "Number,Title,Details\n1.3,Share\x00register,\n1.4,Options,cafe\n")
	sheet.Rows[1].Body = "caf\xe9"
	plan, err := Build(sheet, falcon(), []api.Person{{ID: "p-bob", Email: "bob@acme.example"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := problemsText(plan)
	for _, want := range []string{"row 2, Title: the title holds a NUL character", "row 3, Details: the text is not valid UTF-8"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	if len(plan.Items) != 0 {
		t.Errorf("rows planned despite their text: %+v", plan.Items)
	}
}
