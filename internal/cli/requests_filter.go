package cli

import (
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/domain"
)

// requestFilter selects rows of a deal's list. The API shows no query
// filters (docs/decisions.md makes them an optional extension), so every filter
// is applied here; where the server advertises list-filters, serverQuery
// asks it to pre-filter by what it can, and apply still runs on its
// answer.
type requestFilter struct {
	// The conditions the server's list filter has too, by the same rule:
	// status, priority, category, assignee and overdue (OverdueOn is
	// set to the deal's today once the deal is known).
	domain.RequestFilter
	overdue   bool
	sectionID string
	dueBefore string
	search    string
	// found, when not nil, is the requests the server's search found
	// for search (searchOnServer); nil, search is matched here.
	found map[string]bool
}

// active reports whether any filter is set; with none, sections are shown
// too, so the list reads as the deal's structure.
func (f *requestFilter) active() bool {
	return len(f.Statuses) > 0 || len(f.Priorities) > 0 || len(f.Categories) > 0 || len(f.Assignees) > 0 ||
		f.sectionID != "" || f.overdue || f.dueBefore != "" || f.search != ""
}

// serverQuery is the part of f the list-filters extension can apply:
// status, priority, category and assignee. Section, due dates and text
// are only filtered here.
func (f *requestFilter) serverQuery() client.RequestsQuery {
	q := client.RequestsQuery{Statuses: f.Statuses, Priorities: f.Priorities, Categories: f.Categories}
	if len(f.Assignees) > 0 {
		q.AssigneeID = f.Assignees[0]
	}
	return q
}

func (f *requestFilter) apply(rows []api.DealRequest) []api.DealRequest {
	if !f.active() {
		return rows
	}
	parent := domain.ParentIDs(rows)
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
	switch {
	case !f.Matches(&r),
		f.sectionID != "" && !domain.Under(r.ID, f.sectionID, parent),
		f.dueBefore != "" && (r.DueDate == nil || *r.DueDate >= f.dueBefore),
		f.search != "" && !f.matchesSearch(r):
		return false
	}
	return true
}

// matchesSearch: the server's search found r, or, where it was not
// asked, r's fields contain the text.
func (f *requestFilter) matchesSearch(r api.DealRequest) bool {
	if f.found != nil {
		return f.found[r.ID]
	}
	return matchesText(r, f.search)
}

// matchesText is the search the TUI's / makes too (domain.SearchText).
func matchesText(r api.DealRequest, q string) bool {
	return domain.SearchMatches(domain.SearchText(&r), domain.SearchQuery(q))
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
				return nil, cmdutil.UsageErrorf("--%s %q: choose from %s%s", flag, p, joinEnum(allowed), didYouMean(p, names(allowed)))
			}
			out = append(out, T(p))
		}
	}
	return out, nil
}

func joinEnum[T ~string](xs []T) string {
	return strings.Join(names(xs), ", ")
}

func names[T ~string](xs []T) []string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return s
}

// parseEnum checks one value.
func parseEnum[T ~string](what, v string, allowed []T) (T, error) {
	t := T(strings.ToLower(strings.TrimSpace(v)))
	if !api.OneOf(t, allowed) {
		return "", cmdutil.UsageErrorf("%s %q: choose from %s%s", what, v, joinEnum(allowed), didYouMean(v, names(allowed)))
	}
	return t, nil
}
