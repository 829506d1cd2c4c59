package sqlstore

import (
	"context"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// BenchmarkListChangesAfterOnePost is what a list read costs the store
// after a post on a 550-row deal: the rows changed since the version
// before it (one), with its newest answer and its files, and the rows
// deleted since (none). Every list kept for a party is brought up to date
// this way once a write (docs/server.md, "Lists that cost what changed").
//
//	go test ./internal/store/sqlstore -run '^$' -bench ListChangesAfterOnePost
func BenchmarkListChangesAfterOnePost(b *testing.B) {
	db, w, requests := benchWideDeal(b, 550)
	ctx := context.Background()
	before, err := db.Deal(ctx, w.deal)
	if err != nil {
		b.Fatal(err)
	}
	m := store.Message{DealID: w.deal, RequestID: requests[len(requests)/2], PartyID: w.party, AuthorID: &w.person,
		Kind: api.MessageResponse, Source: api.SourceWeb, Text: "The accounts are in the data room.", Format: api.FormatMarkdown}
	if _, _, err := db.PostMessage(ctx, store.PostMessage{Message: m}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		ch, err := db.ListChanges(ctx, w.deal, before.Version, false, w.party, api.MaxPreviewLen)
		if err != nil {
			b.Fatal(err)
		}
		if len(ch.Requests) != 1 || len(ch.Latest) != 1 {
			b.Fatalf("%d rows changed with %d answers, want the one posted to", len(ch.Requests), len(ch.Latest))
		}
	}
}
