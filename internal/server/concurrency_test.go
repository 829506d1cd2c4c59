package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/server"
)

func highRateLimit(c *server.Config) { c.RateLimit = 100000 }

// TestConcurrentCreatesGetDistinctNumbers: creates racing under one
// section all succeed, each with its own next number.
func TestConcurrentCreatesGetDistinctNumbers(t *testing.T) {
	t.Parallel()
	e := newEnv(t, highRateLimit)
	falcon, section := e.deal("falcon"), e.row("falcon/2")
	const n = 50
	got := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := []string{"olivia-write", "oscar-write"}[i%2]
			r := e.as(t, key).post(requestsPath(falcon), map[string]any{"title": fmt.Sprintf("Concurrent %d", i), "parent_id": section})
			if r.status != http.StatusCreated {
				t.Errorf("create %d: %s", i, r)
				return
			}
			got[i] = r.request().Number
		}()
	}
	wg.Wait()
	var want []string
	for i := 11; i < 11+n; i++ {
		want = append(want, fmt.Sprintf("2.%d", i))
	}
	slices.SortFunc(got, domain.CompareNumbers)
	if !slices.Equal(got, want) {
		t.Errorf("numbers %v, want 2.11 to 2.60 once each", got)
	}
	rows := e.as(t, "bella-write").get(requestsPath(falcon)).want(http.StatusOK).requests()
	if len(rows) != 10+n {
		t.Errorf("the list has %d rows, want %d", len(rows), 10+n)
	}
}

// TestConcurrentWritesNeverFail: posts, status moves, edits and reads
// racing on the same rows get answers, never a 500.
func TestConcurrentWritesNeverFail(t *testing.T) {
	t.Parallel()
	e := newEnv(t, highRateLimit)
	falcon := e.deal("falcon")
	rows := []string{e.row("falcon/1.1"), e.row("falcon/1.2"), e.row("falcon/2.1")}
	allowed := map[int]bool{http.StatusOK: true, http.StatusCreated: true, http.StatusConflict: true, http.StatusNotModified: true}
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := rows[i%len(rows)]
			var r *resp
			switch i % 6 {
			case 0:
				r = e.as(t, "ben-write").post(messagesPath(falcon, id), map[string]any{"text": fmt.Sprintf("answer %d", i), "partial": i%4 == 0})
			case 1:
				r = e.as(t, "olivia-write").patch(requestPath(falcon, id), map[string]any{"status": []string{"open", "partial", "complete"}[i%3]})
			case 2:
				r = e.as(t, "oscar-write").patch(requestPath(falcon, id), map[string]any{"title": fmt.Sprintf("Title %d", i), "priority": "high"})
			case 3:
				r = e.as(t, "bella-write").patch(requestPath(falcon, id), map[string]any{"status": "complete", "due_date": "2027-09-01"})
			case 4:
				r = e.as(t, "oscar-write").post(messagesPath(falcon, id), map[string]any{"text": "note", "kind": "internal_note"})
			default:
				r = e.as(t, "bianca-write").get(requestsPath(falcon))
			}
			if !allowed[r.status] {
				t.Errorf("%s", r)
			}
		}()
	}
	wg.Wait()
	// Everything acknowledged is there.
	var total int
	for _, id := range rows {
		total += len(e.as(t, "olivia-write").get(messagesPath(falcon, id)).want(http.StatusOK).messages())
	}
	// 4 seeded on 1.1, 10 shared answers and 10 internal notes posted.
	if total != 4+20 {
		t.Errorf("%d messages on the three rows, want 24", total)
	}
}
