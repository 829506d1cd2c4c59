package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/iostreams"
)

func TestVersion(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"version"}, {"--version"}} {
		r := run(t, nil, runOpts{}, args...)
		r.must(t, 0, "dealctl version ")
	}
}

func TestDeals(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "deals", "ls")
	r.must(t, 0)
	if r.out != "Falcon\tProject Falcon\tTarget Co\tPacific/Auckland\tno\t"+ts.dealID()+"\n" {
		t.Errorf("deals ls = %q", r.out)
	}
	r = run(t, ts, runOpts{tty: true}, "deals", "show", "Project Falcon")
	r.must(t, 0)
	// The id is the one part the server makes up.
	golden(t, "deals_show.txt", strings.ReplaceAll(r.out, ts.dealID(), "ID-OF-FALCON"))

	// deals use remembers the deal per server, in the config file.
	cfgHome := t.TempDir()
	env := map[string]string{"XDG_CONFIG_HOME": cfgHome, "DEALCTL_DEAL": ""}
	r = run(t, ts, runOpts{env: env}, "requests", "ls")
	if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, "deals use") {
		t.Errorf("no deal: exit %d, stderr %q", r.code, r.err)
	}
	r = run(t, ts, runOpts{env: env}, "deals", "use", "FALCON")
	if r.code != 0 || !strings.Contains(r.err, "Default deal is now Falcon") {
		t.Errorf("deals use: exit %d, stderr %q", r.code, r.err)
	}
	run(t, ts, runOpts{env: env}, "requests", "ls", "--status", "complete").must(t, 0, "2.1")
	data, err := os.ReadFile(filepath.Join(cfgHome, "dealctl", "config.yaml"))
	if err != nil || !strings.Contains(string(data), ts.dealID()) {
		t.Errorf("config file: %s, %v", data, err)
	}
}

func TestPeople(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "people", "ls")
	r.must(t, 0, "alice@target.example\tAlice Sato\tTarget Co\tadmin\tprincipal\tyes\tyes\t"+ts.person("alice")+"\n",
		"carol@acme.example\t\tbuy\tviewer\tother\tno\tno\t"+ts.person("carol")+"\n")
}

func TestWhoami(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	run(t, ts, runOpts{}, "whoami").must(t, 0, "alice@target.example\tAlice Sato\tTarget Co\tdlk_test0000\twrite\n")
	run(t, ts, runOpts{tty: true}, "whoami").must(t, 0, "Alice Sato <alice@target.example> of Target Co")
	r := run(t, ts, runOpts{}, "whoami", "--jq", ".organization.name")
	r.must(t, 0)
	if r.out != "Target Co\n" {
		t.Errorf("--jq = %q", r.out)
	}
}

func TestAuthWithKeyFile(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	cfgHome := t.TempDir()
	env := map[string]string{"XDG_CONFIG_HOME": cfgHome, "DEALCTL_API_KEY": "", "DEALCTL_SERVER": "", "DEALCTL_KEYRING": "file"}
	r := run(t, ts, runOpts{env: env, stdin: "dlk_wrong\n"}, "auth", "login", "--server", ts.URL)
	if r.code != cmdutil.ExitAuth {
		t.Fatalf("bad key: exit %d, stderr %q", r.code, r.err)
	}
	r = run(t, ts, runOpts{env: env, stdin: testKey + "\n"}, "auth", "login", "--server", ts.URL)
	if r.code != 0 || !strings.Contains(r.err, "Logged in to "+ts.URL+" as Alice Sato") {
		t.Fatalf("login: exit %d, stderr %q", r.code, r.err)
	}
	fi, err := os.Stat(filepath.Join(cfgHome, "dealctl", "keys.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", fi, err)
	}
	// The server was remembered: no --server needed from now on.
	r = run(t, ts, runOpts{env: env}, "auth", "status")
	r.must(t, 0, "Server:  "+ts.URL, "Stored:  "+filepath.Join(cfgHome, "dealctl", "keys.json"))
	r = run(t, ts, runOpts{env: env}, "auth", "status", "--json")
	r.must(t, 0, `"source": "file"`)
	r = run(t, ts, runOpts{env: env}, "auth", "logout")
	if r.code != 0 || !strings.Contains(r.err, "Logged out") {
		t.Errorf("logout: exit %d, stderr %q", r.code, r.err)
	}
	r = run(t, ts, runOpts{env: env}, "auth", "status")
	if r.code != cmdutil.ExitAuth || !strings.Contains(r.err, "not logged in") {
		t.Errorf("after logout: exit %d, stderr %q", r.code, r.err)
	}
}

