package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/activity"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/iostreams"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// The keys of testdata/world.yaml and testdata/world-audit.yaml.
const (
	bobReadKey = "dlk_bobread00000000000000000000000000000"
	vicKey     = "dlk_vic0000000000000000000000000000000000"
	tomKey     = "dlk_tom0000000000000000000000000000000000"
)

// runAs runs dealctl on Falcon at url with key.
func runAs(t *testing.T, url, key string, o runOpts, args ...string) result {
	t.Helper()
	env := map[string]string{"DEALCTL_SERVER": url, "DEALCTL_API_KEY": key}
	for k, v := range o.env {
		env[k] = v
	}
	o.env = env
	return run(t, nil, o, args...)
}

// records decodes `activity -o json`: one event a line.
func records(t *testing.T, out string) []activityRecord {
	t.Helper()
	var recs []activityRecord
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var r activityRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("not one JSON object a line: %q: %v", line, err)
		}
		recs = append(recs, r)
	}
	return recs
}

// summary is the records as "number type what", one a line, to compare.
func summary(recs []activityRecord) string {
	var b strings.Builder
	for _, r := range recs {
		b.WriteString(r.Number + " " + r.Type + " " + r.What + "\n")
	}
	return b.String()
}

// writeSomeHistory makes, as each side, the writes whose events the
// tests read: an internal note (owning side only), an answer from the
// counterparty (which moves 1.1 to partial), a move to complete.
func writeSomeHistory(t *testing.T, url string) {
	t.Helper()
	runAs(t, url, aliceKey, runOpts{}, "answer", "1.2", "--kind", "internal_note", "-m", "Board is nervous").must(t, 0)
	runAs(t, url, bobKey, runOpts{}, "answer", "1.1", "--partial", "-m", "2019 certificate attached").must(t, 0)
	runAs(t, url, aliceKey, runOpts{}, "status", "1.1", "complete").must(t, 0)
}

func TestActivityAsEachRole(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	writeSomeHistory(t, ls.URL)

	owner := records(t, runAs(t, ls.URL, aliceKey, runOpts{}, "activity", "-o", "json").out)
	got := summary(owner)
	for _, want := range []string{
		"1.2 message.posted posted an internal note\n",
		"1.1 message.posted posted a partial answer\n",
		"1.1 request.status_moved moved open → partial\n",
		"1.1 request.status_moved moved partial → complete\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the owning side's feed lacks %q:\n%s", want, got)
		}
	}
	for _, r := range owner {
		if r.Type == string(activity.StatusMoved) && r.What == "moved partial → complete" && (r.Actor == nil || r.Actor.Email != "alice@target.example") {
			t.Errorf("the move to complete does not name alice: %+v", r.Actor)
		}
	}
	// The counterparty, its viewer and a read key see the same feed, with
	// no trace of the internal note: not even that one was posted.
	for name, key := range map[string]string{"counterparty editor": bobKey, "viewer": vicKey, "read key": bobReadKey} {
		r := runAs(t, ls.URL, key, runOpts{}, "activity", "-o", "json")
		r.must(t, 0)
		got := summary(records(t, r.out))
		if strings.Contains(got, "internal") || strings.Contains(got, "1.2 ") {
			t.Errorf("%s sees the internal note's event:\n%s", name, got)
		}
		if !strings.Contains(got, "1.1 message.posted posted a partial answer") || !strings.Contains(got, "moved partial → complete") {
			t.Errorf("%s misses shared events:\n%s", name, got)
		}
	}

	// On a terminal: who, the request's number and title, what happened,
	// in columns that line up.
	r := runAs(t, ls.URL, aliceKey, runOpts{tty: true}, "activity")
	r.must(t, 0, "Alice Sato  1.1  Certificate of incorporation: moved partial → complete",
		"Bob Reyes   1.1  Certificate of incorporation: posted a partial answer")
	var starts []int
	for _, line := range strings.Split(strings.TrimSpace(r.out), "\n") {
		starts = append(starts, strings.Index(line, "1."))
	}
	if slices.Min(starts) != slices.Max(starts) || slices.Min(starts) < 0 {
		t.Errorf("the number starts at columns %v:\n%s", starts, r.out)
	}
	// Piped: stable tab-separated columns, the id last.
	r = runAs(t, ls.URL, aliceKey, runOpts{}, "activity")
	r.must(t, 0)
	for _, line := range strings.Split(strings.TrimSpace(r.out), "\n") {
		if n := len(strings.Split(line, "\t")); n != len(activityTable().Columns) {
			t.Errorf("piped line has %d columns: %q", n, line)
		}
	}
}

