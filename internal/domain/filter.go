package domain

import (
	"slices"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// RequestFilter is the predicate of a filtered list of requests: the
// server's list-filters extension (docs/api.md, "Extensions:
// X-Dealctl-Extensions"), and the CLI
// and TUI filters that run on the client. Every condition set must hold;
// an empty one selects any value. Which rows a list keeps around the
// matching requests (their sections, or none) is the caller's to say.
type RequestFilter struct {
	Statuses   []api.RequestStatus
	Priorities []api.Priority
	Categories []api.RequestCategory
	// Assignees are person ids, or api.AssigneeNone for a request no
	// one is assigned.
	Assignees []string
	// UpdatedSince keeps requests updated at or after it.
	UpdatedSince *time.Time
	// OverdueOn, a calendar day (2006-01-02) in the deal's time zone,
	// keeps the requests Overdue on it.
	OverdueOn string
}

// Matches reports whether r passes every condition of f.
func (f *RequestFilter) Matches(r *api.DealRequest) bool {
	switch {
	case len(f.Statuses) > 0 && !slices.Contains(f.Statuses, r.Status),
		len(f.Priorities) > 0 && !slices.Contains(f.Priorities, r.Priority),
		len(f.Categories) > 0 && !slices.Contains(f.Categories, r.Category),
		len(f.Assignees) > 0 && !slices.Contains(f.Assignees, assigneeOf(r)),
		f.UpdatedSince != nil && r.UpdatedAt.Before(*f.UpdatedSince),
		f.OverdueOn != "" && !Overdue(r, f.OverdueOn):
		return false
	}
	return true
}

func assigneeOf(r *api.DealRequest) string {
	if r.AssigneeID == nil {
		return string(api.AssigneeNone)
	}
	return *r.AssigneeID
}

// Overdue reports a request due before today (a calendar day in the
// deal's time zone; ISO dates compare as strings) that is not complete.
// A section has no due date of its own, so it is never overdue.
func Overdue(r *api.DealRequest, today string) bool {
	return r.Kind == api.KindRequest && r.Status != api.StatusComplete && r.DueDate != nil && *r.DueDate < today
}

// WithSectionsAbove marks the rows a filtered list shows: every request
// match(i) keeps, and the sections above it, so that a match keeps its
// headings (the server's list-filters, the TUI's filters and search).
// parent(i) is the index of row i's section, -1 for none. In a list in
// tree order the kept rows, in order, read as an outline.
func WithSectionsAbove(rows []api.DealRequest, match func(i int) bool, parent func(i int) int) []bool {
	keep := make([]bool, len(rows))
	for i := range rows {
		if rows[i].Kind != api.KindRequest || !match(i) {
			continue
		}
		keep[i] = true
		for p := parent(i); p >= 0 && !keep[p]; p = parent(p) {
			keep[p] = true
		}
	}
	return keep
}

// ParentIDs maps each row's id to its section's id, for Under.
func ParentIDs(rows []api.DealRequest) map[string]string {
	parent := make(map[string]string, len(rows))
	for _, r := range rows {
		if r.ParentID != nil {
			parent[r.ID] = *r.ParentID
		}
	}
	return parent
}

// Under reports whether row id sits anywhere below section (nested
// sections included): the "within a section" filter. parent is
// ParentIDs of the list; a chain longer than 64 (a loop) is not under.
func Under(id, section string, parent map[string]string) bool {
	for range 64 {
		p, ok := parent[id]
		if !ok {
			return false
		}
		if p == section {
			return true
		}
		id = p
	}
	return false
}
