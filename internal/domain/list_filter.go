package domain

import "github.com/dealctl/dealctl/internal/api"

// ListFilter is a filtered list as the clients apply it to the rows
// they read — `dealctl requests ls` and `dealctl search`, and dealctl
// mcp's list_requests — so that both keep the same rows for the same
// filters: RequestFilter's conditions (those the server's list-filters
// extension has too) and the ones only a client applies. Each side reads
// its own flags or arguments into it; the matching is here alone.
type ListFilter struct {
	RequestFilter
	// DueBefore, a calendar day (2006-01-02), keeps requests due before
	// it; one with no due date does not pass.
	DueBefore string
	// SectionID keeps the requests anywhere under this section (Under).
	SectionID string
	// Search keeps the requests whose SearchText contains it (compared
	// as SearchQuery gives it), unless Found is set.
	Search string
	// Found, when not nil, is the ids of the requests a server's search
	// found for Search: they pass, and the rows' text is not read.
	Found map[string]bool
}

// Active reports whether any condition is set.
func (f *ListFilter) Active() bool {
	return len(f.Statuses) > 0 || len(f.Priorities) > 0 || len(f.Categories) > 0 || len(f.Assignees) > 0 ||
		f.UpdatedSince != nil || f.OverdueOn != "" || f.DueBefore != "" || f.SectionID != "" || f.Search != ""
}

// Keep returns the requests of rows that pass every condition, in their
// order, and never nil (a JSON list of none is []). With no condition it
// returns rows whole, sections too, so that the list reads as the deal's
// outline; with one, sections are left out, as a filtered list shows
// requests alone.
func (f *ListFilter) Keep(rows []api.DealRequest) []api.DealRequest {
	if !f.Active() {
		return rows
	}
	parent := ParentIDs(rows)
	query := SearchQuery(f.Search)
	out := []api.DealRequest{}
	for i := range rows {
		if r := &rows[i]; r.Kind == api.KindRequest && f.matches(r, parent, query) {
			out = append(out, *r)
		}
	}
	return out
}

// matches: r passes every condition; parent is ParentIDs of its list and
// query is f.Search as SearchQuery gives it.
func (f *ListFilter) matches(r *api.DealRequest, parent map[string]string, query string) bool {
	switch {
	case !f.Matches(r),
		f.DueBefore != "" && (r.DueDate == nil || *r.DueDate >= f.DueBefore),
		f.SectionID != "" && !Under(r.ID, f.SectionID, parent),
		f.Search != "" && f.Found != nil && !f.Found[r.ID],
		f.Search != "" && f.Found == nil && !SearchMatches(SearchText(r), query):
		return false
	}
	return true
}
