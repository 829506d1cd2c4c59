package server_test

// Benchmarks of the server over loopback, on a 2,200-row deal, on SQLite
// and on PostgreSQL (when one is available: see internal/pgtest). Rerun:
//
//	go test ./internal/server -run '^$' -bench . -benchtime 3s
//	eval "$(.ci/start-postgres.sh)"; go test ./internal/server -run '^$' -bench Postgres
//
// BenchmarkStaticFile serves the very bytes of the list from a plain Go
// file server: the list's 200 is held to within 2× of it, and the 304 to
// at least 5× cheaper than the 200. Figures are in docs/server.md.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/keys"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

const benchSecret = "dlk_bench000000000000000000000000000000"

// bigDeal seeds a deal of 20 sections × 109 requests (2,200 rows), with a
// response and an internal note on every other request and a file on
// every tenth, and returns a server for it and the deal's id.
func bigDeal(b *testing.B, cacheBytes int) (*httptest.Server, string, []string) {
	b.Helper()
	ts, dealID, ids, _ := bigDealOn(b, filepath.Join(b.TempDir(), "bench.db"), cacheBytes)
	return ts, dealID, ids
}

// bigDealOn seeds the deal in the database dsn names and serves it; it
// also returns the dsn, so that a second instance can serve it too.
func bigDealOn(b *testing.B, dsn string, cacheBytes int) (*httptest.Server, string, []string, string) {
	b.Helper()
	return dealOfSize(b, dsn, cacheBytes, 20, 109)
}

