package tui

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// rowList is the deal's list with what the screen needs precomputed once
// per load, so that a keystroke in a 3,000-row list costs one pass over
// strings already lowered, never an allocation per row.
type rowList struct {
	all     []api.DealRequest
	hay     []string       // domain.SearchText of each row, for search
	number  []string       // lowered number, for the exact-number jump
	parent  []int          // index of each row's parent section, or -1
	byID    map[string]int // row id → index in all
	visible []int          // indexes into all, in the order shown
	counts  map[api.RequestStatus]int
	numW    int // widest number, for the number column
	shown   int // requests (not headings) among visible

	filter filter
	rule   domain.RequestFilter // the filter as the list filter's rule
	query  string               // lowered search text; "" matches all
	// threadHit holds the requests whose conversations the server's
	// search found the query in: they match too (threadsearch.go).
	threadHit map[string]bool
}

// filter is what the list is narrowed to, as `dealctl requests ls`
// narrows it: every field set must match.
type filter struct {
	status   api.RequestStatus // "" any
	priority api.Priority      // "" any
	category api.RequestCategory
	mine     bool // assigned to the caller (me)
	overdue  bool // due before today in the deal's zone, not complete
	order    sortOrder

	me    string // the caller's person id, for mine
	today string // YYYY-MM-DD in the deal's zone, for overdue
}

// active reports a filter that hides rows (the order hides none).
func (f filter) active() bool {
	return f.status != "" || f.priority != "" || f.category != "" || f.mine || f.overdue
}

// rule is f as the list filter's rule, the one `dealctl requests ls`
// and the server apply too.
func (f filter) rule() domain.RequestFilter {
	var r domain.RequestFilter
	if f.status != "" {
		r.Statuses = []api.RequestStatus{f.status}
	}
	if f.priority != "" {
		r.Priorities = []api.Priority{f.priority}
	}
	if f.category != "" {
		r.Categories = []api.RequestCategory{f.category}
	}
	if f.mine {
		// Unknown (me ""), no row is the caller's: "" is no one's id.
		r.Assignees = []string{f.me}
	}
	if f.overdue {
		r.OverdueOn = f.today
	}
	return r
}

// describe is the filter in a few words for the status bar: "all", or
// what it keeps ("open, mine, overdue").
func (f filter) describe() string {
	var parts []string
	if f.status != "" {
		parts = append(parts, string(f.status))
	}
	if f.priority != "" {
		parts = append(parts, string(f.priority)+" priority")
	}
	if f.category != "" {
		parts = append(parts, string(f.category))
	}
	if f.mine {
		parts = append(parts, "mine")
	}
	if f.overdue {
		parts = append(parts, "overdue")
	}
	if len(parts) == 0 {
		return "all"
	}
	return strings.Join(parts, ", ")
}

// sortOrder is how the requests are ordered. List order keeps sections
// as headings; any other order is a flat list of requests, as a sorted
// table in jira-cli or k9s is.
type sortOrder int

const (
	orderList sortOrder = iota
	orderDue
	orderPriority
	orderUpdated
)

var orderNames = []string{"list", "due", "priority", "updated"}

func (o sortOrder) String() string { return orderNames[o] }

func (o sortOrder) next() sortOrder { return (o + 1) % sortOrder(len(orderNames)) }

func newRowList(rows []api.DealRequest) rowList {
	l := rowList{
		all:    rows,
		hay:    make([]string, len(rows)),
		number: make([]string, len(rows)),
		parent: make([]int, len(rows)),
		byID:   make(map[string]int, len(rows)),
		counts: map[api.RequestStatus]int{},
	}
	for i, r := range rows {
		l.byID[r.ID] = i
		l.hay[i] = domain.SearchText(&rows[i])
		l.number[i] = strings.ToLower(r.Number)
		l.numW = max(l.numW, len(r.Number))
		if r.Kind != api.KindSection {
			l.counts[r.Status]++
		}
	}
	for i, r := range rows {
		l.parent[i] = -1
		if r.ParentID != nil {
			if p, ok := l.byID[*r.ParentID]; ok {
				l.parent[i] = p
			}
		}
	}
	l.numW = min(l.numW, 10)
	l.apply()
	return l
}

