package domain

import (
	"slices"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// TestListFilterKeep is the matching `requests ls`, `search` and dealctl
// mcp's list_requests share: one case per condition, over a list with a
// nested section.
func TestListFilterKeep(t *testing.T) {
	day := func(s string) *string { return &s }
	ann := "ann-id"
	rows := []api.DealRequest{
		{ID: "s1", Kind: api.KindSection, Number: "1", Title: "Finance"},
		{ID: "r1", Kind: api.KindRequest, Number: "1.1", ParentID: day("s1"), Title: "Audited accounts", Status: api.StatusOpen,
			Priority: api.PriorityHigh, Category: api.CategoryAccounting, AssigneeID: &ann, DueDate: day("2026-03-01")},
		{ID: "s2", Kind: api.KindSection, Number: "1.2", ParentID: day("s1"), Title: "Tax"},
		{ID: "r2", Kind: api.KindRequest, Number: "1.2.1", ParentID: day("s2"), Title: "VAT returns", Body: "Last three years",
			Status: api.StatusComplete, Priority: api.PriorityLow, Category: api.CategoryTax, DueDate: day("2026-02-01")},
		{ID: "r3", Kind: api.KindRequest, Number: "2", Title: "Leases", Status: api.StatusPartial, Priority: api.PriorityMedium,
			Category: api.CategoryLegal, Requester: day("Lucy at Acme"), DueDate: day("2026-04-01")},
		{ID: "r4", Kind: api.KindRequest, Number: "3", Title: "Insurance", Status: api.StatusOpen, Priority: api.PriorityMedium,
			Category: api.CategoryLegal},
	}
	for _, c := range []struct {
		name string
		f    ListFilter
		want []string
	}{
		{"none: every row, sections too", ListFilter{}, []string{"s1", "r1", "s2", "r2", "r3", "r4"}},
		{"status", ListFilter{RequestFilter: RequestFilter{Statuses: []api.RequestStatus{api.StatusOpen}}}, []string{"r1", "r4"}},
		{"priority", ListFilter{RequestFilter: RequestFilter{Priorities: []api.Priority{api.PriorityLow, api.PriorityHigh}}}, []string{"r1", "r2"}},
		{"category", ListFilter{RequestFilter: RequestFilter{Categories: []api.RequestCategory{api.CategoryLegal}}}, []string{"r3", "r4"}},
		{"assignee", ListFilter{RequestFilter: RequestFilter{Assignees: []string{ann}}}, []string{"r1"}},
		{"unassigned", ListFilter{RequestFilter: RequestFilter{Assignees: []string{string(api.AssigneeNone)}}}, []string{"r2", "r3", "r4"}},
		{"overdue: not complete, due before the day", ListFilter{RequestFilter: RequestFilter{OverdueOn: "2026-03-15"}}, []string{"r1"}},
		{"due before: complete too, no due date not", ListFilter{DueBefore: "2026-03-01"}, []string{"r2"}},
		{"section: nested sections included", ListFilter{SectionID: "s1"}, []string{"r1", "r2"}},
		{"inner section", ListFilter{SectionID: "s2"}, []string{"r2"}},
		{"search: title, either case, spaces around", ListFilter{Search: "  ACCOUNTS "}, []string{"r1"}},
		{"search: body", ListFilter{Search: "three years"}, []string{"r2"}},
		{"search: requester", ListFilter{Search: "acme"}, []string{"r3"}},
		{"search: number", ListFilter{Search: "1.2.1"}, []string{"r2"}},
		{"search: a section's title is not a request", ListFilter{Search: "finance"}, []string{}},
		{"found by the server's search, not the text", ListFilter{Search: "leases", Found: map[string]bool{"r4": true}}, []string{"r4"}},
		{"every condition holds", ListFilter{RequestFilter: RequestFilter{Categories: []api.RequestCategory{api.CategoryLegal}},
			Search: "insurance"}, []string{"r4"}},
		{"none passes", ListFilter{RequestFilter: RequestFilter{Statuses: []api.RequestStatus{api.StatusComplete}}, SectionID: "s2",
			DueBefore: "2026-01-01"}, []string{}},
	} {
		got := []string{}
		kept := c.f.Keep(rows)
		if kept == nil {
			t.Errorf("%s: Keep returned nil, want a list (JSON [])", c.name)
		}
		for _, r := range kept {
			got = append(got, r.ID)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: kept %v, want %v", c.name, got, c.want)
		}
		if active := len(got) != len(rows); c.f.Active() != active {
			t.Errorf("%s: Active = %v, want %v", c.name, c.f.Active(), active)
		}
	}
}
