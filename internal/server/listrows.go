package server

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"maps"
	"strconv"
	"sync"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

// A deal's list is kept per view class as a rowSet: every row encoded
// once, in list order. A write moves the deal's version on; the next read
// asks the store for the rows changed since the set's version
// (store.ListChanges, stamped by the triggers of migration 0009), encodes
// those alone and shares the rest with the set before, so a list read
// after a write costs what the write changed, not the deal
// (docs/decisions.md, "Lists that cost what changed"). The set also
// answers one request's read: its row is the list's.

// listRow is one request as one view class sees it, encoded.
type listRow struct {
	req  store.Request // as stored, less title and body, which json holds
	json []byte        // the row exactly as a list or a GET of it shows it
}

func (r *listRow) RowID() string     { return r.req.ID }
func (r *listRow) RowNumber() string { return r.req.Number }
func (r *listRow) RowParentID() string {
	if r.req.ParentID == nil {
		return ""
	}
	return *r.req.ParentID
}

// rowSet is a deal's list as one view class sees it at one version. It
// is never changed once built: a later version is a new set that shares
// the rows that did not change.
type rowSet struct {
	version int64  // listVersion of the deal it was built at
	context string // listContext it was built in
	rows    []*listRow
	byID    map[string]*listRow
	size    int // bytes the set holds, for the cache's budget

	fullOnce sync.Once
	full     []byte // the unfiltered list's body, joined on first use

	mu   sync.Mutex
	kept map[string][]int // by filter key: the indexes of rows it keeps
}

// rowOverhead is what a row costs beyond its encoding: its stored fields,
// its map entry and pointers (measured, rounded up).
const rowOverhead = 400

// listVersion is the version of the deal the caller's list follows: the
// counterparty's moves only with what it can see (versionFor).
func listVersion(dc *dealCall) int64 {
	if dc.caller.OwnerSide {
		return dc.deal.Version
	}
	return dc.deal.SharedVersion
}

