package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/server"
)

// TestSearchClientFiltersPastTheServersHits: with --section, --overdue or
// --due-before the server is asked for its most hits (500) and the
// client keeps those on requests that pass. On a deal where more than
// 500 requests match, a request past the 500th is never seen: the
// command says so on stderr, rather than letting "nothing" look like
// the answer; where enough pass, --limit is met and nothing is said.
func TestSearchClientFiltersPastTheServersHits(t *testing.T) {
	t.Parallel()
	var world strings.Builder
	world.WriteString(`organizations: [{key: target, name: Target Co}, {key: acme, name: Acme Capital}]
users: [{key: alice, name: Alice Sato, email: alice@target.example, organization: target}]
deals:
  - key: heron
    name: Project Heron
    codename: Heron
    timezone: Europe/London
    parties:
      - {key: sell, side: sell, label: Target Co, owner: true, organization: target}
      - {key: buy,  side: buy,  label: null,      organization: acme}
    people:
      - {user: alice, party: sell, access: admin, role: principal, joined: true}
    requests:
      - {number: "1", kind: section, title: Subsidiaries}
`)
	for i := 1; i <= api.SearchMaxLimit+1; i++ {
		fmt.Fprintf(&world, "      - {number: \"1.%d\", title: Subsidiary %d accounts}\n", i, i)
	}
	world.WriteString(`      - {number: "2", kind: section, title: Group}
      - {number: "2.1", title: Group accounts, due_date: 2020-01-01}
keys:
  - {key: alice, user: alice, name: CI, access: write, expires_at: 2030-01-01T00:00:00Z, secret: ` + testKey + `}
`)
	file := filepath.Join(t.TempDir(), "heron.yaml")
	if err := os.WriteFile(file, []byte(world.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	db, ids := seededDB(t, file, falconAppliedAt)
	ts := startServerOn(t, db, ids, "heron", fixedTime, server.Config{})
	heron := runOpts{env: map[string]string{"DEALCTL_DEAL": "heron"}}

	// 2.1 matches, and is overdue, but comes after 501 hits in 1.
	r := run(t, ts, heron, "search", "accounts", "--in", "requests", "--section", "2", "--json")
	r.must(t, cmdutil.ExitOK)
	if strings.TrimSpace(r.out) != "[]" || !strings.Contains(r.err, "warning: the search found more than 500 hits before --section was applied here") {
		t.Errorf("hits past the server's 500: stdout %q, stderr %q", r.out, r.err)
	}
	if n := ts.callsTo("GET /api/v1/deals/" + ts.dealID() + "/search"); n != 1 {
		t.Errorf("%d searches, want 1", n)
	}
	// Enough pass among the 500: --limit is met, and nothing is missing.
	r = run(t, ts, heron, "search", "accounts", "--in", "requests", "--section", "1", "--limit", "3", "--jq", `[.[].number] | join(" ")`)
	r.must(t, cmdutil.ExitOK)
	if r.out != "1.1 1.2 1.3\n" || r.err != "" {
		t.Errorf("--section 1 --limit 3: stdout %q, stderr %q", r.out, r.err)
	}

	// On a terminal, what is said under the table: that the filters
	// here, not the search, left nothing; that more are there, and
	// --limit only where a higher one would show them.
	for _, c := range []struct {
		args      []string
		say, omit string
	}{
		{[]string{"nowhere", "--section", "1"}, "Nothing found for nowhere", "passes"},
		{[]string{"group", "--in", "requests", "--section", "1"}, "No hit for group passes --section (the search found 2 before it)", "warning"},
		{[]string{"accounts", "--in", "requests", "--section", "2", "--overdue"},
			"warning: the search found more than 500 hits before --section and --overdue were applied here", "--limit"},
		{[]string{"accounts", "--in", "requests", "--section", "2"}, "No hit for accounts passes --section (the search found 500 before it)", "Nothing found"},
		{[]string{"accounts", "--in", "requests", "--limit", "5"}, "More than 5 hits: narrow the search, or ask for more with --limit (up to 500)", "warning"},
		{[]string{"accounts", "--in", "requests", "--limit", "500"}, "More than 500 hits, the most one search answers: narrow the search", "--limit"},
		{[]string{"accounts", "--in", "requests", "--section", "1", "--limit", "500"}, "warning: the search found more than 500 hits before --section", "--limit"},
	} {
		r := run(t, ts, runOpts{tty: true, env: heron.env}, append([]string{"search"}, c.args...)...)
		r.must(t, cmdutil.ExitOK)
		if !strings.Contains(r.err, c.say) || strings.Contains(r.err, c.omit) {
			t.Errorf("search %s: stderr %q, want it to say %q and not %q", strings.Join(c.args, " "), r.err, c.say, c.omit)
		}
	}
}