// dealOfSize is bigDealOn with sections × perSection requests (and the
// sections themselves).
func dealOfSize(b *testing.B, dsn string, cacheBytes, sections, perSection int) (*httptest.Server, string, []string, string) {
	b.Helper()
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	now := time.Now().UTC()
	id := func() string { return store.NewID() }
	dealID, sellParty, buyParty := id(), id(), id()
	var requestIDs []string
	err = st.Apply(ctx, func(tx store.AdminTx) error {
		org, user := id(), id()
		label := "Target"
		email := "owner@example.com"
		must := func(err error) {
			if err != nil {
				panic(err)
			}
		}
		must(tx.PutOrganization(store.Organization{ID: org, Name: "Target"}))
		must(tx.PutUser(store.User{ID: user, OrganizationID: org, Email: &email}))
		must(tx.PutDeal(store.Deal{ID: dealID, Name: "Bench", Codename: "Bench", Timezone: "UTC"}))
		must(tx.PutParty(store.Party{ID: sellParty, DealID: dealID, Side: api.SideSell, Label: &label, IsOwner: true, Position: 0}))
		must(tx.PutParty(store.Party{ID: buyParty, DealID: dealID, Side: api.SideBuy, Position: 1}))
		person, err := tx.PutPerson(store.Person{DealID: dealID, UserID: user, PartyID: sellParty, Access: api.AccessAdmin, Role: api.RolePrincipal, Joined: true})
		must(err)
		must(tx.PutAPIKey(store.APIKey{ID: id(), UserID: user, Name: "bench", Prefix: keys.Prefix(benchSecret), Hash: keys.Hash(benchSecret),
			Access: api.KeyWrite, ExpiresAt: now.Add(time.Hour), CreatedAt: now}))
		for s := 1; s <= sections; s++ {
			section := store.Request{DealID: dealID, Kind: api.KindSection, Number: strconv.Itoa(s), Title: fmt.Sprintf("Section %d", s),
				Status: api.StatusOpen, Priority: api.PriorityMedium, Category: api.CategoryBusiness, CreatedAt: now, UpdatedAt: now}
			sid, err := tx.PutRequest(section)
			must(err)
			for r := 1; r <= perSection; r++ {
				due := "2026-12-01"
				row := store.Request{DealID: dealID, ParentID: &sid, Kind: api.KindRequest, Number: fmt.Sprintf("%d.%d", s, r),
					Title: fmt.Sprintf("Provide the documents for item %d of section %d", r, s), Body: strings.Repeat("Details of the request. ", 8),
					Status: api.StatusOpen, Priority: api.PriorityHigh, Category: api.CategoryLegal, DueDate: &due, AssigneeID: &person,
					CreatedAt: now, UpdatedAt: now}
				rid, err := tx.PutRequest(row)
				must(err)
				requestIDs = append(requestIDs, rid)
				if r%2 == 0 {
					for i, internal := range []bool{false, true} {
						mid := id()
						must(tx.PutMessage(store.Message{ID: mid, DealID: dealID, RequestID: rid, PartyID: sellParty, AuthorID: &person,
							Kind: api.MessageResponse, Internal: internal, Source: api.SourceWeb, Text: strings.Repeat("An answer. ", 40),
							Format: api.FormatMarkdown, PostedAt: now.Add(time.Duration(i) * time.Second)}))
						if r%10 == 0 && !internal {
							name, ct := "file.pdf", "application/pdf"
							must(tx.PutFile(store.File{VersionID: id(), DealID: dealID, RequestID: rid, MessageID: mid, Kind: api.FileKindFile,
								Name: &name, ContentType: &ct, Scanned: true}, []byte("%PDF-1.4 bench")))
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return serveBench(b, st, cacheBytes), dealID, requestIDs, dsn
}

// serveBench serves st as one instance would.
func serveBench(b *testing.B, st *sqlstore.DB, cacheBytes int) *httptest.Server {
	b.Helper()
	cfg := server.Config{Store: st, BaseURL: "http://bench", RateLimit: 1 << 30, ListCacheBytes: cacheBytes, Logger: discardLogger()}
	if st.Dialect() == sqlstore.Postgres {
		cfg.Limiter = st.RateLimiter()
	}
	srv, err := server.New(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	b.Cleanup(ts.Close)
	return ts
}

func get(b *testing.B, c *http.Client, url string, header ...string) (int, []byte, http.Header) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+benchSecret)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	return resp.StatusCode, body, resp.Header
}

func benchList(b *testing.B, cacheBytes int, conditional bool) {
	ts, dealID, _ := bigDeal(b, cacheBytes)
	url := ts.URL + "/api/v1/deals/" + dealID + "/requests"
	c := ts.Client()
	status, body, h := get(b, c, url)
	if status != http.StatusOK || !bytes.HasPrefix(body, []byte("[")) {
		b.Fatalf("list answered %d", status)
	}
	var header []string
	want := http.StatusOK
	if conditional {
		header, want = []string{"If-None-Match", h.Get("ETag")}, http.StatusNotModified
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if status, _, _ := get(b, c, url, header...); status != want {
			b.Fatalf("answered %d, want %d", status, want)
		}
	}
	b.StopTimer()
	reportPeakRSS(b)
}

// BenchmarkList200 is the whole list as a client gets it after a change
// has been read once (the encoded body is cached by ETag).
func BenchmarkList200(b *testing.B) { benchList(b, 0, false) }

// BenchmarkList200Uncached builds the body on every call: the cost of the
// first read after each write.
func BenchmarkList200Uncached(b *testing.B) { benchList(b, -1, false) }

// BenchmarkList304 is a conditional read of an unchanged list.
func BenchmarkList304(b *testing.B) { benchList(b, 0, true) }

// BenchmarkStaticFile ships the list's bytes from http.FileServer.
func BenchmarkStaticFile(b *testing.B) {
	ts, dealID, _ := bigDeal(b, 0)
	_, body, _ := get(b, ts.Client(), ts.URL+"/api/v1/deals/"+dealID+"/requests")
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "list.json"), body, 0o600); err != nil {
		b.Fatal(err)
	}
	fs := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer fs.Close()
	c := fs.Client()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if status, _, _ := get(b, c, fs.URL+"/list.json"); status != http.StatusOK {
			b.Fatalf("file server answered %d", status)
		}
	}
}

// BenchmarkPostMessage posts a partial answer through the API.
func BenchmarkPostMessage(b *testing.B) {
	ts, dealID, requests := bigDeal(b, 0)
	c := ts.Client()
	body := []byte(`{"text":"Part of the answer, more to come.","partial":true}`)
	i := 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		url := ts.URL + "/api/v1/deals/" + dealID + "/requests/" + requests[i%len(requests)] + "/messages"
		i++
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+benchSecret)
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			b.Fatalf("post answered %d", resp.StatusCode)
		}
	}
}

// reportPeakRSS reports the process's peak resident set (Linux), which
// includes the benchmark client's share.
func reportPeakRSS(b *testing.B) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			b.ReportMetric(float64(kb)/1024, "peak-RSS-MiB")
		}
	}
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// BenchmarkRequest200 reads one request after another, unconditionally.
func BenchmarkRequest200(b *testing.B) {
	ts, dealID, requests := bigDeal(b, 0)
	c := ts.Client()
	i := 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if status, _, _ := get(b, c, ts.URL+"/api/v1/deals/"+dealID+"/requests/"+requests[i%len(requests)]); status != http.StatusOK {
			b.Fatalf("answered %d", status)
		}
		i++
	}
}
