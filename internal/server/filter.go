package server

import (
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// listFilter is the *extension* of GET .../requests: status, assignee_id,
// category and priority (each any-of) and updated_since. Rows of kind
// request are filtered; a section stays when a row under it does, so the
// list still reads as a tree.
type listFilter struct {
	match domain.RequestFilter
	// canonical is the parsed filter written out again, and the only thing
	// that names it in an ETag and the list cache: two queries that mean
	// the same filter share it, two that do not never do.
	canonical string
}

func parseListFilter(q url.Values) (listFilter, error) {
	var f listFilter
	var errs fieldErrors
	split := func(name string, valid func(string) (string, bool), allowed []string) []string {
		var out []string
		for _, p := range filterValues(q, name) {
			canon, ok := valid(p)
			if !ok {
				params := map[string]any{"value": p}
				if allowed != nil {
					params["allowed"] = allowed
				} else {
					params["format"] = "uuid or none"
				}
				errs.add(name, api.FieldUnknownValue, params)
				continue
			}
			out = append(out, canon)
		}
		if out == nil {
			return nil
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	oneOf := func(allowed []string) func(string) (string, bool) {
		return func(p string) (string, bool) { return p, slices.Contains(allowed, p) }
	}
	statuses := split("status", oneOf(api.Names(api.RequestStatuses)), api.Names(api.RequestStatuses))
	categories := split("category", oneOf(api.Names(api.RequestCategories)), api.Names(api.RequestCategories))
	priorities := split("priority", oneOf(api.Names(api.Priorities)), api.Names(api.Priorities))
	assignees := split("assignee_id", assigneeFilterValue, nil)
	switch since := nonEmpty(sent(q, "updated_since")); {
	case len(since) > 1:
		// An instant is one value: two could only be read by picking one.
		errs.add("updated_since", api.FieldTooMany, map[string]any{"max": 1})
	case len(since) == 1:
		t, err := time.Parse(time.RFC3339Nano, since[0])
		if err != nil {
			errs.add("updated_since", api.FieldInvalid, map[string]any{"format": "date-time"})
		}
		t = t.UTC()
		f.match.UpdatedSince = &t
	}
	if err := errs.err(); err != nil {
		return f, err
	}
	f.match.Statuses = typed[api.RequestStatus](statuses)
	f.match.Categories = typed[api.RequestCategory](categories)
	f.match.Priorities = typed[api.Priority](priorities)
	f.match.Assignees = assignees
	canon := url.Values{}
	for name, vals := range map[string][]string{"status": statuses, "assignee_id": assignees, "category": categories, "priority": priorities} {
		if vals != nil {
			canon.Set(name, strings.Join(vals, ","))
		}
	}
	if f.match.UpdatedSince != nil {
		canon.Set("updated_since", f.match.UpdatedSince.Format(time.RFC3339Nano))
	}
	f.canonical = canon.Encode() // sorted by name, every value escaped
	return f, nil
}

// filterValues is every value a list filter was sent with, however the
// client spelt the list: comma-separated (`status=open,partial`, the
// document's style), repeated (`status=open&status=partial`, the OpenAPI
// default that openapi-fetch sends) or in brackets (`status[]=open&
// status[]=partial`, as axios and orval send it). Every occurrence counts,
// so none is silently dropped and each is checked. An empty occurrence
// (`status=`) filters nothing, as an absent one.
func filterValues(q url.Values, name string) []string {
	var out []string
	for _, v := range nonEmpty(sent(q, name)) {
		out = append(out, strings.Split(v, ",")...)
	}
	return out
}

// sent is every occurrence of a parameter, in its plain and its bracket
// form, in a slice of its own (q is the request's and stays as it was).
func sent(q url.Values, name string) []string {
	return slices.Concat(q[name], q[name+"[]"])
}

func nonEmpty(vals []string) []string {
	return slices.DeleteFunc(vals, func(v string) bool { return v == "" })
}

// assigneeFilterValue accepts a person id (a UUID, in either case) or
// "none", as the filter compares them: ids in lower case.
func assigneeFilterValue(p string) (string, bool) {
	if p == string(api.AssigneeNone) {
		return p, true
	}
	if !api.IsID(p) {
		return "", false
	}
	return canonicalID(p), true
}

// key identifies the filter in an ETag and the list cache.
func (f listFilter) key() string { return f.canonical }

// typed turns checked names into their enum type.
func typed[T ~string](names []string) []T {
	if names == nil {
		return nil
	}
	out := make([]T, len(names))
	for i, n := range names {
		out[i] = T(n)
	}
	return out
}

// keep says which of rows, in list order, the filter keeps: matching
// requests and the sections above them.
func (f listFilter) keep(rows []api.DealRequest) []bool {
	index := make(map[string]int, len(rows))
	for i, r := range rows {
		index[r.ID] = i
	}
	parent := func(i int) int {
		if p := rows[i].ParentID; p != nil {
			if j, ok := index[*p]; ok {
				return j
			}
		}
		return -1
	}
	return domain.WithSectionsAbove(rows, func(i int) bool { return f.match.Matches(&rows[i]) }, parent)
}
