package storetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// ConcurrentCreates has n writers create a row under one section at once,
// each through one of the stores (several server instances on one
// database, or just one), and checks that no number was handed out twice
// and no acknowledged row was lost. Backends reuse it across instances.
func ConcurrentCreates(t *testing.T, n int, stores ...store.Store) {
	t.Helper()
	w := seed(t, stores[0])
	before := version(t, stores[0], w.deal)
	var wg sync.WaitGroup
	created := make([]store.Request, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := w.row("", &w.sec1, api.KindRequest, "", fmt.Sprint("concurrent ", i))
			created[i], errs[i] = stores[i%len(stores)].CreateRequest(context.Background(), r)
		}()
	}
	wg.Wait()
	numbers := map[string]int{}
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
			continue
		}
		if prev, dup := numbers[created[i].Number]; dup {
			t.Errorf("writers %d and %d both got number %s", prev, i, created[i].Number)
		}
		numbers[created[i].Number] = i
	}
	for i := 1; i <= n; i++ {
		if _, ok := numbers[fmt.Sprint("1.", i)]; !ok {
			t.Errorf("number 1.%d was never handed out: numbers should run 1.1 to 1.%d without gaps", i, n)
		}
	}
	stored := map[string]bool{}
	for _, r := range mustGet[[]store.Request](t)(stores[0].Requests(ctxT(t), w.deal)) {
		stored[r.ID] = true
	}
	for i, r := range created {
		if errs[i] == nil && !stored[r.ID] {
			t.Errorf("acknowledged row %s (%s) is missing", r.ID, r.Number)
		}
	}
	wantVersionDelta(t, stores[0], w.deal, before, int64(n), "concurrent creates")
}

func testConcurrentCreates(t *testing.T, s store.Store) { ConcurrentCreates(t, 50, s) }

// testConcurrentWrites mixes messages and read-modify-write updates on
// one request from many goroutines: every write is answered (no "database
// is locked"), and every acknowledged one is there afterwards — in
// particular no update overwrote another's (lost update).
func testConcurrentWrites(t *testing.T, s store.Store) {
	w := seed(t, s)
	before := version(t, s, w.deal)
	const writers, each = 16, 8
	var wg sync.WaitGroup
	var mu sync.Mutex
	var posted, tags []string
	var failures []error
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				tag := fmt.Sprintf("[%d-%d]", g, i)
				var err error
				if (g+i)%2 == 0 {
					var m store.Message
					msg := w.message(w.req21)
					msg.Text = tag
					m, _, err = s.PostMessage(context.Background(), store.PostMessage{Message: msg})
					if err == nil {
						mu.Lock()
						posted = append(posted, m.ID)
						mu.Unlock()
					}
				} else {
					_, err = s.UpdateRequest(context.Background(), w.deal, w.req21, func(r *store.Request) error {
						r.Body += tag
						return nil
					})
					if err == nil {
						mu.Lock()
						tags = append(tags, tag)
						mu.Unlock()
					}
				}
				if err != nil {
					mu.Lock()
					failures = append(failures, fmt.Errorf("writer %d op %d: %w", g, i, err))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range failures {
		t.Error(err)
	}
	have := map[string]bool{}
	for _, m := range mustGet[[]store.Message](t)(s.Messages(ctxT(t), w.deal, w.req21)) {
		have[m.ID] = true
	}
	for _, id := range posted {
		if !have[id] {
			t.Errorf("acknowledged message %s is missing", id)
		}
	}
	body := mustGet[store.Request](t)(s.Request(ctxT(t), w.deal, w.req21)).Body
	for _, tag := range tags {
		if !strings.Contains(body, tag) {
			t.Errorf("acknowledged update %s was lost", tag)
		}
	}
	wantVersionDelta(t, s, w.deal, before, int64(len(posted)+len(tags)), "concurrent writes")
}
