package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// BenchmarkPostMessageNotifying prices a posted answer in the store, as
// the API posts it (a status move, its event), with notifications queued
// for 0 and for 8 joined people of the other side: what
// scripts/bench-cost.sh's post, on a deal with no one on the other side,
// leaves out. CPU per post is the process's (SQLite runs in it).
//
//	go test ./internal/store/sqlstore -run '^$' -bench PostMessageNotifying -benchtime 2000x
func BenchmarkPostMessageNotifying(b *testing.B) {
	for _, people := range []int{0, 8} {
		b.Run(fmt.Sprintf("notify %d", people), func(b *testing.B) {
			db, w := benchWorld(b)
			// With a deadline, as the API gives every call (internal/server/deadline.go).
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			body := strings.Repeat("A new answer on request 1 of Project Bench. ", 10)
			partial := api.StatusPartial
			measureCPU(b, func() {
				m := store.Message{DealID: w.deal, RequestID: w.request, PartyID: w.party, AuthorID: &w.person, Kind: api.MessageResponse,
					Partial: true, Source: api.SourceAPI, Text: "Part of the answer, more to come.", Format: api.FormatMarkdown}
				_, _, err := db.PostMessage(ctx, store.PostMessage{Message: m, MoveStatus: &partial, Notify: func(store.Message) []store.Notification {
					out := make([]store.Notification, people)
					for i := range out {
						out[i] = store.Notification{PersonID: w.person, Email: fmt.Sprintf("buyer%d@example.com", i), Subject: "New answer on 1", Body: body, CreatedAt: time.Now()}
					}
					return out
				}})
				if err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
