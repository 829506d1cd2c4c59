package importplan

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/sheets"
)

// answered is a deal of three sections of three requests each, as a
// deal whose list came from its own counsel and is well under way.
func answered() []api.DealRequest {
	var rows []api.DealRequest
	titles := [][]string{
		{"Corporate", "Certificate of incorporation", "Board minutes", "Share register"},
		{"Finance", "Audited financial statements FY2023–FY2025", "Management accounts", "Debt schedule"},
		{"Tax", "Tax returns", "Tax clearance certificates", "Transfer pricing policy"},
	}
	for s, ts := range titles {
		sid := fmt.Sprintf("s%d", s+1)
		rows = append(rows, dealRow(sid, fmt.Sprint(s+1), api.KindSection, ts[0], ""))
		for i, title := range ts[1:] {
			r := dealRow(fmt.Sprintf("r%d%d", s+1, i+1), fmt.Sprintf("%d.%d", s+1, i+1), api.KindRequest, title, sid)
			r.Body, r.Status = "As listed.", api.StatusComplete
			rows = append(rows, r)
		}
	}
	for i := range rows {
		rows[i].UpdatedAt = exportedAt
	}
	return rows
}

// template is a counsel's standard template: the same numbers, other
// documents; headings in capitals, one of them another word.
const template = "No.,Request,Details\n1,CORPORATE,\n1.1,Group structure chart,\n1.2,Shareholders' agreements,\n1.3,Powers of attorney,\n" +
	"2,FINANCIAL,\n2.1,Financial statements of the pension scheme,\n2.2,Group accounts consolidation,\n2.3,Bank facility agreements,\n" +
	"3,TAX,\n3.1,Group tax returns,\n3.2,Tax disputes,\n3.3,Tax agreements and rulings,Copies of all rulings.\n"

// TestTemplateOverAnsweredDealWritesNothing: a foreign sheet whose
// numbers are the deal's, with other documents on them, plans no update:
// each such row is a conflict (the deal's text beside the sheet's), and
// headings that differ only in capitals are unchanged.
func TestTemplateOverAnsweredDealWritesNothing(t *testing.T) {
	plan := mustBuild(t, template, answered(), Options{ApplyStatus: true})
	if len(plan.Problems) != 0 {
		t.Fatal(problemsText(plan))
	}
	if s := plan.Summary; s.Create != 0 || s.Update != 0 || s.StatusMoves != 0 || s.Conflicts != 10 || s.NumberTaken != 10 || s.Unchanged != 2 {
		t.Errorf("summary %+v, want 10 conflicts (9 requests and FINANCIAL), 2 headings unchanged, nothing written", s)
	}
	for _, it := range plan.Items {
		if it.HasWrite() {
			t.Errorf("row %d writes: %+v", it.Row, it)
		}
	}
	for _, n := range []string{"1", "3"} {
		if it := item(plan, n); it.Action != ActionUnchanged {
			t.Errorf("heading %s: %+v, want unchanged", n, it)
		}
	}
	c := plan.Conflicts[slices.IndexFunc(plan.Conflicts, func(c Conflict) bool { return c.Number == "2.1" })]
	if c.Reason != ConflictNumberTaken || c.Field != "title" || c.Server != "Audited financial statements FY2023–FY2025" ||
		c.Sheet != "Financial statements of the pension scheme" || !c.SheetUpdated.IsZero() {
		t.Errorf("2.1's conflict: %+v", c)
	}
	if !slices.Equal(plan.Collisions, []int{3, 4, 5, 6, 7, 8, 9, 11, 12, 13}) {
		t.Errorf("collisions %v", plan.Collisions)
	}

	// --renumber: every colliding row takes a free number; FINANCIAL
	// becomes section 4 and takes its rows along; nothing is updated.
	plan = mustBuild(t, template, answered(), Options{Renumber: true})
	if len(plan.Problems) != 0 {
		t.Fatal(problemsText(plan))
	}
	if s := plan.Summary; s.Create != 10 || s.Update != 0 || s.Conflicts != 0 || s.Unchanged != 2 {
		t.Errorf("--renumber: summary %+v", s)
	}
	want := map[string]string{"1.4": "Group structure chart", "1.6": "Powers of attorney", "4": "FINANCIAL",
		"4.1": "Financial statements of the pension scheme", "4.3": "Bank facility agreements", "3.6": "Tax agreements and rulings"}
	for n, title := range want {
		if it := item(plan, n); it == nil || it.Title != title || it.Action != ActionCreate {
			t.Errorf("--renumber: %s = %+v, want %q created", n, it, title)
		}
	}
	if it := item(plan, "4.1"); it.SheetNumber != "2.1" || it.Parent != "4" || it.Depth != 1 {
		t.Errorf("4.1 = %+v", it)
	}
	if !plan.Renumbered || !strings.Contains(strings.Join(plan.Notes, "\n"), "1.1 → 1.4") {
		t.Errorf("notes %q", plan.Notes)
	}

	// --match number: the sheet's rows are the deal's; each change is
	// shown old → new; the headings' capitals still retitle nothing.
	plan = mustBuild(t, template, answered(), Options{MatchNumber: true})
	if s := plan.Summary; s.Update != 10 || s.ByNumber != 10 || s.Conflicts != 0 {
		t.Errorf("--match number: summary %+v", s)
	}
	if it := item(plan, "3.3"); !slices.Equal(it.Diffs, []FieldChange{{"title", "Transfer pricing policy", "Tax agreements and rulings"}, {"body", "As listed.", "Copies of all rulings."}}) {
		t.Errorf("3.3's diffs: %+v", it.Diffs)
	}
	if it := item(plan, "1"); it.Action != ActionUnchanged {
		t.Errorf("CORPORATE over Corporate under --match number: %+v", it)
	}
}