// withFilter returns the list shown with another filter and query; the
// rows themselves are shared.
func (l rowList) withFilter(f filter, query string) rowList {
	l.filter, l.rule, l.query = f, f.rule(), domain.SearchQuery(query)
	l.apply()
	return l
}

// apply recomputes the visible rows. In list order without a filter every
// row shows, empty sections too; with one, a section shows as the heading
// of the requests that match under it (domain.WithSectionsAbove, the
// server's rule); list order is tree order, so headings stay above their
// rows. Any other order shows the matching requests alone, sorted.
func (l *rowList) apply() {
	vis := make([]int, 0, len(l.all))
	l.shown = 0
	if !l.filter.active() && l.query == "" && l.filter.order == orderList {
		for i := range l.all {
			vis = append(vis, i)
		}
		l.visible = vis
		for _, n := range l.counts {
			l.shown += n
		}
		return
	}
	if l.filter.order != orderList {
		for i, r := range l.all {
			if r.Kind != api.KindSection && l.matches(i) {
				vis = append(vis, i)
			}
		}
		l.sort(vis)
		l.visible, l.shown = vis, len(vis)
		return
	}
	keep := domain.WithSectionsAbove(l.all, l.matches, func(i int) int { return l.parent[i] })
	for i, kept := range keep {
		if kept {
			vis = append(vis, i)
			if l.all[i].Kind != api.KindSection {
				l.shown++
			}
		}
	}
	l.visible = vis
}

// sort orders vis by the list's order; ties keep list order (a stable
// sort over indexes that are in list order already).
func (l *rowList) sort(vis []int) {
	rank := map[api.Priority]int{api.PriorityHigh: 0, api.PriorityMedium: 1, api.PriorityLow: 2}
	slices.SortStableFunc(vis, func(a, b int) int {
		ra, rb := &l.all[a], &l.all[b]
		switch l.filter.order {
		case orderDue: // earliest first, no date last
			switch {
			case ra.DueDate == nil && rb.DueDate == nil:
				return 0
			case ra.DueDate == nil:
				return 1
			case rb.DueDate == nil:
				return -1
			}
			return cmp.Compare(*ra.DueDate, *rb.DueDate)
		case orderPriority: // high first
			return cmp.Compare(rank[ra.Priority], rank[rb.Priority])
		case orderUpdated: // most recent first
			return rb.UpdatedAt.Compare(ra.UpdatedAt)
		}
		return 0
	})
}

func (l *rowList) matches(i int) bool {
	return l.rule.Matches(&l.all[i]) && (domain.SearchMatches(l.hay[i], l.query) || l.threadHit[l.all[i].ID])
}

// indexOf is the position in visible of row id, or -1.
func (l *rowList) indexOf(id string) int {
	i, ok := l.byID[id]
	if !ok {
		return -1
	}
	return l.positionOf(i)
}

func (l *rowList) positionOf(i int) int {
	for pos, v := range l.visible {
		if v == i {
			return pos
		}
	}
	return -1
}

// exactNumber is the position in visible of the row whose number is the
// query exactly (case aside), or -1: "/1.1" means 1.1, not 1.11, even
// where both match as text.
func (l *rowList) exactNumber() int {
	if l.query == "" {
		return -1
	}
	for pos, v := range l.visible {
		if l.number[v] == l.query {
			return pos
		}
	}
	return -1
}

// cycle returns the value after cur in "" (any) followed by values.
func cycle[T comparable](cur T, values []T) T {
	var zero T
	order := append([]T{zero}, values...)
	for i, v := range order {
		if v == cur {
			return order[(i+1)%len(order)]
		}
	}
	return zero
}

// nextFilter is the status filter f moves to: all, then each status.
func nextFilter(cur api.RequestStatus) api.RequestStatus {
	return cycle(cur, api.RequestStatuses)
}
