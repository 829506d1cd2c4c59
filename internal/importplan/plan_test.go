package importplan

import (
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/sheets"
)

// sheetOf reads a csv given as text.
func sheetOf(t *testing.T, csv string) *sheets.Sheet {
	t.Helper()
	s, err := sheets.ReadCSV("list.csv", []byte(csv))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func dealRow(id, number string, kind api.RequestKind, title, parentID string) api.DealRequest {
	r := api.DealRequest{ID: id, Number: number, Kind: kind, Title: title, Status: api.StatusOpen,
		Priority: api.PriorityMedium, Category: api.CategoryLegal}
	r.Can.Edit, r.Can.Assign = true, true
	if parentID != "" {
		r.ParentID = &parentID
	}
	return r
}

// TestBuildPlansWithoutAServer shows the planner on its own: a sheet and
// a deal's list in, a plan out, nothing called. The sheet has no IDs, so
// its 1.1 updates the deal's only under --match number.
func TestBuildPlansWithoutAServer(t *testing.T) {
	current := []api.DealRequest{
		dealRow("s1", "1", api.KindSection, "Corporate", ""),
		dealRow("r1", "1.1", api.KindRequest, "Board minutes", "s1"),
	}
	sheet := sheetOf(t, "Number,Kind,Title\n1,section,Corporate\n1.1,request,Board minutes FY23\n1.2,request,Share register\n")
	plan, err := Build(sheet, current, nil, Options{MatchNumber: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Problems) != 0 {
		t.Fatalf("problems: %+v", plan.Problems)
	}
	if s := plan.Summary; s.Create != 1 || s.Update != 1 || s.Unchanged != 1 || s.ByNumber != 1 {
		t.Errorf("summary = %+v, want 1 create, 1 update, 1 unchanged", s)
	}
	byNumber := map[string]*Item{}
	for _, it := range plan.Items {
		byNumber[it.Number] = it
	}
	if it := byNumber["1.1"]; it == nil || it.ID != "r1" || it.Action != ActionUpdate || !it.Update.Title.Set ||
		len(it.Diffs) != 1 || it.Diffs[0] != (FieldChange{Field: "title", From: "Board minutes", To: "Board minutes FY23"}) {
		t.Errorf("1.1 = %+v, want an update of r1's title, old → new", it)
	}
	if it := byNumber["1.2"]; it == nil || it.Action != ActionCreate || it.Parent != "1" || it.Create.Number.Value != "1.2" {
		t.Errorf("1.2 = %+v, want a create under 1", it)
	}
}

func TestTitleKeyFindsNearDuplicates(t *testing.T) {
	if a, b := titleKey("Copies of all board minutes"), titleKey("Board minutes"); a != b {
		t.Errorf("titleKey: %q != %q", a, b)
	}
	if a, b := titleKey("Board minutes"), titleKey("Share register"); a == b {
		t.Errorf("titleKey: different titles share %q", a)
	}
}

// TestUnknownAssigneeIsOneProblemPerName: a tracker whose owners are
// initials gets a problem per name listing its rows, not one per row.
func TestUnknownAssigneeIsOneProblemPerName(t *testing.T) {
	current := []api.DealRequest{dealRow("s1", "1", api.KindSection, "Corporate", "")}
	sheet := sheetOf(t, "Number,Title,Owner\n1.1,Board minutes,JS\n1.2,Share register,JS\n1.3,Articles,KB\n1.4,Charter,JS\n")
	plan, err := Build(sheet, current, []api.Person{{ID: "p1", Email: "alice@target.example"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Problems) != 2 {
		t.Fatalf("problems = %+v, want one for JS and one for KB", plan.Problems)
	}
	js, kb := plan.Problems[0], plan.Problems[1]
	if js.Line != 2 || len(js.Rows) != 3 || js.Rows[2] != 5 || !strings.Contains(js.Message, `"JS"`) || !strings.Contains(js.Message, "rows 2, 3, 5") {
		t.Errorf("JS: %+v", js)
	}
	if kb.Line != 4 || kb.Rows != nil || !strings.Contains(kb.Message, "--map 'Owner:KB=EMAIL'") {
		t.Errorf("KB: %+v", kb)
	}
}

// TestBuildLeavesTheSheetAsRead: numbering and --under rewrite rows, on a
// copy, so that planning the same sheet twice plans the same.
func TestBuildLeavesTheSheetAsRead(t *testing.T) {
	current := []api.DealRequest{dealRow("s2", "2", api.KindSection, "Financial", "")}
	// The unnumbered row has a status: a request for import to number (a
	// title alone without a number is skipped as no request).
	sheet := sheetOf(t, "Number,Title,Status\n1,Audited accounts,\n,Management accounts,open\n")
	var numbers [2][]string
	for i := range numbers {
		plan, err := Build(sheet, current, nil, Options{Under: "2"})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range plan.Items {
			numbers[i] = append(numbers[i], it.Number)
		}
	}
	if strings.Join(numbers[0], ",") != "2.1,2.2" || strings.Join(numbers[1], ",") != "2.1,2.2" {
		t.Errorf("two plans of one sheet: %v then %v, want 2.1,2.2 both times", numbers[0], numbers[1])
	}
	if sheet.Rows[0].Number != "1" || sheet.Rows[1].Number != "" {
		t.Errorf("the sheet was changed: %+v", sheet.Rows)
	}
}

// TestMappedBlankKeepsTheDealsValue: --map due:TBD= reads TBD as "no
// date here", which keeps the deal's due date even with --clear-blanks.
func TestMappedBlankKeepsTheDealsValue(t *testing.T) {
	due := "2026-05-01"
	row := dealRow("r1", "1.1", api.KindRequest, "Board minutes", "s1")
	row.DueDate = &due
	current := []api.DealRequest{dealRow("s1", "1", api.KindSection, "Corporate", ""), row}
	m := sheets.ValueMap{}
	if err := m.Add("due_date:TBD="); err != nil {
		t.Fatal(err)
	}
	sheet, err := sheets.ReadCSVWith("list.csv", []byte("Number,Title,Due date\n1,Corporate,\n1.1,Board minutes,TBD\n"), sheets.ReadOptions{Map: m})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := Build(sheet, current, nil, Options{ClearBlanks: true})
	if err != nil || len(plan.Problems) != 0 {
		t.Fatalf("err %v, problems %+v", err, plan.Problems)
	}
	for _, it := range plan.Items {
		if it.Number == "1.1" && (it.Action != ActionUnchanged || it.Update.DueDate.Set) {
			t.Errorf("1.1 = %+v: the mapped blank cleared the due date", it)
		}
	}
}

// TestPlanWarnsOfRowsAskedBefore: a new row close to a request already
// on the deal (search.Similar, the rule requests create applies) is
// named in the plan's warnings with the deal's number and title, not
// only a row whose title has the very same words.
func TestPlanWarnsOfRowsAskedBefore(t *testing.T) {
	current := []api.DealRequest{
		dealRow("s1", "1", api.KindSection, "Corporate", ""),
		dealRow("r1", "1.1", api.KindRequest, "All material customer contracts", "s1"),
		dealRow("r2", "1.2", api.KindRequest, "Tax returns", "s1"),
	}
	sheet := sheetOf(t, "Number,Kind,Title\n1,section,Corporate\n1.3,request,Customer contracts\n1.4,request,VAT returns\n")
	plan, err := Build(sheet, current, nil, Options{MatchNumber: true})
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, w := range plan.Warnings {
		if strings.Contains(w, "already on the deal") {
			found = append(found, w)
		}
	}
	if len(found) != 1 || !strings.Contains(found[0], `"Customer contracts" looks like 1.1 "All material customer contracts"`) {
		t.Errorf("warnings %q", plan.Warnings)
	}
}