// TestRenumberWarnsOnce: --renumber plans twice; a warning of the
// first pass (a row numbered by import) is said once, not once a pass.
func TestRenumberWarnsOnce(t *testing.T) {
	plan := mustBuild(t, "No.,Request,Status\n1.1,Group structure chart,complete\n,Powers of attorney,open\n", answered(), Options{Renumber: true})
	got := strings.Join(plan.Warnings, "\n")
	if strings.Count(got, "has no number") != 1 || strings.Count(got, "new row has a status") != 1 || plan.Summary.Warnings != 2 {
		t.Errorf("warnings (%d):\n%s", plan.Summary.Warnings, got)
	}
	if it := item(plan, "1.4"); it == nil || it.Title != "Group structure chart" || it.SheetNumber != "1.1" {
		t.Errorf("1.4 = %+v", it)
	}

	// A row numbered by import under a section that moves is numbered
	// afresh there: 4.1, not 4.4 after the deal's 2.1–2.3.
	plan = mustBuild(t, "No.,Kind,Request\n2,section,FINANCIAL\n,request,Bank facility agreements\n", answered(), Options{Renumber: true})
	if it := item(plan, "4.1"); it == nil || it.Title != "Bank facility agreements" || it.Parent != "4" || len(plan.Problems) != 0 {
		t.Errorf("4.1 = %+v %s", it, problemsText(plan))
	}
}

// TestIdenticalForeignRowsAreUnchanged: a foreign sheet that repeats the
// deal's rows (capitals and spacing aside, blanks kept) changes nothing
// and is no conflict.
func TestIdenticalForeignRowsAreUnchanged(t *testing.T) {
	plan := mustBuild(t, "No.,Request,Details\n1,  corporate ,\n1.1,CERTIFICATE OF  INCORPORATION,\n1.2,Board minutes,As listed.\n", answered(), Options{})
	if s := plan.Summary; s.Unchanged != 3 || s.Conflicts != 0 || len(plan.Problems) != 0 {
		t.Errorf("summary %+v %s", plan.Summary, problemsText(plan))
	}
}

// TestStatusesOfNewRowsAreStated: a first import of a tracker with a
// Status column says, before writing, that new rows are created open.
func TestStatusesOfNewRowsAreStated(t *testing.T) {
	csv := "No.,Request,Status\n4,Commercial,\n4.1,Customer contracts,Complete\n4.2,Supplier contracts,Open\n4.3,Leases,Partial\n"
	plan := mustBuild(t, csv, answered(), Options{})
	want := "2 new rows have a status in the sheet (4.1 complete, 4.3 partial): new rows are created open; --apply-status gives them the sheet's"
	if !slices.Contains(plan.Warnings, want) {
		t.Errorf("warnings %q, want %q", plan.Warnings, want)
	}
	plan = mustBuild(t, csv, answered(), Options{ApplyStatus: true})
	if it := item(plan, "4.1"); it.StatusTo != api.StatusComplete || len(plan.Warnings) != 0 {
		t.Errorf("--apply-status: %+v, warnings %q", it, plan.Warnings)
	}
}

