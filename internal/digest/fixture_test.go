package digest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/world"
)

// TestMain stops the throwaway PostgreSQL the tests may have started.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// clock is a fake clock shared by the server and the schedulers.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock(t time.Time) *clock { return &clock{now: t} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// Keys of the test world, fixed so that tests can call the API as each
// person.
const (
	keyAlice = "dlk_alice000000000000000000000000000000"
	keyBob   = "dlk_bob00000000000000000000000000000000"
	keyCarol = "dlk_carol000000000000000000000000000000"
)

// testWorld is deal Falcon in zone tz: alice on the owning (sell) side,
// bob and carol on the buy side, dan invited but not joined. Bob has an
// overdue request (1.1), one due in a few days (1.2), one due later
// (1.3), a complete overdue one (1.4); alice has 2.1; dan has 1.5.
func testWorld(tz string) string {
	return fmt.Sprintf(`
organizations:
  - {key: target, name: Target Co}
  - {key: acme,   name: Acme Capital}
users:
  - {key: alice, name: Alice Sato, email: alice@target.example, organization: target}
  - {key: bob,   name: Bob Reyes,  email: bob@acme.example,     organization: acme}
  - {key: carol, name: Carol Diaz, email: carol@acme.example,   organization: acme}
  - {key: dan,   name: Dan Ito,    email: dan@acme.example,     organization: acme}
deals:
  - key: falcon
    name: Project Falcon
    codename: Falcon
    timezone: %s
    parties:
      - {key: sell, side: sell, label: Target Co, owner: true, organization: target}
      - {key: buy,  side: buy,  organization: acme}
    people:
      - {user: alice, party: sell, access: admin,  project_admin: true}
      - {user: bob,   party: buy,  access: editor}
      - {user: carol, party: buy,  access: editor}
      - {user: dan,   party: buy,  access: editor, joined: false}
    requests:
      - {number: "1", kind: section, title: Corporate}
      - {number: "1.1", title: Certificate of incorporation, due_date: 2026-03-01, assignee: bob}
      - {number: "1.2", title: Board minutes, due_date: 2026-03-12, assignee: bob}
      - {number: "1.3", title: Share register, due_date: 2026-03-20, assignee: bob}
      - {number: "1.4", title: Old filings, due_date: 2026-02-01, assignee: bob, status: complete}
      - {number: "1.5", title: Dan's request, due_date: 2026-03-01, assignee: dan}
      - {number: "2", kind: section, title: Financial}
      - {number: "2.1", title: Audited accounts, assignee: alice}
keys:
  - {key: alice, user: alice, access: write, secret: %s}
  - {key: bob,   user: bob,   access: write, secret: %s}
  - {key: carol, user: carol, access: write, secret: %s}
`, tz, keyAlice, keyBob, keyCarol)
}

// seeded is a store holding testWorld and the ids applying it gave.
type seeded struct {
	st  *sqlstore.DB
	res *world.Result
}

func (s *seeded) deal() string              { return s.res.Deals["falcon"] }
func (s *seeded) person(user string) string { return s.res.People["falcon/"+user] }
func (s *seeded) request(n string) string   { return s.res.Requests["falcon/"+n] }

// openSQLite opens a fresh SQLite store in a temporary folder and
// returns it with its path, for a second instance to open.
func openSQLite(t *testing.T) (*sqlstore.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dealctl.db")
	return openDSN(t, path), path
}

// onEachStore runs fn on a fresh SQLite store and on a fresh PostgreSQL
// database.
func onEachStore(t *testing.T, fn func(t *testing.T, st *sqlstore.DB)) {
	t.Run("sqlite", func(t *testing.T) {
		st, _ := openSQLite(t)
		fn(t, st)
	})
	t.Run("postgres", func(t *testing.T) { fn(t, openDSN(t, pgtest.URL(t))) })
}

func openDSN(t *testing.T, dsn string) *sqlstore.DB {
	t.Helper()
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// seed applies the world file doc to st at now.
func seed(t *testing.T, st *sqlstore.DB, doc string, now time.Time) *seeded {
	t.Helper()
	w, err := world.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	res, err := world.Apply(context.Background(), st, w, t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	return &seeded{st: st, res: res}
}

// newScheduler is a scheduler on st at 07:00 on clk, logging nowhere.
func newScheduler(st Store, clk *clock) *Scheduler {
	return &Scheduler{Store: st, At: DefaultAt, Now: clk.Now, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// digests lists the digest rows of deal's outbox, oldest first.
func digests(t *testing.T, st store.Outbox, deal string) []store.Notification {
	t.Helper()
	all, err := st.Notifications(context.Background(), deal)
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Notification
	for _, n := range all {
		if n.Kind == store.NotifyDigest {
			out = append(out, n)
		}
	}
	return out
}

// digestsFor keeps the digests sent to person.
func digestsFor(ns []store.Notification, person string) []store.Notification {
	var out []store.Notification
	for _, n := range ns {
		if n.PersonID == person {
			out = append(out, n)
		}
	}
	return out
}

// runOnce runs s once and fails the test on an error.
func runOnce(t *testing.T, s *Scheduler) Report {
	t.Helper()
	rep, err := s.RunOnce(context.Background())
	if err != nil {
		t.Fatalf("RunOnce at %s: %v", s.Now().UTC().Format(time.RFC3339), err)
	}
	return rep
}

// api is the real HTTP server on st, on the fake clock.
type apiServer struct {
	t   *testing.T
	url string
}

func newAPI(t *testing.T, st store.Store, clk *clock) *apiServer {
	t.Helper()
	srv, err := server.New(context.Background(), server.Config{Store: st, Now: clk.Now, AccessCacheTTL: -1,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &apiServer{t: t, url: hs.URL}
}

// post posts a message to request req of deal as the key's owner.
func (a *apiServer) post(key, deal, req string, body map[string]any) {
	a.t.Helper()
	b, _ := json.Marshal(body)
	r, _ := http.NewRequest(http.MethodPost, a.url+"/api/v1/deals/"+deal+"/requests/"+req+"/messages", bytes.NewReader(b))
	r.Header.Set("Authorization", "Bearer "+key)
	r.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated {
		a.t.Fatalf("post %v: %s %s", body, resp.Status, got)
	}
}

// section is the lines of body under the heading that starts with
// heading, up to the next blank line.
func section(body, heading string) string {
	i := strings.Index(body, "\n"+heading)
	if i < 0 {
		return ""
	}
	rest := body[i+1:]
	if j := strings.Index(rest, "\n\n"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}
