package sqlstore

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// Reads from every benchmark goroutine at once, on SQLite: the deal's row
// (what a list poll and, since issue 32, one request's GET read per call)
// against RequestView (what one request's GET read per call before). With
// -cpu 1,2,4,8 the deal's row scales with the cores and RequestView stops
// early: each page it reads goes through SQLite's page cache, which this
// build (SQLITE_ENABLE_MEMORY_MANAGEMENT) keeps as one for every
// connection behind one mutex (pcache1's group mutex, visible in a mutex
// profile as _pcache1FetchWithMutex). docs/server.md ("Scaling with cores") has
// the figures.
//
//	go test ./internal/store/sqlstore -run '^$' -bench ParallelReads -cpu 1,2,4,8 -mutexprofile mutex.out
func BenchmarkParallelReads(b *testing.B) {
	db, w, requests := benchWideDeal(b, 2000)
	ctx := context.Background()
	// "deadline" reads as the API does, under a deadline
	// (internal/server/deadline.go): a context that can end cost two
	// goroutines a statement, the driver's watch and database/sql's,
	// until one-row reads ran steady.
	withDeadline, cancel := context.WithTimeout(ctx, time.Hour)
	defer cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{{"deal row", ctx}, {"deal row, deadline", withDeadline}} {
		b.Run(c.name, func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := db.Deal(c.ctx, w.deal); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
	b.Run("request view", func(b *testing.B) {
		var next atomic.Int64
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				id := requests[int(next.Add(1))%len(requests)]
				if _, err := db.RequestView(ctx, w.deal, id, w.party, api.MaxPreviewLen); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// benchWideDeal is benchWorld's deal with n more requests, each with an
// answer.
func benchWideDeal(b *testing.B, n int) (*DB, benchIDs, []string) {
	db, w := benchWorld(b)
	now := time.Now().UTC()
	var ids []string
	err := db.Apply(context.Background(), func(tx store.AdminTx) error {
		for i := range n {
			id, err := tx.PutRequest(store.Request{DealID: w.deal, Kind: api.KindRequest, Number: fmt.Sprint(i + 2), Title: fmt.Sprintf("Request %d", i),
				Body: "Details of the request, as long as a real one often is.", Status: api.StatusOpen, Priority: api.PriorityMedium,
				Category: api.CategoryLegal, CreatedAt: now, UpdatedAt: now})
			if err != nil {
				return err
			}
			ids = append(ids, id)
			if err := tx.PutMessage(store.Message{ID: store.NewID(), DealID: w.deal, RequestID: id, PartyID: w.party, AuthorID: &w.person,
				Kind: api.MessageResponse, Source: api.SourceWeb, Text: "An answer of a few words.", Format: api.FormatMarkdown, PostedAt: now}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return db, w, ids
}
