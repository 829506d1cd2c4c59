package server

import (
	"bytes"
	"context"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

// A deal's list is kept per party as a rowSet: every row encoded once, in
// list order. A write moves the deal's version on; the next read asks the
// store for the rows changed since the set's version (store.ListChanges,
// stamped by the triggers of migration 0009), encodes those alone and
// shares the rest with the set before, so a list read after a write costs
// what the write changed, not the deal (docs/decisions.md, "Lists that
// cost what changed"). What a row shows depends on the caller's party
// (internal answers and files) and, for two fields, on the caller's
// access (allowed_statuses, can): a set holds each row without those two
// values, which are spliced in for each caller (listRow.appendFor), so
// the callers of one party share one set. The set also answers one
// request's read: its row is the list's.

// rowSet is a deal's list as one party sees it at one version. It is
// never changed once built: a later version is a new set that shares the
// rows that did not change.
type rowSet struct {
	version int64  // listVersion of the deal it was built at
	context string // listContext it was built in
	rows    []*listRow
	byID    rowIndex
	size    int // bytes the set holds, for the cache's budget

	mu   sync.Mutex
	kept map[string][]int // by filter key: the indexes of rows it keeps
	// since holds, by the version a delta starts from, the ids changed
	// and deleted since it (ListChangedIDs): every poller of the deal
	// that held the version before asks for the same.
	since map[int64]changedIDs
}

// rowOverhead is what a row costs beyond its encoding: its kept fields,
// its strings, its map entry and pointers (measured on a deal shaped like
// the scale program's: TestRowSetSizeIsTheHeapItHolds).
const rowOverhead = 320

// listVersion is the version of the deal the caller's list follows: the
// counterparty's moves only with what it can see (versionFor).
func listVersion(dc *dealCall) int64 {
	if dc.caller.OwnerSide {
		return dc.deal.Version
	}
	return dc.deal.SharedVersion
}

// listContext is what every row depends on besides its own request: the
// deal's archived flag and the people (an answer's author), hashed once
// per read of them (peopleKey). When it changes, the rows are all
// encoded again.
func listContext(dc *dealCall) string {
	return strconv.FormatBool(dc.deal.Archived) + "." + dc.members.peopleKey
}

// peopleKey hashes what a list's rows show of a deal's people: their
// ids, names and addresses.
func peopleKey(people []store.Person) string {
	h := fnv.New64a()
	for _, p := range people {
		h.Write([]byte(p.ID))
		h.Write([]byte{0})
		if p.Name != nil {
			h.Write([]byte(*p.Name))
		}
		h.Write([]byte{0})
		h.Write([]byte(p.Email))
		h.Write([]byte{0})
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

// listRows is the caller's party's list at the deal's version: the cached
// set, the cached set brought up to date with the rows changed since, or
// a set built whole. Calls that want the same set at once share one
// build.
func (s *Server) listRows(ctx context.Context, dc *dealCall) (*rowSet, error) {
	slot := rowSlot(dc)
	return s.listRowsFrom(ctx, dc, slot, s.lists.get(slot))
}

// listRowsFrom is listRows for a caller that looked in the cache already,
// at slot (rowSlot), and found cached (nil: none).
func (s *Server) listRowsFrom(ctx context.Context, dc *dealCall, slot string, cached *rowSet) (*rowSet, error) {
	version, context := listVersion(dc), listContext(dc)
	if cached != nil && cached.version == version && cached.context == context {
		return cached, nil
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
			s.lists.put(slot, set, set.size)
		}
		return set, err
	})
}

// rowSlot names the caller's row set in the list cache: one a deal and
// party.
func rowSlot(dc *dealCall) string { return dc.deal.ID + "|" + dc.seat.PartyID }

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
	set, err := applyChanges(prev, changes, newDealView(dc), version, context)
	if err == nil {
		set.share(s.siblingRows(dc))
	}
	return set, err
}

// siblingRows is a set of another party of dc's deal, nil when none is
// cached: a row without internal answers or files reads the same for
// every party, so their sets share it (rowSet.share).
func (s *Server) siblingRows(dc *dealCall) *rowSet {
	for _, p := range dc.members.parties {
		if p.ID != dc.seat.PartyID {
			if set := s.lists.get(dc.deal.ID + "|" + p.ID); set != nil {
				return set
			}
		}
	}
	return nil
}