func TestAuthWithKeyringMock(t *testing.T) {
	t.Parallel()
	keyring.MockInit()
	ts := newFalcon(t)
	cfgHome := t.TempDir()
	env := map[string]string{"XDG_CONFIG_HOME": cfgHome, "DEALCTL_API_KEY": "", "DEALCTL_KEYRING": ""}
	r := run(t, ts, runOpts{env: env, stdin: testKey}, "auth", "login")
	if r.code != 0 || !strings.Contains(r.err, "stored in the OS keyring") {
		t.Fatalf("login: exit %d, stderr %q", r.code, r.err)
	}
	if _, err := os.Stat(filepath.Join(cfgHome, "dealctl", "keys.json")); err == nil {
		t.Error("key written to the file although a keyring answered")
	}
	run(t, ts, runOpts{env: env}, "auth", "status", "--json").must(t, 0, `"source": "keyring"`)
	run(t, ts, runOpts{env: env}, "whoami").must(t, 0, "alice@target.example")
	run(t, ts, runOpts{env: env}, "auth", "logout").must(t, 0)
	if _, err := keyring.Get("dealctl", ts.URL); err != keyring.ErrNotFound {
		t.Errorf("keyring still holds the key: %v", err)
	}
}

func TestMessagesAndFiles(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "messages", "ls", "2.1")
	r.must(t, 0, "Bob Reyes <bob@acme.example> 2026-03-01T10:00:00Z (response, via email)\nAttached the audited accounts.\n",
		"  file: cert.pdf (9 B)\n", "  file: scan.txt (5 B) [not downloadable yet]\n", "  link: Registry https://example.com/doc\n")
	r = run(t, ts, runOpts{}, "messages", "ls", "1.1")
	if r.code != 0 || r.out != "" || !strings.Contains(r.err, "No messages") {
		t.Errorf("empty conversation: %+v", r)
	}
	run(t, ts, runOpts{}, "messages", "ls", "1.1", "--json").must(t, 0, "[]")

	r = run(t, ts, runOpts{}, "files", "ls")
	r.must(t, 0, "2.1\tcert.pdf\tfile\t9\tyes\t\t"+ts.file(t, "2.1", "cert.pdf").VersionID+"\n", "2.1\tRegistry\tlink\t\tno\thttps://example.com/doc\t"+ts.file(t, "2.1", "Registry").VersionID+"\n")
	run(t, ts, runOpts{}, "files", "ls", "1.1", "--json").must(t, 0, "[]")
}

func TestMessagesMarkdownOnTerminal(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	run(t, ts, runOpts{}, "answer", "1.1", "-m", "# Heading\n\nSome **bold** text.").must(t, 0)
	piped := run(t, ts, runOpts{}, "messages", "ls", "1.1")
	piped.must(t, 0, "# Heading", "**bold**")
	tty := run(t, ts, runOpts{tty: true, color: true}, "messages", "ls", "1.1")
	tty.must(t, 0, "Heading", "\x1b[")
	if strings.Contains(tty.out, "**bold**") || strings.Contains(tty.out, "# Heading") {
		t.Errorf("markdown not rendered on a terminal:\n%q", tty.out)
	}
	// Without colour glamour keeps the markup but still lays it out.
	plain := run(t, ts, runOpts{tty: true}, "messages", "ls", "1.1")
	plain.must(t, 0, "  Some **bold** text.\n")
	if strings.Contains(plain.out, "\x1b[") {
		t.Errorf("colour with colour off: %q", plain.out)
	}
}