// TestDefaultImportWritesOnlyRowsOfItsIDs is the property: for random
// sheets made from a deal's export, with random edits, rows whose ID is
// cleared and random foreign rows, a default import writes no deal row
// whose ID is not in the sheet, and on a row whose ID is, only the
// fields the sheet edited.
func TestDefaultImportWritesOnlyRowsOfItsIDs(t *testing.T) {
	words := strings.Fields("board minutes tax returns group accounts agreements leases pension scheme share register financial statements customer contracts")
	title := func(rng *rand.Rand) string {
		n := 1 + rng.IntN(4)
		ws := make([]string, n)
		for i := range ws {
			ws[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(ws, " ")
	}
	stamp := exportedAt.Format(sheets.UpdatedLayout)
	for seed := uint64(1); seed <= 300; seed++ {
		rng := rand.New(rand.NewPCG(seed, 25))
		var current []api.DealRequest
		for s := 1; s <= 1+rng.IntN(4); s++ {
			sid := fmt.Sprintf("0190a000-0000-7000-8000-%012d", s*100)
			current = append(current, dealRow(sid, fmt.Sprint(s), api.KindSection, title(rng), ""))
			for i := 1; i <= rng.IntN(5); i++ {
				r := dealRow(fmt.Sprintf("0190a000-0000-7000-8000-%012d", s*100+i), fmt.Sprintf("%d.%d", s, i), api.KindRequest, title(rng), sid)
				r.Body = title(rng)
				current = append(current, r)
			}
		}
		for i := range current {
			current[i].UpdatedAt = exportedAt
		}
		var b strings.Builder
		b.WriteString("Number,Kind,Title,Body,Updated,ID\n")
		inSheet, edited, used := map[string]bool{}, map[string][]string{}, map[string]bool{}
		for _, d := range current {
			if rng.IntN(10) < 3 {
				continue // not in the sheet
			}
			used[d.Number] = true
			t, body := d.Title, d.Body
			var fields []string
			if rng.IntN(3) == 0 {
				t, fields = title(rng)+" (edited)", append(fields, "title")
			}
			if rng.IntN(3) == 0 {
				body, fields = title(rng)+" (edited)", append(fields, "body")
			}
			id, updated := d.ID, stamp
			if rng.IntN(3) == 0 {
				id, updated = "", "" // the ID cleared: a row like any foreign one
			} else {
				inSheet[d.ID], edited[d.ID] = true, fields
			}
			fmt.Fprintf(&b, "%s,%s,%s,%s,%s,%s\n", d.Number, d.Kind, t, body, updated, id)
		}
		for range rng.IntN(6) {
			d := current[rng.IntN(len(current))]
			number := d.Number
			if d.Kind == api.KindSection || rng.IntN(2) == 0 {
				number = fmt.Sprintf("%s.%d", strings.Split(d.Number, ".")[0], 10+rng.IntN(5))
			}
			if used[number] {
				continue
			}
			used[number] = true
			fmt.Fprintf(&b, "%s,request,%s,%s,,\n", number, title(rng), title(rng))
		}
		plan := mustBuild(t, b.String(), current, Options{ApplyStatus: rng.IntN(2) == 0, ClearBlanks: rng.IntN(2) == 0})
		onDeal := map[string]bool{}
		for _, d := range current {
			onDeal[d.Number] = true
		}
		for _, it := range plan.Items {
			switch {
			case !it.HasWrite():
			case it.Action == ActionCreate:
				if onDeal[it.Number] {
					t.Fatalf("seed %d: row %d creates %s, which is on the deal\n%s", seed, it.Row, it.Number, b.String())
				}
			case !inSheet[it.ID] || it.MatchedBy != MatchedByID:
				t.Fatalf("seed %d: row %d writes %s (%s), whose ID is not in the sheet: %+v\n%s", seed, it.Row, it.Number, it.MatchedBy, it, b.String())
			default:
				for _, f := range it.Changes {
					if !slices.Contains(edited[it.ID], f) {
						t.Fatalf("seed %d: row %d changes %s's %s, which the sheet did not edit\n%s", seed, it.Row, it.Number, f, b.String())
					}
				}
			}
		}
	}
}
