package e2e

import (
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	aliceKey = "dlk_e2ealice000000000000000000000000000"
	bobKey   = "dlk_e2ebob00000000000000000000000000000"
)

// TestAcknowledgedWritesSurviveKill9 runs concurrent writers against a
// real server, kills it with SIGKILL at a random moment, restarts it on
// the same file and checks that every write it acknowledged is there, that
// no two requests share a number, and that no writer saw anything but
// success before the kill (no "database is locked" 500s).
func TestAcknowledgedWritesSurviveKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills server processes")
	}
	db := filepath.Join(t.TempDir(), "dealctl.db")
	ids := applyWorld(t, db)
	deal := ids["deals"]["falcon"].(string)
	section := ids["requests"]["falcon/1"].(string)
	answered := ids["requests"]["falcon/1.1"].(string)

	requests := map[string]string{} // id → number, acknowledged
	var messages []string           // ids, acknowledged
	for round := range 3 {
		srv := startServer(t, db, "--rate-limit", "100000")
		base := srv.url + "/api/v1/deals/" + deal
		var mu sync.Mutex
		var unexpected []int
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for w := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := &http.Client{Timeout: 5 * time.Second}
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					if w%2 == 0 {
						var created struct{ ID, Number string }
						status, err := call(c, http.MethodPost, base+"/requests", aliceKey,
							map[string]any{"title": "Concurrent request", "parent_id": section}, &created)
						mu.Lock()
						if err == nil && status == http.StatusCreated {
							requests[created.ID] = created.Number
						} else if err == nil {
							unexpected = append(unexpected, status)
						}
						mu.Unlock()
						continue
					}
					key := aliceKey
					if w%4 == 1 {
						key = bobKey
					}
					var posted struct{ ID string }
					status, err := call(c, http.MethodPost, base+"/requests/"+answered+"/messages", key,
						map[string]any{"text": "progress", "partial": true}, &posted)
					mu.Lock()
					if err == nil && status == http.StatusCreated {
						messages = append(messages, posted.ID)
					} else if err == nil {
						unexpected = append(unexpected, status)
					}
					mu.Unlock()
				}
			}()
		}
		time.Sleep(time.Duration(150+rand.IntN(400)) * time.Millisecond)
		if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = srv.cmd.Wait()
		close(stop)
		wg.Wait()
		if len(unexpected) > 0 {
			t.Fatalf("round %d: writers got statuses %v before the kill", round, unexpected)
		}
		t.Logf("round %d: %d requests and %d messages acknowledged so far", round, len(requests), len(messages))
	}
	if len(requests) == 0 || len(messages) == 0 {
		t.Fatal("no write was acknowledged: the test proved nothing")
	}

	srv := startServer(t, db)
	base := srv.url + "/api/v1/deals/" + deal
	var list []struct{ ID, Number string }
	if status, err := call(http.DefaultClient, http.MethodGet, base+"/requests", aliceKey, nil, &list); err != nil || status != http.StatusOK {
		t.Fatalf("list after restart: %d %v", status, err)
	}
	stored := map[string]string{}
	numbers := map[string]string{}
	for _, r := range list {
		stored[r.ID] = r.Number
		if other, dup := numbers[r.Number]; dup {
			t.Errorf("number %s is shared by %s and %s", r.Number, other, r.ID)
		}
		numbers[r.Number] = r.ID
	}
	for id, number := range requests {
		if stored[id] != number {
			t.Errorf("acknowledged request %s (%s) is missing after kill -9", id, number)
		}
	}
	var convo []struct{ ID string }
	if status, err := call(http.DefaultClient, http.MethodGet, base+"/requests/"+answered+"/messages", aliceKey, nil, &convo); err != nil || status != http.StatusOK {
		t.Fatalf("messages after restart: %d %v", status, err)
	}
	have := map[string]bool{}
	for _, m := range convo {
		have[m.ID] = true
	}
	for _, id := range messages {
		if !have[id] {
			t.Errorf("acknowledged message %s is missing after kill -9", id)
		}
	}
}