func TestDownload(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	dir := t.TempDir()
	cert := ts.file(t, "2.1", "cert.pdf").VersionID
	ts.set(func(ts *liveAPI) { ts.expireDL = 1 }) // the first link has expired before use
	r := run(t, ts, runOpts{}, "download", "2.1", "-o", dir)
	r.must(t, 0, filepath.Join(dir, "cert.pdf")+"\n")
	if !strings.Contains(r.err, "skipping scan.txt on 2.1: not downloadable yet") {
		t.Errorf("stderr = %q", r.err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "cert.pdf"))
	if err != nil || string(data) != "%PDF-cert" {
		t.Errorf("file = %q, %v", data, err)
	}
	if n := ts.callsTo("POST /api/v1/deals/" + ts.dealID() + "/files/" + cert); n != 2 {
		t.Errorf("%d link requests, want 2 (one expired)", n)
	}
	fetches := ts.sentTo("GET /dl/")
	if len(fetches) != 2 || fetches[0].status != http.StatusForbidden || fetches[1].status != http.StatusOK {
		t.Errorf("%d link fetches, want the expired one refused and the next served", len(fetches))
	}
	for _, f := range fetches {
		if f.Header.Get("Authorization") != "" {
			t.Errorf("the key was sent with download link %s", f.URL.Path)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("dir holds %d entries, want only cert.pdf (no temp files)", len(entries))
	}
	r = run(t, ts, runOpts{}, "download", cert, "-o", dir, "--json")
	r.must(t, 0, `"version_id": "`+cert+`"`)
	run(t, ts, runOpts{}, "download").must(t, cmdutil.ExitUsage)
	run(t, ts, runOpts{}, "download", "1.1", "-o", dir).must(t, cmdutil.ExitNotFound)
	// A folder that does not exist yet is made; a file is not a folder.
	run(t, ts, runOpts{}, "download", "--all", "-o", filepath.Join(dir, "missing")).must(t, 0)
	if _, err := os.Stat(filepath.Join(dir, "missing", "cert.pdf")); err != nil {
		t.Errorf("download into a new folder: %v", err)
	}
	run(t, ts, runOpts{}, "download", "--all", "-o", filepath.Join(dir, "cert.pdf")).must(t, cmdutil.ExitUsage)
}

func TestProgress(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{tty: true}, "progress")
	r.must(t, 0)
	golden(t, "progress.txt", r.out)
	r = run(t, ts, runOpts{}, "progress", "--json")
	r.must(t, 0)
	var rep progressReport
	if err := json.Unmarshal([]byte(r.out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Total.Total != 3 || rep.Total.Open != 1 || rep.Overdue != 1 || rep.DueThisWeek != 1 ||
		rep.ByCategory["legal"].Open != 1 || len(rep.ByAssignee) != 3 || rep.ByAssignee[2].Assignee != "" {
		t.Errorf("report = %+v", rep)
	}
	run(t, ts, runOpts{}, "progress").must(t, 0, "total\t1\t1\t1\t3\n", "overdue\t1\n")
}

func TestWatch(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	ios, _, out, _ := iostreams.Test()
	f := testFactory(t, ios, map[string]string{"DEALCTL_SERVER": ts.URL, "DEALCTL_API_KEY": testKey, "DEALCTL_DEAL": "falcon",
		"XDG_CONFIG_HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir(), "DEALCTL_KEYRING": "file"})
	f.Now = func() time.Time { return fixedTime }
	f.Global.JSON = true
	var polls int
	opts := &WatchOptions{cmdEnv: f.env(), Interval: time.Second, Count: 3, Sleep: func(ctx context.Context, d time.Duration) error {
		polls++
		if polls == 1 {
			// Between the first and second poll, someone answers 1.1.
			run(t, ts, runOpts{env: map[string]string{"DEALCTL_SERVER": ts.URL}}, "answer", "1.1", "-m", "Done", "--partial").must(t, 0)
		}
		return nil
	}}
	if err := watchRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("events:\n%s", out.String())
	}
	var ev [2]watchEvent
	for i := range lines {
		if err := json.Unmarshal([]byte(lines[i]), &ev[i]); err != nil {
			t.Fatal(err)
		}
	}
	if ev[0].Type != "answer" || ev[0].Preview != "Done" || !ev[0].Partial || ev[1].Type != "status" || ev[1].From != api.StatusOpen || ev[1].To != api.StatusPartial {
		t.Errorf("events = %+v", ev)
	}
	// Three polls: the first full, then one 200 after the change, then a 304.
	if n := ts.callsTo("GET /api/v1/deals/" + ts.dealID() + "/requests"); n < 3 {
		t.Errorf("%d list reads", n)
	}
}

func TestAPICommand(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "api", "GET", "/me")
	r.must(t, 0, `"prefix": "dlk_test0000"`)
	r = run(t, ts, runOpts{}, "api", "PATCH", "/deals/{deal}/requests/"+ts.id("1.1"), "-f", "status=complete")
	r.must(t, 0, `"status": "complete"`)
	r = run(t, ts, runOpts{stdin: `{"status":"open"}`}, "api", "patch", "/api/v1/deals/"+ts.dealID()+"/requests/"+ts.id("1.1"), "--input", "-")
	r.must(t, 0, `"status": "open"`)
	r = run(t, ts, runOpts{}, "api", "GET", "/deals/nope")
	if r.code != cmdutil.ExitNotFound {
		t.Errorf("exit %d", r.code)
	}
	r = run(t, ts, runOpts{}, "api", "GET", "/deals", "--jq", ".[0].codename")
	if r.out != "Falcon\n" {
		t.Errorf("--jq = %q", r.out)
	}
}

func TestCompletion(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		r := run(t, ts, runOpts{}, "completion", sh)
		r.must(t, 0, "dealctl")
	}
	r := run(t, ts, runOpts{}, "__complete", "status", "1.")
	r.must(t, 0, "1.1\tCertificate of incorporation", "1.2\t")
	r = run(t, ts, runOpts{}, "__complete", "status", "1.1", "")
	r.must(t, 0, "open\npartial\ncomplete\n")
	r = run(t, ts, runOpts{}, "__complete", "deals", "use", "f")
	r.must(t, 0, "Falcon\tProject Falcon")
	r = run(t, ts, runOpts{}, "__complete", "requests", "ls", "--assignee", "b")
	r.must(t, 0, "bob@acme.example\tBob Reyes")
}

func TestETagCacheAcrossRuns(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	env := map[string]string{"XDG_CACHE_HOME": t.TempDir()}
	for range 3 {
		run(t, ts, runOpts{env: env}, "requests", "ls", "--json").must(t, 0, `"number": "2.1"`)
	}
	// Every read after the first was conditional and answered 304, with
	// no body.
	reads := ts.sentTo("GET /api/v1/deals/" + ts.dealID() + "/requests")
	if len(reads) != 3 {
		t.Fatalf("%d list reads", len(reads))
	}
	for i, r := range reads[1:] {
		if r.Header.Get("If-None-Match") == "" || r.status != http.StatusNotModified {
			t.Errorf("read %d: If-None-Match %q, answered %d; want a conditional read answered 304", i+2, r.Header.Get("If-None-Match"), r.status)
		}
	}
}

// `api` prints JSON as every -o json does (< and & unescaped, however
// the server escaped them), and a body that is not JSON as it came.
func TestAPICommandOutput(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "api", "PATCH", "/deals/{deal}/requests/"+ts.id("1.1"), "-f", "title=R&D <notes>")
	r.must(t, 0, `"title": "R&D <notes>"`)
	if strings.Contains(r.out, `\u00`) {
		t.Errorf("api kept the server's escapes:\n%s", r.out)
	}
	r = run(t, ts, runOpts{}, "api", "GET", "/deals/{deal}", "-o", "yaml")
	r.must(t, 0, "codename: Falcon")

	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "tru <b>\n")
	}))
	t.Cleanup(plain.Close)
	r = run(t, nil, runOpts{env: map[string]string{"DEALCTL_SERVER": plain.URL}}, "api", "GET", "/text")
	r.must(t, 0)
	if r.out != "tru <b>\n" {
		t.Errorf("a body that is not JSON printed as %q, want it as it came", r.out)
	}
}
