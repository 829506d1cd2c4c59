package cli

import (
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
)

// requestFilter selects rows of a deal's list. The API shows no query
// filters (docs/decisions.md makes them an optional extension), so every filter
// is applied here; where the server advertises list-filters, serverQuery
// asks it to pre-filter by what it can, and apply still runs on its
// answer.
type requestFilter struct {
	statuses   []api.RequestStatus
	priorities []api.Priority
	categories []api.RequestCategory
	assigneeID *string // "" with assigneeSet: unassigned
	assignee   bool
	sectionID  string
	overdue    bool
	today      string // the deal's calendar day, for overdue
	dueBefore  string
	search     string
}

// active reports whether any filter is set; with none, sections are shown
// too, so the list reads as the deal's structure.
func (f *requestFilter) active() bool {
	return len(f.statuses) > 0 || len(f.priorities) > 0 || len(f.categories) > 0 || f.assignee ||
		f.sectionID != "" || f.overdue || f.dueBefore != "" || f.search != ""
}

// serverQuery is the part of f the list-filters extension can apply:
// status, priority, category and assignee. Section, due dates and text
// are only filtered here.
func (f *requestFilter) serverQuery() client.RequestsQuery {
	q := client.RequestsQuery{Statuses: f.statuses, Priorities: f.priorities, Categories: f.categories}
	if f.assignee {
		q.AssigneeID = "none"
		if f.assigneeID != nil {
			q.AssigneeID = *f.assigneeID
		}
	}
	return q
}

func (f *requestFilter) apply(rows []api.DealRequest) []api.DealRequest {
	if !f.active() {
		return rows
	}
	parent := make(map[string]string, len(rows))
	for _, r := range rows {
		if r.ParentID != nil {
			parent[r.ID] = *r.ParentID
		}
	}
	out := []api.DealRequest{}
	for _, r := range rows {
		if r.Kind == api.KindSection {
			continue
		}
		if f.match(r, parent) {
			out = append(out, r)
		}
	}
	return out
}

func (f *requestFilter) match(r api.DealRequest, parent map[string]string) bool {
	if len(f.statuses) > 0 && !api.OneOf(r.Status, f.statuses) {
		return false
	}
	if len(f.priorities) > 0 && !api.OneOf(r.Priority, f.priorities) {
		return false
	}
	if len(f.categories) > 0 && !api.OneOf(r.Category, f.categories) {
		return false
	}
	if f.assignee {
		if f.assigneeID == nil {
			if r.AssigneeID != nil {
				return false
			}
		} else if r.AssigneeID == nil || *r.AssigneeID != *f.assigneeID {
			return false
		}
	}
	if f.sectionID != "" && !under(r.ID, f.sectionID, parent) {
		return false
	}
	if f.overdue && !isOverdue(r, f.today) {
		return false
	}
	if f.dueBefore != "" && (r.DueDate == nil || *r.DueDate >= f.dueBefore) {
		return false
	}
	if f.search != "" && !matchesText(r, f.search) {
		return false
	}
	return true
}

// under reports whether row id sits anywhere below section (nested
// sections included).
func under(id, section string, parent map[string]string) bool {
	for seen := 0; seen < 64; seen++ {
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

// isOverdue: due before today (both calendar days in the deal's time zone;
// ISO dates compare as strings) and not complete.
func isOverdue(r api.DealRequest, today string) bool {
	return r.Kind == api.KindRequest && r.Status != api.StatusComplete && r.DueDate != nil && *r.DueDate < today
}

func matchesText(r api.DealRequest, q string) bool {
	q = strings.ToLower(q)
	for _, s := range []string{r.Number, r.Title, r.Body, deref(r.Requester)} {
		if strings.Contains(strings.ToLower(s), q) {
			return true
		}
	}
	return false
}

// parseEnumList splits "a,b" and checks each value against allowed.
func parseEnumList[T ~string](flag string, values []string, allowed []T) ([]T, error) {
	var out []T
	for _, v := range values {
		for _, p := range strings.Split(v, ",") {
			p = strings.TrimSpace(strings.ToLower(p))
			if p == "" {
				continue
			}
			if !api.OneOf(T(p), allowed) {
				return nil, usageErrorf("--%s %q: choose from %s", flag, p, joinEnum(allowed))
			}
			out = append(out, T(p))
		}
	}
	return out, nil
}

func joinEnum[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}

// parseEnum checks one value.
func parseEnum[T ~string](what, v string, allowed []T) (T, error) {
	t := T(strings.ToLower(strings.TrimSpace(v)))
	if !api.OneOf(t, allowed) {
		return "", usageErrorf("%s %q: choose from %s", what, v, joinEnum(allowed))
	}
	return t, nil
}
