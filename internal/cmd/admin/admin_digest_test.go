package admin

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

// digestSettings runs `admin digest ls -o json` and returns each
// person's digest setting by email.
func digestSettings(t *testing.T, db string) map[string]adminDigestPerson {
	t.Helper()
	out, err := runAdmin(t, db, "", "digest", "ls", "--deal", "Falcon", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []adminDigestPerson
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("digest ls -o json printed %q: %v", out, err)
	}
	got := map[string]adminDigestPerson{}
	for _, r := range rows {
		got[r.Email] = r
	}
	return got
}

func TestAdminDigestOffOn(t *testing.T) {
	t.Parallel()
	db, res := seededDB(t)
	before := digestSettings(t, db)
	if len(before) != 2 || !before["bob@acme.example"].Digest || !before["alice@target.example"].Digest ||
		before["bob@acme.example"].LastSlot != nil || before["bob@acme.example"].PersonID != res.People["falcon/bob"] {
		t.Fatalf("digest ls on a fresh world: %+v", before)
	}

	out, err := runAdmin(t, db, "", "digest", "off", "--deal", "Falcon", "BOB@acme.example")
	if err != nil || out != "Daily digest off for bob@acme.example on Falcon.\n" {
		t.Fatalf("digest off: %q, %v", out, err)
	}
	out, err = runAdmin(t, db, "", "digest", "off", "-d", "falcon", "bob")
	if err != nil || !strings.Contains(out, "already off") {
		t.Errorf("digest off twice: %q, %v; want it to say it was already off", out, err)
	}
	if got := digestSettings(t, db); got["bob@acme.example"].Digest || !got["alice@target.example"].Digest {
		t.Errorf("after digest off for bob: %+v", got)
	}

	// One unknown name among several changes nothing.
	_, err = runAdmin(t, db, "", "digest", "off", "--deal", "Falcon", "alice", "nobody@nowhere.example")
	if exitOf(err) != cmdutil.ExitNotFound || !strings.Contains(err.Error(), "nobody@nowhere.example") {
		t.Errorf("digest off with an unknown user: exit %d, %v; want exit 3 naming them", exitOf(err), err)
	}
	if got := digestSettings(t, db); !got["alice@target.example"].Digest {
		t.Errorf("a failed digest off still turned alice's digest off")
	}

	out, err = runAdmin(t, db, "", "digest", "on", "--deal", "Falcon", "bob@acme.example", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var changes []adminDigestChange
	if err := json.Unmarshal([]byte(out), &changes); err != nil || len(changes) != 1 || !changes[0].Digest || !changes[0].Changed ||
		changes[0].PersonID != res.People["falcon/bob"] {
		t.Errorf("digest on -o json printed %q (%v)", out, err)
	}
	if got := digestSettings(t, db); !got["bob@acme.example"].Digest {
		t.Errorf("digest on left bob's digest off")
	}
}

func TestAdminDigestErrors(t *testing.T) {
	t.Parallel()
	db, _ := seededDB(t)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"digest", "off", "bob@acme.example"}, cmdutil.ExitUsage, "--deal is required"},
		{[]string{"digest", "off", "--deal", "Falcon"}, cmdutil.ExitUsage, "needs --deal DEAL USER..."},
		{[]string{"digest", "ls"}, cmdutil.ExitUsage, "--deal is required"},
		{[]string{"digest", "off", "--deal", "Nope", "bob"}, cmdutil.ExitNotFound, `no deal "Nope"`},
		{[]string{"digest", "ls", "--deal", "Nope"}, cmdutil.ExitNotFound, `no deal "Nope"`},
	}
	for _, tc := range cases {
		_, err := runAdmin(t, db, "", tc.args...)
		if exitOf(err) != tc.code || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("admin %v: exit %d, %v; want exit %d mentioning %q", tc.args, exitOf(err), err, tc.code, tc.want)
		}
	}
}

// TestAdminDigestLsOnATerminal: a table with a header, every person,
// their setting and that none was sent yet.
func TestAdminDigestLsOnATerminal(t *testing.T) {
	t.Parallel()
	db, _ := seededDB(t)
	if _, err := runAdmin(t, db, "", "digest", "off", "--deal", "Falcon", "alice"); err != nil {
		t.Fatal(err)
	}
	out, err := runAdminOnTerminal(t, "digest", "ls", "--deal", "Falcon", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "EMAIL") {
		t.Fatalf("digest ls on a terminal:\n%s", out)
	}
	for _, l := range lines[1:] {
		fields := strings.Fields(l)
		switch {
		case strings.HasPrefix(l, "alice@target.example"):
			if !strings.Contains(l, " off ") || fields[len(fields)-1] != "never" {
				t.Errorf("alice's row %q: want off, never", l)
			}
		case strings.HasPrefix(l, "bob@acme.example"):
			if !strings.Contains(l, " on ") || fields[len(fields)-1] != "never" {
				t.Errorf("bob's row %q: want on, never", l)
			}
		default:
			t.Errorf("unexpected row %q", l)
		}
	}
}
