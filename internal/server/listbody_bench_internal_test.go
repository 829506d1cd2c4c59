package server

import (
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/world"
)

// BenchmarkRowsBodyWrite measures what a list 200 costs past the store
// and the network: its length worked out, then its rows written with the
// caller's values spliced in, for a 550-row list (the test world's rows,
// repeated) as a writer sees it.
func BenchmarkRowsBodyWrite(b *testing.B) {
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, filepath.Join(b.TempDir(), "rows.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	ids, err := world.ApplyFile(ctx, st, filepath.Join("testdata", "world.yaml"), time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC))
	if err != nil {
		b.Fatal(err)
	}
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
