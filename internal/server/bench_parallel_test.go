package server_test

// Parallel benchmarks of the two reads a poller makes most: a list it
// holds (304) and one request (200). Run with -cpu 1,2 (and more where
// there are cores): the calls per second should grow with the cores for
// both. A mutex profile shows what serialises them:
//
//	go test ./internal/server -run '^$' -bench 'Parallel' -cpu 1,2 -mutexprofile mutex.out
//	go tool pprof -top internal/server/server.test mutex.out

import (
	"net/http"
	"sync/atomic"
	"testing"
)

// BenchmarkRequest200Parallel reads requests of one deal from every
// benchmark goroutine at once.
func BenchmarkRequest200Parallel(b *testing.B) {
	ts, dealID, requests := bigDeal(b, 0)
	c := ts.Client()
	c.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1)
			if status, _, _ := get(b, c, ts.URL+"/api/v1/deals/"+dealID+"/requests/"+requests[int(i)%len(requests)]); status != http.StatusOK {
				b.Errorf("answered %d", status)
				return
			}
		}
	})
}

// BenchmarkList304Parallel polls one unchanged list from every benchmark
// goroutine at once.
func BenchmarkList304Parallel(b *testing.B) {
	ts, dealID, _ := bigDeal(b, 0)
	c := ts.Client()
	c.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
	url := ts.URL + "/api/v1/deals/" + dealID + "/requests"
	_, _, h := get(b, c, url)
	etag := h.Get("ETag")
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if status, _, _ := get(b, c, url, "If-None-Match", etag); status != http.StatusNotModified {
				b.Errorf("answered %d", status)
				return
			}
		}
	})
}
