package domain

import (
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

func TestRequestFilterMatches(t *testing.T) {
	ann, due := "0b0f6a8e-6f55-4a41-9d43-0f1b2c3d4e5f", "2026-03-01"
	noon := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	r := api.DealRequest{Kind: api.KindRequest, Status: api.StatusPartial, Priority: api.PriorityHigh,
		Category: api.CategoryLegal, AssigneeID: &ann, DueDate: &due, UpdatedAt: noon}
	unassigned := r
	unassigned.AssigneeID = nil
	before, after := noon.Add(-time.Second), noon.Add(time.Second)
	for _, c := range []struct {
		name string
		r    api.DealRequest
		f    RequestFilter
		want bool
	}{
		{"no condition", r, RequestFilter{}, true},
		{"status any-of", r, RequestFilter{Statuses: []api.RequestStatus{api.StatusOpen, api.StatusPartial}}, true},
		{"status not among", r, RequestFilter{Statuses: []api.RequestStatus{api.StatusOpen}}, false},
		{"priority", r, RequestFilter{Priorities: []api.Priority{api.PriorityLow}}, false},
		{"category", r, RequestFilter{Categories: []api.RequestCategory{api.CategoryLegal}}, true},
		{"assignee", r, RequestFilter{Assignees: []string{ann}}, true},
		{"another assignee", r, RequestFilter{Assignees: []string{"someone"}}, false},
		{"none: assigned", r, RequestFilter{Assignees: []string{string(api.AssigneeNone)}}, false},
		{"none: unassigned", unassigned, RequestFilter{Assignees: []string{string(api.AssigneeNone)}}, true},
		{"an assignee: unassigned", unassigned, RequestFilter{Assignees: []string{ann}}, false},
		{"updated at the instant", r, RequestFilter{UpdatedSince: &noon}, true},
		{"updated after", r, RequestFilter{UpdatedSince: &before}, true},
		{"updated before", r, RequestFilter{UpdatedSince: &after}, false},
		{"overdue", r, RequestFilter{OverdueOn: "2026-03-02"}, true},
		{"due today is not overdue", r, RequestFilter{OverdueOn: due}, false},
		{"all hold", r, RequestFilter{Statuses: []api.RequestStatus{api.StatusPartial}, Assignees: []string{ann}, OverdueOn: "2026-04-01"}, true},
		{"one fails", r, RequestFilter{Statuses: []api.RequestStatus{api.StatusPartial}, Priorities: []api.Priority{api.PriorityLow}}, false},
	} {
		if got := c.f.Matches(&c.r); got != c.want {
			t.Errorf("%s: Matches = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestOverdue(t *testing.T) {
	day := func(s string) *string { return &s }
	const today = "2026-03-10"
	for _, c := range []struct {
		name string
		r    api.DealRequest
		want bool
	}{
		{"due yesterday", api.DealRequest{Kind: api.KindRequest, Status: api.StatusOpen, DueDate: day("2026-03-09")}, true},
		{"partial, due long ago", api.DealRequest{Kind: api.KindRequest, Status: api.StatusPartial, DueDate: day("2025-12-31")}, true},
		{"due today", api.DealRequest{Kind: api.KindRequest, Status: api.StatusOpen, DueDate: day(today)}, false},
		{"due tomorrow", api.DealRequest{Kind: api.KindRequest, Status: api.StatusOpen, DueDate: day("2026-03-11")}, false},
		{"complete", api.DealRequest{Kind: api.KindRequest, Status: api.StatusComplete, DueDate: day("2026-03-01")}, false},
		{"no due date", api.DealRequest{Kind: api.KindRequest, Status: api.StatusOpen}, false},
		{"a section", api.DealRequest{Kind: api.KindSection, Status: api.StatusOpen, DueDate: day("2026-03-01")}, false},
	} {
		if got := Overdue(&c.r, today); got != c.want {
			t.Errorf("%s: Overdue = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestUnder(t *testing.T) {
	sec, sub := "s", "t"
	rows := []api.DealRequest{{ID: "s"}, {ID: "t", ParentID: &sec}, {ID: "r", ParentID: &sub}, {ID: "x"}}
	parent := ParentIDs(rows)
	for _, c := range []struct {
		id, section string
		want        bool
	}{{"r", "s", true}, {"r", "t", true}, {"t", "s", true}, {"s", "s", false}, {"x", "s", false}, {"s", "t", false}} {
		if got := Under(c.id, c.section, parent); got != c.want {
			t.Errorf("Under(%s, %s) = %v", c.id, c.section, got)
		}
	}
	loop := map[string]string{"a": "b", "b": "a"}
	if Under("a", "c", loop) {
		t.Error("a loop is under c")
	}
}
