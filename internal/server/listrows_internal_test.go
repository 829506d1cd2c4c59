package server

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/world"
)

// TestRowSetRowsAreWhatJSONMarshalWrites: a row set keeps each row with
// the caller's allowed_statuses and can cut out, and splices them back in
// for each caller. For every person of the test world's deals, with a
// read and a write key, every row so spliced is byte for byte what
// json.Marshal writes for the row read alone (RequestView), and the list
// is what it writes for the rows in list order.
func TestRowSetRowsAreWhatJSONMarshalWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, ids := testWorldStore(t)
	checked := 0
	for _, dealID := range ids.Deals {
		deal, err := st.Deal(ctx, dealID)
		if err != nil {
			t.Fatal(err)
		}
		parties, people, err := st.Members(ctx, dealID)
		if err != nil {
			t.Fatal(err)
		}
		for _, seat := range people {
			for _, access := range []api.KeyAccess{api.KeyRead, api.KeyWrite} {
				dc := newDealCall(keyCall(access), deal, membersOf(parties, people), seat)
				view := newDealView(dc)
				changes, err := st.ListChanges(ctx, dealID, 0, !dc.caller.OwnerSide, seat.PartyID, api.MaxPreviewLen)
				if err != nil {
					t.Fatal(err)
				}
				set, err := applyChanges(nil, changes, view, listVersion(dc), listContext(dc))
				if err != nil {
					t.Fatal(err)
				}
				parts := newCallerParts(dc.caller)
				var want []api.DealRequest
				for _, row := range set.rows {
					rv, err := st.RequestView(ctx, dealID, row.req.ID, seat.PartyID, api.MaxPreviewLen)
					if err != nil {
						t.Fatal(err)
					}
					shown := view.request(rv.Request, rv.Latest, rv.Files)
					alone, _ := json.Marshal(shown)
					if got := row.appendFor(nil, parts); !bytes.Equal(got, alone) {
						t.Fatalf("person %s (%s key), row %s:\nspliced: %s\nalone:   %s", seat.ID, access, row.req.Number, got, alone)
					}
					want = append(want, shown)
					checked++
				}
				whole, _ := json.Marshal(want)
				if len(want) > 0 {
					checkRowsBody(t, listRowsBody(set, parts, nil, true), whole)
					checkChunkedBodies(t, set, parts, want)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no row checked")
	}
}

// testWorldStore is a SQLite store in a temporary folder with the test
// world (testdata/world.yaml) applied.
func testWorldStore(tb testing.TB) (*sqlstore.DB, *world.Result) {
	tb.Helper()
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, filepath.Join(tb.TempDir(), "rows.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	ids, err := world.ApplyFile(ctx, st, filepath.Join("testdata", "world.yaml"), time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC))
	if err != nil {
		tb.Fatal(err)
	}
	return st, ids
}

// keyCall is a call made with a key of access, by a user with no
// address.
func keyCall(access api.KeyAccess) *call {
	return &call{key: store.APIKey{Access: access}}
}

// checkRowsBody checks that b, written in chunks, is want, and that its
// size is want's length.
func checkRowsBody(t *testing.T, b rowsBody, want []byte) {
	t.Helper()
	var written bytes.Buffer
	if err := b.writeTo(&written); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(written.Bytes(), want) {
		t.Fatalf("the body written in chunks differs from json.Marshal of its rows:\n%s\n%s", written.Bytes(), want)
	}
	if b.size() != len(want) {
		t.Fatalf("size %d, the body is %d bytes", b.size(), len(want))
	}
}

// checkChunkedBodies checks bodies of many chunks: the rows of set
// repeated until the list is more than three chunks, as a list and as a
// delta around them, against json.Marshal of the same.
func checkChunkedBodies(t *testing.T, set *rowSet, parts *callerParts, shown []api.DealRequest) {
	t.Helper()
	big := &rowSet{}
	var want []api.DealRequest
	for size := 0; size < 3*bodyChunk+1; size += len(set.rows[0].json) {
		i := len(big.rows) % len(set.rows)
		big.rows = append(big.rows, set.rows[i])
		want = append(want, shown[i])
	}
	whole, _ := json.Marshal(want)
	checkRowsBody(t, listRowsBody(big, parts, nil, true), whole)
	delta, _ := json.Marshal(api.ListDelta{Cursor: "c\"1", Full: true, Changed: want[:len(want)-1], Removed: []string{"gone"}})
	indexes := make([]int, len(want)-1)
	for i := range indexes {
		indexes[i] = i
	}
	checkRowsBody(t, deltaBody("c\"1", true, listRowsBody(big, parts, indexes, false), []string{"gone"}), delta)
}

// TestRowsOfPastFewRows: the set of rows a delta names answers the same
// whether it holds a few (compared one by one) or many (a map).
func TestRowsOfPastFewRows(t *testing.T) {
	rows := make([]*listRow, 3*maxFewRows)
	for i := range rows {
		rows[i] = &listRow{}
	}
	var set rowsOf
	for n, row := range rows[:2*maxFewRows] {
		set.add(row)
		set.add(row) // twice: still one
		for i, other := range rows {
			if want := i <= n; set.has(other) != want {
				t.Fatalf("after %d rows added, has(row %d) = %v, want %v", n+1, i, !want, want)
			}
		}
	}
}

// TestRowSetShareHoldsEqualRowsOnce: a set takes, in place of each of its
// rows that reads the same as its sibling's, the sibling's row, found in
// the same place or by id, and counts it half; a row that reads
// otherwise (an internal answer shows on it) stays its own.
func TestRowSetShareHoldsEqualRowsOnce(t *testing.T) {
	row := func(id, json string) *listRow {
		return &listRow{req: keptRequest{ID: id, Number: id}, json: []byte(json)}
	}
	newSet := func(rows ...*listRow) *rowSet {
		set := &rowSet{rows: rows, byID: slices.Clone(rowIndex(rows))}
		slices.SortFunc(set.byID, func(a, b *listRow) int { return strings.Compare(a.req.ID, b.req.ID) })
		set.count(nil)
		return set
	}
	a, b, c := row("a", `{"n":"1"}`), row("b", `{"n":"2"}`), row("c", `{"n":"3"}`)
	sibling := newSet(a, b, c)
	// Rows in another order (none in its sibling's place), one shared
	// already, one equal but its own, one that reads otherwise.
	own, other := row("b", `{"n":"2"}`), row("a", `{"n":"1","internal":true}`)
	set := newSet(c, own, other)
	set.share(sibling)
	if set.rows[0] != c || set.rows[1] != b || set.rows[2] != other {
		t.Errorf("rows after sharing: %p %p %p; want c's and b's the sibling's, a's its own", set.rows[0], set.rows[1], set.rows[2])
	}
	if got, _ := set.byID.get("b"); got != b {
		t.Error("the set's index still names its own b")
	}
	want := (len(c.json)+rowOverhead)/2 + (len(b.json)+rowOverhead)/2 + len(other.json) + rowOverhead
	if set.size != want {
		t.Errorf("size %d, want %d: shared rows count half", set.size, want)
	}
	// The same rows in the same places: shared without a search.
	same := newSet(a, b, c)
	same.share(sibling)
	if want := (len(a.json)+rowOverhead)/2 + (len(b.json)+rowOverhead)/2 + (len(c.json)+rowOverhead)/2; same.size != want {
		t.Errorf("size %d of a set of the sibling's own rows, want %d: each counted half", same.size, want)
	}
}
