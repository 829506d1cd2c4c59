package server_test

import (
	"bytes"
	"net/http"
	"testing"
)

// BenchmarkEvents304 is a poll of the events feed with nothing new, to
// set beside BenchmarkList304 on the same 2,200-row deal: both are
// decided by the deal row every call reads, so they should cost alike.
//
//	go test ./internal/server -run '^$' -bench 'Events304|List304' -count 5
func BenchmarkEvents304(b *testing.B) {
	ts, dealID, requests := bigDeal(b, 0)
	c := ts.Client()
	// Some history to poll past.
	for i := range 20 {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/v1/deals/"+dealID+"/requests/"+requests[i]+"/messages",
			bytes.NewReader([]byte(`{"text":"An answer.","partial":true}`)))
		req.Header.Set("Authorization", "Bearer "+benchSecret)
		resp, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			b.Fatalf("post answered %d", resp.StatusCode)
		}
	}
	url := ts.URL + "/api/v1/deals/" + dealID + "/events?limit=1000"
	status, body, h := get(b, c, url)
	if status != http.StatusOK || !bytes.Contains(body, []byte(`"message.posted"`)) {
		b.Fatalf("events answered %d: %.200s", status, body)
	}
	header := []string{"If-None-Match", h.Get("ETag")}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if status, _, _ := get(b, c, url, header...); status != http.StatusNotModified {
			b.Fatalf("answered %d, want 304", status)
		}
	}
}
