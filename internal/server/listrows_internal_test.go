package server

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/service"
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
	st, err := sqlstore.Open(ctx, filepath.Join(t.TempDir(), "rows.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ids, err := world.ApplyFile(ctx, st, filepath.Join("testdata", "world.yaml"), time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
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
				actor := service.NewActor(deal, parties, people, seat, access, nil)
				dc := &dealCall{deal: deal, parties: parties, people: people, seat: seat,
					caller: actor.Caller, actor: actor}
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
				if got := set.body(parts, nil, true); len(want) > 0 && !bytes.Equal(got, whole) {
					t.Fatalf("person %s (%s key): the list differs from json.Marshal of its rows:\n%s\n%s", seat.ID, access, got, whole)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no row checked")
	}
}
