package server_test

// The first read of a list after a one-row write, on the 2,200-row deal:
// whole (the server re-encodes the changed row and joins the list) and as
// a delta since the version before (list-delta). The write is made with
// the timer stopped. Rerun:
//
//	go test ./internal/server -run '^$' -bench AfterOneWrite -benchtime 200x

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

func BenchmarkListAfterOneWrite(b *testing.B) { benchAfterOneWrite(b, false) }

func BenchmarkListDeltaAfterOneWrite(b *testing.B) { benchAfterOneWrite(b, true) }

func benchAfterOneWrite(b *testing.B, delta bool) {
	ts, dealID, requests := bigDeal(b, 0)
	c := ts.Client()
	list := ts.URL + "/api/v1/deals/" + dealID + "/requests"
	_, _, h := get(b, c, list)
	cursor := h.Get(api.ListCursorHeader)
	post := func(i int) {
		req, _ := http.NewRequest(http.MethodPost, list+"/"+requests[i%len(requests)]+"/messages", bytes.NewReader([]byte(`{"text":"One more line."}`)))
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
	var size int
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		post(i)
		b.StartTimer()
		target := list
		if delta {
			target = deltaPath(list) + "?since=" + url.QueryEscape(cursor)
		}
		status, body, h := get(b, c, target)
		if status != http.StatusOK {
			b.Fatalf("answered %d", status)
		}
		size = len(body)
		cursor = h.Get(api.ListCursorHeader)
	}
	b.ReportMetric(float64(size), "bytes/read")
}
