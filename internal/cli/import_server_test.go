package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/importplan"
	"github.com/dealctl/dealctl/internal/server"
)

const aliceKey = "dlk_alice00000000000000000000000000000000"

// liveServer is a real dealctl server on its own copy of a database
// seeded with testdata/world.yaml, allowing rateLimit calls a minute per
// key.
type liveServer = liveAPI

func startLiveServer(t testing.TB, rateLimit int) *liveServer {
	t.Helper()
	db, ids := seededDB(t, filepath.Join("testdata", "world.yaml"), time.Time{})
	return startServerOn(t, db, ids, "falcon", time.Time{}, server.Config{RateLimit: rateLimit})
}

// runLive runs dealctl as alice on Falcon against url.
func runLive(t *testing.T, url string, args ...string) result {
	t.Helper()
	return run(t, nil, runOpts{env: map[string]string{"DEALCTL_SERVER": url, "DEALCTL_API_KEY": aliceKey}}, args...)
}

// runFlaky is runLive through a proxy that drops connections: the
// retries' waits are shortened (runOpts.quickRetries).
func runFlaky(t *testing.T, url string, args ...string) result {
	t.Helper()
	return run(t, nil, runOpts{env: map[string]string{"DEALCTL_SERVER": url, "DEALCTL_API_KEY": aliceKey}, quickRetries: true}, args...)
}

// liveRows reads Falcon's list straight from the server.
func liveRows(t *testing.T, url string) []api.DealRequest {
	t.Helper()
	r := runLive(t, url, "requests", "ls", "--json")
	if r.code != 0 {
		t.Fatalf("requests ls: %d %s", r.code, r.err)
	}
	var rows []api.DealRequest
	if err := json.Unmarshal([]byte(r.out), &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

// planOf runs import and decodes its -o json answer.
func planOf(t *testing.T, url string, args ...string) (*importplan.Plan, result) {
	t.Helper()
	r := runLive(t, url, append([]string{"import", "-o", "json"}, args...)...)
	var p importplan.Plan
	if r.out != "" {
		if err := json.Unmarshal([]byte(r.out), &p); err != nil {
			t.Fatalf("import -o json printed %q: %v", r.out, err)
		}
	}
	return &p, r
}

// assertNoDuplicates fails when a number or a title appears twice.
func assertNoDuplicates(t *testing.T, rows []api.DealRequest) {
	t.Helper()
	numbers, titles := map[string]int{}, map[string]int{}
	for _, r := range rows {
		numbers[r.Number]++
		titles[strings.ToLower(r.Title)]++
	}
	for n, c := range numbers {
		if c > 1 {
			t.Errorf("number %s is on the deal %d times", n, c)
		}
	}
	for n, c := range titles {
		if c > 1 {
			t.Errorf("title %q is on the deal %d times", n, c)
		}
	}
}
