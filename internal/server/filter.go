package server

import (
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// listFilter is the *extension* of GET .../requests: status, assignee_id,
// category and priority (each comma-separated) and updated_since. Rows of
// kind request are filtered; a section stays when a row under it does, so
// the list still reads as a tree.
type listFilter struct {
	statuses   []string
	assignees  []string
	categories []string
	priorities []string
	since      *time.Time
	raw        string
}

func parseListFilter(q url.Values) (listFilter, error) {
	var f listFilter
	var errs fieldErrors
	split := func(name string, allowed []string) []string {
		v := q.Get(name)
		if v == "" {
			return nil
		}
		parts := strings.Split(v, ",")
		for _, p := range parts {
			if allowed != nil && !slices.Contains(allowed, p) {
				errs.add(name, api.FieldUnknownValue, map[string]any{"allowed": allowed, "value": p})
			}
		}
		return parts
	}
	f.statuses = split("status", api.Names(api.RequestStatuses))
	f.categories = split("category", api.Names(api.RequestCategories))
	f.priorities = split("priority", api.Names(api.Priorities))
	f.assignees = split("assignee_id", nil)
	if v := q.Get("updated_since"); v != "" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			errs.add("updated_since", api.FieldInvalid, map[string]any{"format": "date-time"})
		}
		f.since = &t
	}
	if err := errs.err(); err != nil {
		return f, err
	}
	for _, name := range []string{"status", "assignee_id", "category", "priority", "updated_since"} {
		if v := q.Get(name); v != "" {
			f.raw += name + "=" + v + "&"
		}
	}
	return f, nil
}

// key identifies the filter in an ETag.
func (f listFilter) key() string { return f.raw }

func (f listFilter) matches(r api.DealRequest) bool {
	if f.statuses != nil && !slices.Contains(f.statuses, string(r.Status)) {
		return false
	}
	if f.categories != nil && !slices.Contains(f.categories, string(r.Category)) {
		return false
	}
	if f.priorities != nil && !slices.Contains(f.priorities, string(r.Priority)) {
		return false
	}
	if f.assignees != nil {
		who := "none"
		if r.AssigneeID != nil {
			who = *r.AssigneeID
		}
		if !slices.Contains(f.assignees, who) {
			return false
		}
	}
	if f.since != nil && r.UpdatedAt.Before(*f.since) {
		return false
	}
	return true
}

// apply keeps matching requests and the sections above them.
func (f listFilter) apply(rows []api.DealRequest) []api.DealRequest {
	if f.raw == "" {
		return rows
	}
	parent := make(map[string]string, len(rows))
	for _, r := range rows {
		if r.ParentID != nil {
			parent[r.ID] = *r.ParentID
		}
	}
	keep := map[string]bool{}
	for _, r := range rows {
		if r.Kind == api.KindRequest && f.matches(r) {
			for id := r.ID; id != "" && !keep[id]; id = parent[id] {
				keep[id] = true
			}
		}
	}
	out := make([]api.DealRequest, 0, len(keep))
	for _, r := range rows {
		if keep[r.ID] {
			out = append(out, r)
		}
	}
	return out
}