// applyChanges makes the set at version from prev (nil: none) and the
// changes read since it: changed rows are encoded again, removed ones
// dropped, and the order worked out again only when a row came, went,
// or changed its number or parent.
func applyChanges(prev *rowSet, ch store.ListChanges, view *dealView, version int64, context string) (*rowSet, error) {
	var byID rowIndex
	if prev != nil {
		byID = slices.Clone(prev.byID)
	}
	reorder := prev == nil
	latestBy := make(map[string]*store.Message, len(ch.Latest))
	for i := range ch.Latest {
		latestBy[ch.Latest[i].RequestID] = &ch.Latest[i]
	}
	filesBy := make(map[string][]store.File)
	for _, f := range ch.Files {
		filesBy[f.RequestID] = append(filesBy[f.RequestID], f)
	}
	in := rowInterner{}
	replaced := map[*listRow]*listRow{} // a row of prev, by the row now in its place
	var added []*listRow
	for _, r := range ch.Requests {
		row, err := encodeRow(view, r, latestBy[r.ID], filesBy[r.ID], in)
		if err != nil {
			return nil, err
		}
		i, had := byID.find(r.ID)
		if !had {
			added = append(added, row)
			reorder = true
			continue
		}
		old := byID[i]
		if old.RowNumber() != row.RowNumber() || old.RowParentID() != row.RowParentID() {
			reorder = true
		}
		byID[i], replaced[old] = row, row
	}
	removed := map[string]bool{}
	for _, id := range ch.Removed {
		if _, ok := byID.find(id); ok {
			removed[id] = true
			reorder = true
		}
	}
	if len(added) > 0 || len(removed) > 0 {
		byID = slices.DeleteFunc(byID, func(row *listRow) bool { return removed[row.req.ID] })
		byID = append(byID, added...)
		slices.SortFunc(byID, func(a, b *listRow) int { return strings.Compare(a.req.ID, b.req.ID) })
	}
	set := &rowSet{version: version, context: context, byID: byID, rows: make([]*listRow, 0, len(byID))}
	if reorder {
		for _, i := range domain.TreeOrder(byID) {
			set.rows = append(set.rows, byID[i])
		}
	} else {
		for _, row := range prev.rows {
			if now, ok := replaced[row]; ok {
				row = now
			}
			set.rows = append(set.rows, row)
		}
	}
	set.count(nil)
	return set, nil
}

// rowIndex is a set's rows sorted by id, to find one by its id. A map
// took several times the memory, in each of the 128 sets of a 64-deal
// world, and was copied whole for every version.
type rowIndex []*listRow

// find is where the row of id is, or would go.
func (ix rowIndex) find(id string) (int, bool) {
	return slices.BinarySearchFunc(ix, id, func(row *listRow, id string) int { return strings.Compare(row.req.ID, id) })
}

// get is the row of id.
func (ix rowIndex) get(id string) (*listRow, bool) {
	if i, ok := ix.find(id); ok {
		return ix[i], true
	}
	return nil, false
}

// share puts, in place of each of set's rows that reads byte for byte as
// sibling's row of the same id (and has the same internal_updated_at,
// the one field of a row its encoding does not show: the owning side's
// request ETag is built on it), sibling's row, so the two sets hold it
// once; the shared rows count half in each set's size. The caller's
// fields are spliced in per caller, so a row reads the same for two
// parties unless an internal answer or file shows on it.
func (set *rowSet) share(sibling *rowSet) {
	if sibling == nil || sibling.context != set.context {
		return
	}
	shared := make([]bool, len(set.rows))
	for i, row := range set.rows {
		if i < len(sibling.rows) && sibling.rows[i] == row {
			// Shared already, in the same place: a set brought up to
			// date keeps the rows it shared, and two parties' lists
			// mostly have the same order. No search needed.
			shared[i] = true
			continue
		}
		other, ok := sibling.byID.get(row.req.ID)
		switch {
		case !ok:
		case other == row:
			shared[i] = true
		case bytes.Equal(other.json, row.json) && other.req.InternalUpdatedAt == row.req.InternalUpdatedAt:
			j, _ := set.byID.find(row.req.ID)
			set.rows[i], set.byID[j] = other, other
			shared[i] = true
		}
	}
	set.count(shared)
}

// count works out set.size: each row's encoding and overhead, half of
// them for a row shared with another set (shared, by the row's place;
// nil for none).
func (set *rowSet) count(shared []bool) {
	set.size = 0
	for i, row := range set.rows {
		n := len(row.json) + rowOverhead
		if shared != nil && shared[i] {
			n /= 2
		}
		set.size += n
	}
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
		shown[i] = row.req.filterFields()
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

// listBody is the list filter keeps of set, as dc's caller sees it:
// written from the set's rows (writeRows), never kept joined.
func listBody(dc *dealCall, set *rowSet, filter listFilter) rowsBody {
	parts := newCallerParts(dc.caller)
	if filter.key() != "" {
		return listRowsBody(set, parts, set.keep(filter), false)
	}
	return listRowsBody(set, parts, nil, true)
}