func TestActivityRequestAndSince(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	writeSomeHistory(t, ls.URL)

	recs := records(t, runAs(t, ls.URL, aliceKey, runOpts{}, "activity", "--request", "1.2", "-o", "json").out)
	if len(recs) == 0 {
		t.Fatal("--request 1.2 printed nothing")
	}
	for _, r := range recs {
		if r.Number != "1.2" {
			t.Errorf("--request 1.2 printed an event of %s", r.Number)
		}
	}
	// Nothing in the future; everything since a date in the past.
	tomorrow := time.Now().Add(48 * time.Hour).Format("2006-01-02")
	r := runAs(t, ls.URL, aliceKey, runOpts{}, "activity", "--since", tomorrow+"T00:00:00Z", "-o", "json")
	r.must(t, 0)
	if r.out != "" {
		t.Errorf("--since tomorrow printed:\n%s", r.out)
	}
	all := records(t, runAs(t, ls.URL, aliceKey, runOpts{}, "activity", "--since", "all", "-o", "json").out)
	if len(all) < 4 {
		t.Errorf("--since all printed %d events", len(all))
	}
	// Mistakes: exit 2 before any call, 3 for a request not there.
	runAs(t, ls.URL, aliceKey, runOpts{}, "activity", "--since", "last tuesday").must(t, cmdutil.ExitUsage)
	runAs(t, ls.URL, aliceKey, runOpts{}, "activity", "--follow", "-o", "csv").must(t, cmdutil.ExitUsage)
	r = runAs(t, ls.URL, aliceKey, runOpts{}, "activity", "--request", "9.9")
	r.must(t, cmdutil.ExitNotFound)
	if !strings.Contains(r.err, "no request 9.9") {
		t.Errorf("stderr: %s", r.err)
	}
	r = runAs(t, ls.URL, aliceKey, runOpts{}, "activity", "-o", "csv")
	r.must(t, 0, "AT,ACTOR,EMAIL,NUMBER,TITLE,TYPE,WHAT,ID\n")
}

