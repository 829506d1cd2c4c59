package sqlstore

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/keys"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store"
)

// The same price measured on whole API writes, through the real server
// over loopback: a response posted (which moves the status) and a status
// move by PATCH, with and without recording. The CPU reported is the
// whole process's, the benchmark's HTTP client included.
//
//	go test ./internal/store/sqlstore -run '^$' -bench RecordingAPI -count 5

const benchAPISecret = "dlk_benchEv000000000000000000000000000"

func BenchmarkRecordingAPIPostMessage(b *testing.B) {
	benchRecordingAPI(b, func(i int) (string, string, []byte) {
		body := `{"text":"Part of the answer.","partial":true}`
		if i%2 == 1 {
			body = `{"text":"The rest of the answer."}`
		}
		return http.MethodPost, "/messages", []byte(body)
	}, http.StatusCreated)
}

func BenchmarkRecordingAPIStatusMove(b *testing.B) {
	benchRecordingAPI(b, func(i int) (string, string, []byte) {
		body := `{"status":"partial"}`
		if i%2 == 1 {
			body = `{"status":"open"}`
		}
		return http.MethodPatch, "", []byte(body)
	}, http.StatusOK)
}

func benchRecordingAPI(b *testing.B, call func(i int) (method, suffix string, body []byte), want int) {
	for _, mode := range []struct {
		name string
		skip bool
	}{{"events", false}, {"none", true}} {
		b.Run(mode.name, func(b *testing.B) {
			db, w := benchWorld(b)
			db.skipEvents = mode.skip
			ts := benchAPIServer(b, db, w)
			c := ts.Client()
			base := ts.URL + "/api/v1/deals/" + w.deal + "/requests/" + w.request
			i := 0
			measureCPU(b, func() {
				method, suffix, body := call(i)
				i++
				req, _ := http.NewRequest(method, base+suffix, bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+benchAPISecret)
				req.Header.Set("Content-Type", "application/json")
				resp, err := c.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != want {
					b.Fatalf("%s answered %d, want %d", method, resp.StatusCode, want)
				}
			})
		})
	}
}

// benchAPIServer gives benchWorld's person a write key and serves db.
func benchAPIServer(b *testing.B, db *DB, w benchIDs) *httptest.Server {
	b.Helper()
	ctx := context.Background()
	people, err := db.People(ctx, w.deal)
	if err != nil || len(people) != 1 {
		b.Fatalf("people: %v %v", people, err)
	}
	now := time.Now()
	if err := db.CreateAPIKey(ctx, store.APIKey{ID: store.NewID(), UserID: people[0].UserID, Name: "bench", Prefix: keys.Prefix(benchAPISecret),
		Hash: keys.Hash(benchAPISecret), Access: api.KeyWrite, ExpiresAt: now.Add(time.Hour), CreatedAt: now}); err != nil {
		b.Fatal(err)
	}
	srv, err := server.New(ctx, server.Config{Store: db, BaseURL: "http://bench", RateLimit: 1 << 30, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	b.Cleanup(ts.Close)
	return ts
}
