package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
)

// Delta sync (extension list-delta): a list's 200 names a cursor; a
// client that holds that list asks with ?since=CURSOR for what changed
// after it and gets the rows changed and removed (api.ListDelta), read
// from the list versions the writes stamped (store.ListChangedIDs). The
// counterparty's cursor follows its shared version and the rows' shared
// stamps, which an internal note never moves: it learns of one neither
// from a row's content nor from its id in a delta.

// listCursor names the version of the caller's list and what it was cut
// for: a cursor sent back by another view, for another filter, or from
// before the rows' context changed cannot be followed (its check part no
// longer matches), and is answered with the whole list.
type listCursor struct {
	check string // cursorCheck of the list
}

func cursorFor(dc *dealCall, filter listFilter, context string) listCursor {
	return listCursor{check: cursorCheck(dc, filter, context)}
}

// at is the cursor of the list at version.
func (c listCursor) at(version int64) string {
	return "c1." + strconv.FormatInt(version, 10) + "." + c.check
}

func cursorCheck(dc *dealCall, filter listFilter, context string) string {
	h := sha256.New()
	for _, part := range []string{representation, dc.deal.ID, viewClass(dc), filter.key(), context} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// follow reads the version a cursor sent back names, when it was cut for
// this list; ok is false otherwise.
func (c listCursor) follow(cursor string) (version int64, ok bool) {
	parts := strings.Split(cursor, ".")
	if len(parts) != 3 || parts[0] != "c1" || parts[2] != c.check {
		return 0, false
	}
	v, err := strconv.ParseInt(parts[1], 10, 64)
	return v, err == nil && v > 0
}

// sinceParam is the ?since= cursor, which a delta needs; sent twice it
// is 422, as updated_since is.
func sinceParam(q url.Values) (string, error) {
	vals := nonEmpty(sent(q, "since"))
	switch len(vals) {
	case 0:
		var errs fieldErrors
		errs.add("since", api.FieldRequired, nil)
		return "", errs.err()
	case 1:
		return vals[0], nil
	}
	var errs fieldErrors
	errs.add("since", api.FieldTooMany, map[string]any{"max": 1})
	return "", errs.err()
}

// writeListDelta answers ?since=cursor with the rows of set changed
// after the cursor's version, those gone from the caller's list, and the
// list's cursor now; the whole list when the cursor cannot be followed.
func (s *Server) writeListDelta(w http.ResponseWriter, r *http.Request, dc *dealCall, filter listFilter, set *rowSet, since string) error {
	cursor := cursorFor(dc, filter, set.context)
	now := cursor.at(set.version)
	w.Header().Set(api.ListCursorHeader, now)
	from, ok := cursor.follow(since)
	if !ok || from > set.version {
		writeRows(w, http.StatusOK, deltaBody(now, true, listBody(dc, set, filter), nil))
		return nil
	}
	var ids changedIDs
	if from < set.version {
		var err error
		ids, err = set.changedSince(from, func() ([]string, []string, error) {
			return s.store.ListChangedIDs(r.Context(), dc.deal.ID, from, !dc.caller.OwnerSide)
		})
		if err != nil {
			return err
		}
	}
	rows, gone := set.delta(newCallerParts(dc.caller), filter, ids.changed, ids.removed)
	writeRows(w, http.StatusOK, deltaBody(now, false, rows, gone))
	return nil
}

// delta is, for the list filter cuts from set, the rows to send as
// changed (as the caller of p sees them) (a JSON array, in list order) and the ids to send as removed,
// given the ids changed and deleted since the client's version. Ids not
// in set are of rows written after it was read: the next delta from this
// set's cursor names them. With a filter, a changed row the filter no
// longer keeps is removed, and the sections above a changed row are sent
// again, kept or removed, since whether the filter keeps them may have
// changed with it.
func (set *rowSet) delta(p *callerParts, filter listFilter, changed, deleted []string) (rowsBody, []string) {
	touched := rowsOf{}
	for _, id := range changed {
		row, ok := set.byID.get(id)
		for ok && !touched.has(row) {
			touched.add(row)
			if filter.key() == "" || row.req.ParentID == "" {
				break
			}
			row, ok = set.byID.get(row.req.ParentID)
		}
	}
	var gone []string
	for _, id := range deleted {
		if _, ok := set.byID.find(id); !ok {
			gone = append(gone, id)
		}
	}
	var indexes []int
	if filter.key() == "" {
		for i, row := range set.rows {
			if touched.has(row) {
				indexes = append(indexes, i)
			}
		}
		return listRowsBody(set, p, indexes, false), gone
	}
	kept := set.keep(filter) // ascending, as the rows are walked
	for i, row := range set.rows {
		for len(kept) > 0 && kept[0] < i {
			kept = kept[1:]
		}
		switch {
		case !touched.has(row):
		case len(kept) > 0 && kept[0] == i:
			indexes = append(indexes, i)
		default:
			gone = append(gone, row.req.ID)
		}
	}
	return listRowsBody(set, p, indexes, false), gone
}

// rowsOf is a set of a list's rows, by the row. A delta names a few rows
// of hundreds, and delta walks every row asking whether it is one: a
// few pointers compared cost less than hashing each row's id, which was
// most of a delta's time.
type rowsOf struct {
	few  []*listRow
	many map[*listRow]bool // once there are more than maxFewRows
}

const maxFewRows = 8

func (r *rowsOf) add(row *listRow) {
	switch {
	case r.many != nil:
		r.many[row] = true
	case len(r.few) < maxFewRows:
		r.few = append(r.few, row)
	default:
		r.many = map[*listRow]bool{row: true}
		for _, row := range r.few {
			r.many[row] = true
		}
		r.few = nil
	}
}

func (r *rowsOf) has(row *listRow) bool {
	if r.many != nil {
		return r.many[row]
	}
	return slices.Contains(r.few, row)
}

// deltaBody is an api.ListDelta written around rows.
func deltaBody(cursor string, full bool, rows rowsBody, removed []string) rowsBody {
	if removed == nil {
		removed = []string{}
	}
	cursorJSON, _ := json.Marshal(cursor)
	removedJSON, _ := json.Marshal(removed)
	head := append([]byte(`{"cursor":`), cursorJSON...)
	head = append(head, `,"full":`...)
	head = strconv.AppendBool(head, full)
	rows.head = append(head, `,"changed":`...)
	rows.tail = append(append([]byte(`,"removed":`), removedJSON...), '}')
	return rows
}

// changedIDs are the requests changed and deleted after a version.
type changedIDs struct{ changed, removed []string }

// maxDeltasPerSet bounds the versions a set remembers deltas from.
const maxDeltasPerSet = 8

// changedSince is the ids changed and deleted after version from, read
// once per set and version.
func (set *rowSet) changedSince(from int64, read func() (changed, removed []string, err error)) (changedIDs, error) {
	set.mu.Lock()
	ids, ok := set.since[from]
	set.mu.Unlock()
	if ok {
		return ids, nil
	}
	changed, removed, err := read()
	if err != nil {
		return changedIDs{}, err
	}
	ids = changedIDs{changed: changed, removed: removed}
	set.mu.Lock()
	defer set.mu.Unlock()
	if set.since == nil || len(set.since) >= maxDeltasPerSet {
		set.since = map[int64]changedIDs{}
	}
	set.since[from] = ids
	return ids, nil
}