func TestActivityFollowPrintsWhatComes(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	ios, _, out, _ := iostreams.Test()
	f := testFactory(t, ios, map[string]string{"DEALCTL_SERVER": ls.URL, "DEALCTL_API_KEY": aliceKey, "DEALCTL_DEAL": "falcon",
		"XDG_CONFIG_HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir(), "DEALCTL_KEYRING": "file"})
	f.Global.JSON = true
	polls := 0
	opts := &ActivityOptions{cmdEnv: f.env(), Since: "24h", Follow: true, Interval: time.Second, Count: 3, Sleep: func(context.Context, time.Duration) error {
		polls++
		if polls == 1 {
			runAs(t, ls.URL, bobKey, runOpts{}, "answer", "1.2", "-m", "Minutes attached").must(t, 0)
			runAs(t, ls.URL, aliceKey, runOpts{}, "requests", "create", "--parent", "1", "--title", "Shareholder register").must(t, 0)
		}
		return nil
	}}
	before := ls.calls.Load()
	if err := activityRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	got := summary(records(t, out.String()))
	for _, want := range []string{"1.2 message.posted posted an answer\n", "1.2 request.status_moved moved open → complete\n", "1.3 request.created created the request\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("--follow missed %q:\n%s", want, got)
		}
	}
	if polls != 2 {
		t.Errorf("--count 3 slept %d times, want 2", polls)
	}
	// The new request is named: the list was read again for it.
	if !strings.Contains(out.String(), `"title":"Shareholder register"`) {
		t.Errorf("the new request is not named:\n%s", out)
	}
	if ls.calls.Load()-before > 20 {
		t.Errorf("three polls cost %d calls", ls.calls.Load()-before)
	}
}

func TestActivityHostileTitle(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	title := "Minutes \x1b]52;c;cm0gLXJmIH4K\x07 \x1b[2J\u202egnp.exe"
	runAs(t, ls.URL, aliceKey, runOpts{}, "requests", "create", "--parent", "1", "--title", title).must(t, 0)
	for _, color := range []bool{false, true} {
		r := runAs(t, ls.URL, aliceKey, runOpts{tty: true, color: color}, "activity")
		r.must(t, 0, "created the request")
		assertTerminalSafe(t, "activity", r.out+r.err)
		if !strings.Contains(r.out, "␛]52;c;") {
			t.Errorf("the escape is not shown visibly:\n%s", r.out)
		}
	}
	// JSON keeps the exact text for scripts.
	recs := records(t, runAs(t, ls.URL, aliceKey, runOpts{}, "activity", "-o", "json").out)
	if len(recs) == 0 || recs[len(recs)-1].Title != title {
		t.Errorf("-o json does not carry the exact title: %+v", recs)
	}
}

func TestActivityWithoutTheEventsExtension(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	for _, args := range [][]string{{"activity"}, {"audit", "downloads"}} {
		r := runAs(t, ls.URL, aliceKey, runOpts{env: map[string]string{"DEALCTL_NO_EXTENSIONS": "1"}}, args...)
		r.must(t, cmdutil.ExitFailure)
		if !strings.Contains(r.err, "events extension") || !strings.Contains(r.err, "dealctl watch") {
			t.Errorf("%v: stderr does not say what is missing and what works: %s", args, r.err)
		}
	}
}

// watchJSON runs watch -o json as key with between called at each sleep,
// and returns its events.
func watchJSON(t *testing.T, url, key string, env map[string]string, count int, between func(poll int)) []watchEvent {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	vars := map[string]string{"DEALCTL_SERVER": url, "DEALCTL_API_KEY": key, "DEALCTL_DEAL": "falcon",
		"XDG_CONFIG_HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir(), "DEALCTL_KEYRING": "file"}
	for k, v := range env {
		vars[k] = v
	}
	f := testFactory(t, ios, vars)
	f.Global.JSON = true
	poll := 0
	opts := &WatchOptions{cmdEnv: f.env(), Interval: time.Second, Count: count, Sleep: func(context.Context, time.Duration) error {
		poll++
		between(poll)
		return nil
	}}
	if err := watchRun(context.Background(), opts); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var evs []watchEvent
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if line == "" {
			continue
		}
		var ev watchEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		evs = append(evs, ev)
	}
	return evs
}

func TestWatchOnEventsMissesNothingBetweenPolls(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	// Several writes between two polls: two answers on 1.1 and three
	// moves, the last one back where it started.
	between := func(poll int) {
		if poll != 1 {
			return
		}
		runAs(t, ls.URL, bobKey, runOpts{}, "answer", "1.1", "--partial", "-m", "First part").must(t, 0)
		runAs(t, ls.URL, bobKey, runOpts{}, "answer", "1.1", "-m", "The rest").must(t, 0)
		runAs(t, ls.URL, aliceKey, runOpts{}, "status", "1.1", "open").must(t, 0)
	}
	evs := watchJSON(t, ls.URL, aliceKey, nil, 3, between)
	var got []string
	for _, ev := range evs {
		s := ev.Number + " " + ev.Type + " " + string(ev.From) + ">" + string(ev.To)
		if ev.Actor != nil {
			s += " by " + ev.Actor.Email
		}
		if ev.EventID == "" {
			t.Errorf("event without event_id: %+v", ev)
		}
		got = append(got, s)
	}
	want := []string{
		"1.1 answer > by bob@acme.example",
		"1.1 status open>partial by bob@acme.example",
		"1.1 answer > by bob@acme.example",
		"1.1 status partial>complete by bob@acme.example",
		"1.1 status complete>open by alice@target.example",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("watch on events printed\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The fields watch printed before events stay as they were.
	if len(evs) > 0 && (evs[0].Author != "bob@acme.example" || !evs[0].Partial || evs[0].MessageID == "" || evs[0].Title != "Certificate of incorporation") {
		t.Errorf("answer event lost its fields: %+v", evs[0])
	}

	// The same writes against the plain API (diffing): one status that
	// ended where it began shows as nothing, and nobody is named.
	ls2 := startLiveServer(t, 1_000_000)
	between2 := func(poll int) {
		if poll != 1 {
			return
		}
		runAs(t, ls2.URL, bobKey, runOpts{}, "answer", "1.1", "--partial", "-m", "First part").must(t, 0)
		runAs(t, ls2.URL, bobKey, runOpts{}, "answer", "1.1", "-m", "The rest").must(t, 0)
		runAs(t, ls2.URL, aliceKey, runOpts{}, "status", "1.1", "open").must(t, 0)
	}
	diffed := watchJSON(t, ls2.URL, aliceKey, map[string]string{"DEALCTL_NO_EXTENSIONS": "1"}, 3, between2)
	for _, ev := range diffed {
		if ev.Actor != nil || ev.EventID != "" {
			t.Errorf("diffing cannot know the actor or an event id: %+v", ev)
		}
	}
	if len(diffed) >= len(evs) {
		t.Errorf("diffing saw %d changes, events %d: the test does not show what events add", len(diffed), len(evs))
	}
}

// startAuditServer is a live server on testdata/world-audit.yaml.
func startAuditServer(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "dealctl.db")
	runAdminProcess(t, "apply", "-f", filepath.Join("testdata", "world-audit.yaml"), "--db", db)
	st, err := sqlstore.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	// Download links are built on the base URL: the listener's.
	hs := httptest.NewUnstartedServer(nil)
	srv, err := server.New(context.Background(), server.Config{Store: st, RateLimit: 1_000_000,
		BaseURL: "http://" + hs.Listener.Addr().String(),
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs.Config.Handler = srv
	hs.Start()
	t.Cleanup(hs.Close)
	return hs.URL
}

func TestAuditDownloads(t *testing.T) {
	t.Parallel()
	url := startAuditServer(t)
	// The counterparty downloads the file; the owning side's admin too.
	dir := t.TempDir()
	runAs(t, url, bobKey, runOpts{}, "download", "1.1", "-o", dir).must(t, 0)
	runAs(t, url, aliceKey, runOpts{}, "download", "1.1", "-o", t.TempDir()).must(t, 0)

	r := runAs(t, url, aliceKey, runOpts{}, "audit", "downloads", "-o", "json")
	r.must(t, 0)
	var recs []activityRecord
	if err := json.Unmarshal([]byte(r.out), &recs); err != nil {
		t.Fatal(err)
	}
	who := map[string]int{}
	for _, rec := range recs {
		if !activity.IsDownload(api.EventType(rec.Type)) {
			t.Errorf("a %s event in the download trail", rec.Type)
		}
		if rec.Actor != nil {
			who[rec.Actor.Email]++
		}
	}
	if who["bob@acme.example"] == 0 || who["alice@target.example"] == 0 {
		t.Errorf("the trail does not name both downloaders: %v\n%s", who, r.out)
	}

	// csv: a file name that a spreadsheet would run is written inert.
	r = runAs(t, url, aliceKey, runOpts{}, "audit", "downloads", "-o", "csv")
	r.must(t, 0)
	rows, err := csv.NewReader(strings.NewReader(r.out)).ReadAll()
	if err != nil {
		t.Fatalf("-o csv is not csv: %v\n%s", err, r.out)
	}
	if len(rows) < 3 || strings.Join(rows[0], ",") != "AT,PERSON,EMAIL,REQUEST,TITLE,WHAT,TYPE,ID" {
		t.Fatalf("csv:\n%s", r.out)
	}
	for _, row := range rows[1:] {
		for _, cell := range row {
			if strings.HasPrefix(cell, "=") || strings.HasPrefix(cell, "+") || strings.HasPrefix(cell, "@") {
				t.Errorf("a cell a spreadsheet would run: %q", cell)
			}
		}
		if !strings.Contains(row[5], "HYPERLINK") {
			t.Errorf("the file is not named in %q", row)
		}
	}

	// Anyone but the owning side's project admins: exit 4, and why.
	for key, seat := range map[string]string{tomKey: "an editor of the owning side", bobKey: "a project admin of the counterparty"} {
		name := seat
		r := runAs(t, url, key, runOpts{}, "audit", "downloads")
		r.must(t, cmdutil.ExitAuth)
		if !strings.Contains(r.err, "owning side's project admins") || !strings.Contains(r.err, "acts as "+seat) {
			t.Errorf("%s: stderr does not say who may: %s", name, r.err)
		}
		if r.out != "" {
			t.Errorf("%s: printed %q", name, r.out)
		}
	}
	// And the download events never reach the counterparty's feed.
	got := summary(records(t, runAs(t, url, bobKey, runOpts{}, "activity", "-o", "json").out))
	if strings.Contains(got, "file.link_issued") || strings.Contains(got, "file.fetched") {
		t.Errorf("the counterparty sees download events:\n%s", got)
	}
}

func TestAuditDownloadsOnUnknownDeal(t *testing.T) {
	t.Parallel()
	url := startAuditServer(t)
	r := runAs(t, url, aliceKey, runOpts{}, "audit", "downloads", "-d", "Nope")
	r.must(t, cmdutil.ExitNotFound)
	if !strings.Contains(r.err, "no deal") {
		t.Errorf("stderr: %s", r.err)
	}
}

// A server that refuses the events call itself (a proxy's rule, a
// server's own policy): a line that says what it means, and exit 4 or 3.
func TestActivityRefusedByTheServer(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	for status, code := range map[int]int{http.StatusForbidden: cmdutil.ExitAuth, http.StatusNotFound: cmdutil.ExitNotFound} {
		refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/events") {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("X-Dealctl-Extensions", "events")
				w.WriteHeader(status)
				_ = json.NewEncoder(w).Encode(api.ErrorResponse{Code: map[int]api.ErrorCode{403: api.CodeForbidden, 404: api.CodeNotFound}[status]})
				return
			}
			ls.handler.ServeHTTP(w, r)
		}))
		t.Cleanup(refusing.Close)
		for _, args := range [][]string{{"activity"}, {"audit", "downloads"}, {"watch", "--count", "1"}} {
			r := runAs(t, refusing.URL, aliceKey, runOpts{}, args...)
			r.must(t, code)
			if !strings.Contains(r.err, "events of Falcon") || !strings.Contains(r.err, strconv.Itoa(status)) {
				t.Errorf("%v on a %d: %s", args, status, r.err)
			}
		}
	}
}