// listContext is what every row depends on besides its own request: the
// deal's archived flag (the can flags) and the people (an answer's
// author). When it changes, the rows are all encoded again.
func listContext(dc *dealCall) string {
	h := fnv.New64a()
	h.Write([]byte(strconv.FormatBool(dc.deal.Archived)))
	for _, p := range dc.people {
		h.Write([]byte{0})
		h.Write([]byte(p.ID))
		h.Write([]byte{0})
		if p.Name != nil {
			h.Write([]byte(*p.Name))
		}
		h.Write([]byte{0})
		h.Write([]byte(p.Email))
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

// listRows is the caller's list at the deal's version: the cached set,
// the cached set brought up to date with the rows changed since, or a set
// built whole. Calls that want the same set at once share one build.
func (s *Server) listRows(ctx context.Context, dc *dealCall) (*rowSet, error) {
	slot := dc.deal.ID + "|" + viewClass(dc)
	version, context := listVersion(dc), listContext(dc)
	if set := s.lists.get(slot); set != nil && set.version == version && set.context == context {
		return set, nil
	}
	return s.listBuilds.do(slot+"|"+strconv.FormatInt(version, 10)+"|"+context, func() (*rowSet, error) {
		prev := s.lists.get(slot)
		if prev != nil && prev.version == version && prev.context == context {
			return prev, nil // built by a call that finished just before
		}
		if prev != nil && (prev.context != context || prev.version > version) {
			prev = nil
		}
		build, cancel := s.detached(ctx) // others may be waiting for it
		defer cancel()
		set, err := s.updateRows(build, dc, prev, version, context)
		if err == nil {
			s.lists.put(slot, set)
		}
		return set, err
	})
}

// updateRows reads what changed since prev (everything when prev is nil)
// and makes the set at version.
func (s *Server) updateRows(ctx context.Context, dc *dealCall, prev *rowSet, version int64, context string) (*rowSet, error) {
	var since int64
	if prev != nil {
		since = prev.version
	}
	changes, err := s.store.ListChanges(ctx, dc.deal.ID, since, !dc.caller.OwnerSide, dc.seat.PartyID, api.MaxPreviewLen)
	if err != nil {
		return nil, err
	}
	return applyChanges(prev, changes, newDealView(dc), version, context)
}

// applyChanges makes the set at version from prev (nil: none) and the
// changes read since it: changed rows are encoded again, removed ones
// dropped, and the order worked out again only when a row came, went,
// or changed its number or parent.
func applyChanges(prev *rowSet, ch store.ListChanges, view *dealView, version int64, context string) (*rowSet, error) {
	byID := map[string]*listRow{}
	if prev != nil {
		byID = maps.Clone(prev.byID)
	}
	reorder := prev == nil
	for _, id := range ch.Removed {
		if _, ok := byID[id]; ok {
			delete(byID, id)
			reorder = true
		}
	}
	latestBy := make(map[string]*store.Message, len(ch.Latest))
	for i := range ch.Latest {
		latestBy[ch.Latest[i].RequestID] = &ch.Latest[i]
	}
	filesBy := make(map[string][]store.File)
	for _, f := range ch.Files {
		filesBy[f.RequestID] = append(filesBy[f.RequestID], f)
	}
	for _, r := range ch.Requests {
		encoded, err := json.Marshal(view.request(r, latestBy[r.ID], filesBy[r.ID]))
		if err != nil {
			return nil, err
		}
		old, had := byID[r.ID]
		if !had || old.req.Number != r.Number || old.RowParentID() != (&listRow{req: r}).RowParentID() {
			reorder = true
		}
		r.Title, r.Body = "", ""
		byID[r.ID] = &listRow{req: r, json: encoded}
	}
	set := &rowSet{version: version, context: context, byID: byID, rows: make([]*listRow, 0, len(byID))}
	if reorder {
		all := make([]*listRow, 0, len(byID))
		for _, row := range byID {
			all = append(all, row)
		}
		for _, i := range domain.TreeOrder(all) {
			set.rows = append(set.rows, all[i])
		}
	} else {
		for _, row := range prev.rows {
			set.rows = append(set.rows, byID[row.req.ID])
		}
	}
	for _, row := range set.rows {
		// Twice the encoding: the rows, and the unfiltered body
		// joined from them.
		set.size += 2*len(row.json) + rowOverhead
	}
	return set, nil
}

// keep is the indexes of the rows filter keeps, worked out once per set
// and filter.
func (set *rowSet) keep(filter listFilter) []int {
	set.mu.Lock()
	defer set.mu.Unlock()
	if kept, ok := set.kept[filter.key()]; ok {
		return kept
	}
	shown := make([]api.DealRequest, len(set.rows))
	for i, row := range set.rows {
		shown[i] = filterFields(row.req)
	}
	var kept []int
	for i, ok := range filter.keep(shown) {
		if ok {
			kept = append(kept, i)
		}
	}
	if set.kept == nil || len(set.kept) >= maxFiltersPerSet {
		set.kept = map[string][]int{}
	}
	set.kept[filter.key()] = kept
	return kept
}

// maxFiltersPerSet bounds the filters a set remembers.
const maxFiltersPerSet = 16

// filterFields is what of a row list filters read (domain.RequestFilter).
func filterFields(r store.Request) api.DealRequest {
	return api.DealRequest{ID: r.ID, ParentID: r.ParentID, Kind: r.Kind, Status: r.Status, Priority: r.Priority,
		Category: r.Category, AssigneeID: r.AssigneeID, DueDate: r.DueDate, UpdatedAt: r.UpdatedAt}
}

// listBody is the list filter keeps. The unfiltered body is joined once
// per set and kept; a filtered one is joined for each read.
func (set *rowSet) listBody(filter listFilter) []byte {
	if filter.key() == "" {
		set.fullOnce.Do(func() { set.full = set.body(nil, true) })
		return set.full
	}
	return set.body(set.keep(filter), false)
}

// body is the rows at indexes (all of them when all is set) as one JSON
// array: the rows' encodings joined, the very bytes json.Marshal writes
// for the list of them.
func (set *rowSet) body(indexes []int, all bool) []byte {
	n := len(indexes)
	if all {
		n = len(set.rows)
	}
	size := 2
	row := func(i int) []byte {
		if all {
			return set.rows[i].json
		}
		return set.rows[indexes[i]].json
	}
	for i := range n {
		size += len(row(i)) + 1
	}
	out := make([]byte, 0, size)
	out = append(out, '[')
	for i := range n {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, row(i)...)
	}
	return append(out, ']')
}
