package sqlstore

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// The cost of synchronous=FULL against NORMAL on the write that matters
// most, an answer that moves the status (docs/server.md "Durability on
// SQLite" has the figures):
//
//	go test ./internal/store/sqlstore -run '^$' -bench SQLiteSync -count 5
func BenchmarkSQLiteSync(b *testing.B) {
	for _, sync := range []string{SyncFull, SyncNormal} {
		b.Run(sync, func(b *testing.B) {
			db, w := benchWorldWith(b, OpenOptions{SQLiteSync: sync})
			statuses := []api.RequestStatus{api.StatusPartial, api.StatusComplete}
			for i := 0; b.Loop(); i++ {
				to := statuses[i%2]
				m := store.Message{DealID: w.deal, RequestID: w.request, PartyID: w.party, AuthorID: &w.person,
					Kind: api.MessageResponse, Partial: to == api.StatusPartial, Source: api.SourceAPI, Text: "Part of the answer.", Format: api.FormatMarkdown}
				if _, _, err := db.PostMessage(context.Background(), store.PostMessage{Message: m, MoveStatus: &to}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSQLiteSyncSetting: FULL unless NORMAL is asked for; anything else is
// refused before a file is made.
func TestSQLiteSyncSetting(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for sync, want := range map[string]int{"": 2, SyncFull: 2, SyncNormal: 1} {
		db, err := OpenWith(ctx, filepath.Join(t.TempDir(), "x.db"), OpenOptions{SQLiteSync: sync})
		if err != nil {
			t.Fatal(err)
		}
		var got int
		if err := db.write.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&got); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if got != want {
			t.Errorf("SQLiteSync %q: synchronous = %d, want %d", sync, got, want)
		}
	}
	if _, err := OpenWith(ctx, filepath.Join(t.TempDir(), "x.db"), OpenOptions{SQLiteSync: "off"}); err == nil {
		t.Errorf("SQLiteSync off was accepted")
	}
}
