package server

import (
	"context"
	"io"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// BenchmarkRowsBodyWrite measures what a list 200 costs past the store
// and the network: its length worked out, then its rows written with the
// caller's values spliced in, for a 550-row list (the test world's rows,
// repeated) as a writer sees it.
func BenchmarkRowsBodyWrite(b *testing.B) {
	ctx := context.Background()
	st, ids := testWorldStore(b)
	dealID := ids.Deals["falcon"]
	deal, err := st.Deal(ctx, dealID)
	if err != nil {
		b.Fatal(err)
	}
	parties, people, err := st.Members(ctx, dealID)
	if err != nil {
		b.Fatal(err)
	}
	seat := people[0]
	dc := newDealCall(keyCall(api.KeyWrite), deal, membersOf(parties, people), seat)
	changes, err := st.ListChanges(ctx, dealID, 0, !dc.caller.OwnerSide, seat.PartyID, api.MaxPreviewLen)
	if err != nil {
		b.Fatal(err)
	}
	set, err := applyChanges(nil, changes, newDealView(dc), listVersion(dc), listContext(dc))
	if err != nil {
		b.Fatal(err)
	}
	big := &rowSet{}
	for len(big.rows) < 550 {
		big.rows = append(big.rows, set.rows[len(big.rows)%len(set.rows)])
	}
	b.ReportAllocs()
	for b.Loop() {
		body := listRowsBody(big, newCallerParts(dc.caller), nil, true)
		_ = body.size()
		if err := body.writeTo(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
