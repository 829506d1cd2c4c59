package tui

import (
	"strings"

	"github.com/dealctl/dealctl/internal/api"
)

// rowList is the deal's list with what the screen needs precomputed once
// per load, so that a keystroke in a 2,200-row list costs one pass over
// strings already lowered, never an allocation per row.
type rowList struct {
	all     []api.DealRequest
	hay     []string       // lowered "number title body", for search
	parent  []int          // index of each row's parent section, or -1
	byID    map[string]int // row id → index in all
	visible []int          // indexes into all, in list order
	counts  map[api.RequestStatus]int
	numW    int // widest number, for the number column
	shown   int // requests (not headings) among visible

	filter api.RequestStatus // "" shows every status
	query  string            // lowered search text; "" matches all
}

func newRowList(rows []api.DealRequest) rowList {
	l := rowList{
		all:    rows,
		hay:    make([]string, len(rows)),
		parent: make([]int, len(rows)),
		byID:   make(map[string]int, len(rows)),
		counts: map[api.RequestStatus]int{},
	}
	for i, r := range rows {
		l.byID[r.ID] = i
		l.hay[i] = strings.ToLower(r.Number + " " + r.Title + " " + r.Body)
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

// withFilter returns the list shown with another status filter and query;
// the rows themselves are shared.
func (l rowList) withFilter(status api.RequestStatus, query string) rowList {
	l.filter, l.query = status, strings.ToLower(strings.TrimSpace(query))
	l.apply()
	return l
}

// apply recomputes the visible rows. Without a filter every row shows,
// empty sections too; with one, a section shows as the heading of the
// requests that match under it. List order is tree order, so emitting a
// match's unseen ancestors just before it keeps headings above their rows.
func (l *rowList) apply() {
	vis := make([]int, 0, len(l.all))
	if l.filter == "" && l.query == "" {
		for i := range l.all {
			vis = append(vis, i)
		}
		l.visible = vis
		l.shown = 0
		for _, n := range l.counts {
			l.shown += n
		}
		return
	}
	l.shown = 0
	shown := make([]bool, len(l.all))
	var chain []int
	for i, r := range l.all {
		if r.Kind == api.KindSection || !l.matches(i) {
			continue
		}
		chain = chain[:0]
		for p := l.parent[i]; p >= 0 && !shown[p]; p = l.parent[p] {
			chain = append(chain, p)
		}
		for j := len(chain) - 1; j >= 0; j-- {
			shown[chain[j]] = true
			vis = append(vis, chain[j])
		}
		shown[i] = true
		vis = append(vis, i)
		l.shown++
	}
	l.visible = vis
}

func (l *rowList) matches(i int) bool {
	if l.filter != "" && l.all[i].Status != l.filter {
		return false
	}
	return l.query == "" || strings.Contains(l.hay[i], l.query)
}

// indexOf is the position in visible of row id, or -1.
func (l *rowList) indexOf(id string) int {
	i, ok := l.byID[id]
	if !ok {
		return -1
	}
	for pos, v := range l.visible {
		if v == i {
			return pos
		}
	}
	return -1
}

// nextFilter is the status filter f moves to: all, then each status.
func nextFilter(cur api.RequestStatus) api.RequestStatus {
	order := append([]api.RequestStatus{""}, api.RequestStatuses...)
	for i, s := range order {
		if s == cur {
			return order[(i+1)%len(order)]
		}
	}
	return ""
}
