package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/notify"
	"github.com/dealctl/dealctl/internal/pgtest"
)

// TestDigestTwoInstancesSQLite: two `dealctl serve` processes on one
// SQLite file, both past the day's digest time, deliver each person's
// digest once, through the webhook notifier.
func TestDigestTwoInstancesSQLite(t *testing.T) {
	digestOnce(t, filepath.Join(t.TempDir(), "deals.db"))
}

// TestDigestTwoInstancesPostgres is the same on one PostgreSQL database.
func TestDigestTwoInstancesPostgres(t *testing.T) {
	digestOnce(t, pgtest.URL(t))
}

// digestWorld is a deal in zone where bob has an overdue request and
// alice one due in two days; carol has nothing.
func digestWorld(zone string) string {
	return fmt.Sprintf(`
organizations:
  - {key: target, name: Target Co}
  - {key: acme, name: Acme Capital}
users:
  - {key: alice, name: Alice Sato, email: alice@target.example, organization: target}
  - {key: bob, name: Bob Reyes, email: bob@acme.example, organization: acme}
  - {key: carol, name: Carol Diaz, email: carol@acme.example, organization: acme}
deals:
  - key: falcon
    name: Project Falcon
    codename: Falcon
    timezone: %s
    parties:
      - {key: sell, side: sell, owner: true, organization: target}
      - {key: buy, side: buy, organization: acme}
    people:
      - {user: alice, party: sell, access: admin, project_admin: true}
      - {user: bob, party: buy, access: editor}
      - {user: carol, party: buy, access: editor}
    requests:
      - {number: "1", title: Certificate of incorporation, due_date: "-3d", assignee: bob}
      - {number: "2", title: Audited accounts, due_date: "+2d", assignee: alice}
`, zone)
}

func digestOnce(t *testing.T, db string) {
	// A digest time three minutes ago in the deal's zone, so both
	// instances find today's digest due at their first look. UTC, unless
	// that would put it on yesterday; then a zone twelve hours behind.
	zone, now := "UTC", time.Now().UTC()
	if now.Hour()*60+now.Minute() < 5 {
		zone = "Etc/GMT+12"
		now = now.Add(-12 * time.Hour)
	}
	at := now.Add(-3 * time.Minute).Format("15:04")
	worldFile := filepath.Join(t.TempDir(), "world.yaml")
	if err := os.WriteFile(worldFile, []byte(digestWorld(zone)), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(binary, "admin", "apply", "-f", worldFile, "--db", db).CombinedOutput(); err != nil {
		t.Fatalf("admin apply: %v\n%s", err, out)
	}

	const secret = "e2e-webhook-secret"
	var mu sync.Mutex
	var got []notify.WebhookPayload
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var p notify.WebhookPayload
		if r.Header.Get(notify.SignatureHeader) != notify.Sign([]byte(secret), body) || json.Unmarshal(body, &p) != nil {
			http.Error(w, "bad delivery", http.StatusBadRequest)
			return
		}
		mu.Lock()
		got = append(got, p)
		mu.Unlock()
	}))
	defer hook.Close()

	flags := []string{"--digest-at", at, "--notify-url", hook.URL, "--webhook-secret", secret}
	a := startServer(t, db, flags...)
	b := startServer(t, db, flags...)

	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(got)
	}
	deadline := time.Now().Add(20 * time.Second)
	for count() < 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	// Both instances have looked by now; give a duplicate time to show.
	time.Sleep(2 * time.Second)
	mu.Lock()
	defer mu.Unlock()
	people := map[string]int{}
	for _, p := range got {
		if p.Kind != "digest" || p.MessageID != "" {
			t.Errorf("delivery %+v is not a digest", p)
		}
		people[p.Email]++
	}
	if len(got) != 2 || people["bob@acme.example"] != 1 || people["alice@target.example"] != 1 {
		t.Errorf("webhook got %d deliveries by recipient %v; want one digest each for bob and alice, none for carol\nlog a:\n%s\nlog b:\n%s",
			len(got), people, a.log.String(), b.log.String())
	}
}
