package e2e

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/pgtest"
)

// TestTwoInstancesOnePostgres runs two `dealctl serve` processes on one
// PostgreSQL database, as behind a load balancer: writes through both
// lose nothing and never share a number, a download link signed by one
// downloads from the other, and a key's rate limit is shared.
func TestTwoInstancesOnePostgres(t *testing.T) {
	db := pgtest.URL(t)
	ids := applyWorld(t, db)
	deal := ids["deals"]["falcon"].(string)
	section := ids["requests"]["falcon/1"].(string)
	answered := ids["requests"]["falcon/1.1"].(string)
	withFile := ids["requests"]["falcon/1.2"].(string)

	a, b := startServer(t, db), startServer(t, db)
	instances := []*server{a, b}

	t.Run("concurrent writes through both", func(t *testing.T) {
		var mu sync.Mutex
		numbers := map[string]string{}
		var messages []string
		var wg sync.WaitGroup
		for i := range 40 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				base := instances[i%2].url + "/api/v1/deals/" + deal
				var created struct{ ID, Number string }
				status, err := call(http.DefaultClient, http.MethodPost, base+"/requests", aliceKey, map[string]any{"title": "Through both", "parent_id": section}, &created)
				if err != nil || status != http.StatusCreated {
					t.Errorf("create through instance %d: %d %v", i%2, status, err)
					return
				}
				var posted struct{ ID string }
				status, err = call(http.DefaultClient, http.MethodPost, base+"/requests/"+answered+"/messages", bobKey, map[string]any{"text": "more", "partial": true}, &posted)
				if err != nil || status != http.StatusCreated {
					t.Errorf("answer through instance %d: %d %v", i%2, status, err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				if other, dup := numbers[created.Number]; dup {
					t.Errorf("number %s handed out twice (%s, %s)", created.Number, other, created.ID)
				}
				numbers[created.Number] = created.ID
				messages = append(messages, posted.ID)
			}()
		}
		wg.Wait()
		var convo []struct{ ID string }
		if status, err := call(http.DefaultClient, http.MethodGet, b.url+"/api/v1/deals/"+deal+"/requests/"+answered+"/messages", aliceKey, nil, &convo); err != nil || status != http.StatusOK {
			t.Fatalf("messages: %d %v", status, err)
		}
		if len(convo) != len(messages) || len(numbers) != 40 {
			t.Errorf("stored %d messages of %d acknowledged; %d distinct numbers of 40", len(convo), len(messages), len(numbers))
		}
	})

	t.Run("a link signed by one instance downloads from the other", func(t *testing.T) {
		var req struct {
			Files []struct {
				VersionID string `json:"version_id"`
			}
		}
		if status, err := call(http.DefaultClient, http.MethodGet, a.url+"/api/v1/deals/"+deal+"/requests/"+withFile, bobKey, nil, &req); err != nil || status != http.StatusOK || len(req.Files) != 1 {
			t.Fatalf("request with a file: %d %v %+v", status, err, req)
		}
		var link struct{ URL string }
		if status, err := call(http.DefaultClient, http.MethodPost, a.url+"/api/v1/deals/"+deal+"/files/"+req.Files[0].VersionID+"/download-link", bobKey, nil, &link); err != nil || status != http.StatusOK {
			t.Fatalf("download-link from A: %d %v", status, err)
		}
		if !strings.HasPrefix(link.URL, a.url+"/dl/") {
			t.Fatalf("link %q is not on instance A", link.URL)
		}
		resp, err := http.Get(b.url + strings.TrimPrefix(link.URL, a.url))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(body) != "Group structure: HoldCo > OpCo\n" {
			t.Fatalf("download from B: %d %q", resp.StatusCode, body)
		}
	})

	t.Run("a key's rate limit is shared", func(t *testing.T) {
		la, lb := startServer(t, db, "--rate-limit", "30"), startServer(t, db, "--rate-limit", "30")
		allowed, limited := 0, 0
		start := time.Now()
		for i := range 60 {
			srv := []*server{la, lb}[i%2]
			req, _ := http.NewRequest(http.MethodGet, srv.url+"/api/v1/me", nil)
			req.Header.Set("Authorization", "Bearer "+bobKey)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			switch resp.StatusCode {
			case http.StatusOK:
				allowed++
			case http.StatusTooManyRequests:
				limited++
				if resp.Header.Get("Retry-After") == "" {
					t.Error("a 429 without Retry-After")
				}
			default:
				t.Fatalf("unexpected status %d", resp.StatusCode)
			}
		}
		// The bucket holds 30 and refills at one every 2 s: together the
		// two instances allow at most 30 plus what refilled meanwhile.
		// Separate buckets would allow 60.
		ceiling := 30 + int(time.Since(start).Seconds()/2) + 1
		if allowed > ceiling || limited == 0 {
			t.Errorf("two instances allowed %d of 60 calls (limited %d); a shared bucket of 30 allows at most %d here", allowed, limited, ceiling)
		}
	})
}
