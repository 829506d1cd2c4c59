package server_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// postgresDeal seeds the 2,200-row deal on a fresh PostgreSQL database
// and serves it from `instances` servers, each with its own pool, as
// separate processes would.
func postgresDeal(b *testing.B, instances int) ([]*httptest.Server, string, []string) {
	b.Helper()
	first, dealID, ids, dsn := bigDealOn(b, pgtest.URL(b), 0)
	servers := []*httptest.Server{first}
	for range instances - 1 {
		st, err := sqlstore.Open(context.Background(), dsn)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { st.Close() })
		servers = append(servers, serveBench(b, st, 0))
	}
	return servers, dealID, ids
}

func benchPostgresList(b *testing.B, instances int, conditional bool) {
	servers, dealID, _ := postgresDeal(b, instances)
	path := "/api/v1/deals/" + dealID + "/requests"
	c := servers[0].Client()
	_, body, h := get(b, c, servers[0].URL+path)
	var header []string
	want := http.StatusOK
	if conditional {
		header, want = []string{"If-None-Match", h.Get("ETag")}, http.StatusNotModified
	}
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if status, _, _ := get(b, c, servers[i%len(servers)].URL+path, header...); status != want {
				b.Errorf("answered %d, want %d", status, want)
				return
			}
			i++
		}
	})
}

func benchPostgresPost(b *testing.B, instances int) {
	servers, dealID, requests := postgresDeal(b, instances)
	c := servers[0].Client()
	body := []byte(`{"text":"Part of the answer, more to come.","partial":true}`)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			url := servers[i%len(servers)].URL + "/api/v1/deals/" + dealID + "/requests/" + requests[i%len(requests)] + "/messages"
			i++
			req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+benchSecret)
			resp, err := c.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusCreated {
				b.Errorf("post answered %d", resp.StatusCode)
				return
			}
		}
	})
}

func BenchmarkPostgresList200OneInstance(b *testing.B)  { benchPostgresList(b, 1, false) }
func BenchmarkPostgresList200TwoInstances(b *testing.B) { benchPostgresList(b, 2, false) }
func BenchmarkPostgresList304OneInstance(b *testing.B)  { benchPostgresList(b, 1, true) }
func BenchmarkPostgresList304TwoInstances(b *testing.B) { benchPostgresList(b, 2, true) }
func BenchmarkPostgresPostOneInstance(b *testing.B)     { benchPostgresPost(b, 1) }
func BenchmarkPostgresPostTwoInstances(b *testing.B)    { benchPostgresPost(b, 2) }

// BenchmarkPostgresList200Uncached builds the list on every call, for a
// comparison with BenchmarkList200Uncached on SQLite.
func BenchmarkPostgresList200Uncached(b *testing.B) {
	ts, dealID, _, _ := bigDealOn(b, pgtest.URL(b), -1)
	url := ts.URL + "/api/v1/deals/" + dealID + "/requests"
	b.ResetTimer()
	for b.Loop() {
		if status, _, _ := get(b, ts.Client(), url); status != http.StatusOK {
			b.Fatalf("answered %d", status)
		}
	}
}
