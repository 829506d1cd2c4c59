package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// requests ls prints the same rows whether or not the server filters:
// with list-filters the mapped filters go in the query and the answer is
// filtered again; without, nothing is sent and all is filtered here.
func TestRequestsListServerFilters(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args  []string
		query string // sent when the server advertises list-filters
		want  string
	}{
		{nil, "", "1 1.1 1.2 2 2.1"},
		{[]string{"--status", "open,partial"}, "status=open%2Cpartial", "1.1 1.2"},
		{[]string{"--priority", "high", "--category", "legal"}, "category=legal&priority=high", "1.1"},
		{[]string{"--assignee", "me"}, "assignee_id=ALICE", "2.1"}, // alice's person id
		{[]string{"--assignee", "none"}, "assignee_id=none", "1.2"},
		{[]string{"--status", "open,partial", "--section", "1"}, "status=open%2Cpartial", "1.1 1.2"},
		// Section 2 holds nothing open: it is not in the filtered answer,
		// and still resolves (from the whole list).
		{[]string{"--status", "open", "--section", "2"}, "status=open", ""},
		{[]string{"--status", "open", "--section", "9"}, "status=open", "!3"},
		{[]string{"--status", "open,partial", "--search", "tax"}, "status=open%2Cpartial", "1.2"},
		{[]string{"--overdue"}, "", "1.1"},
	}
	for _, c := range cases {
		var outs [2]string
		for i, ext := range []bool{false, true} {
			ts := newFalcon(t)
			ts.set(func(ts *liveAPI) { ts.hideExt = !ext })
			r := run(t, ts, runOpts{}, append([]string{"requests", "ls"}, c.args...)...)
			if strings.HasPrefix(c.want, "!") {
				r.must(t, cmdutil.ExitNotFound)
			} else {
				r.must(t, 0)
				if got := numbers(r.out); got != c.want {
					t.Errorf("ext=%v requests ls %v = %q, want %q", ext, c.args, got, c.want)
				}
			}
			outs[i] = r.out + r.err
			lists := ts.sentTo("GET /api/v1/deals/" + ts.dealID() + "/requests")
			if len(lists) == 0 {
				t.Fatalf("ext=%v %v: no list call", ext, c.args)
			}
			want := ""
			if ext {
				want = strings.ReplaceAll(c.query, "ALICE", ts.person("alice"))
			}
			if q := lists[0].URL.RawQuery; q != want {
				t.Errorf("ext=%v requests ls %v sent query %q, want %q", ext, c.args, q, want)
			}
		}
		if outs[0] != outs[1] {
			t.Errorf("requests ls %v differs with server filters:\n%s\n--- vs ---\n%s", c.args, outs[0], outs[1])
		}
	}
}

// edit, assign and status send a precondition where the server takes
// it, and only there: If-Match with the request's ETag when it was named
// by id and so read on its own; for a number, the row comes from the list
// just read or confirmed and no call is made only to fetch an ETag, so
// the row's updated_at goes as X-Dealctl-If-Updated-At (if-updated-at).
func TestIfMatchOnWrites(t *testing.T) {
	t.Parallel()
	// ID stands for 1.1's id; ETAG for the ETag its read was answered with.
	for _, c := range []struct {
		args    []string
		ifMatch string
	}{
		{[]string{"requests", "edit", "1.1", "--title", "Certificate"}, "UPDATED_AT"},
		{[]string{"requests", "assign", "1.1", "--to", "none"}, "UPDATED_AT"},
		{[]string{"requests", "status", "1.1", "complete"}, "UPDATED_AT"},
		{[]string{"requests", "edit", "ID", "--title", "Certificate"}, "ETAG"},
		{[]string{"requests", "status", "ID", "complete"}, "ETAG"},
	} {
		for _, ext := range []bool{false, true} {
			ts := newFalcon(t)
			ts.set(func(ts *liveAPI) { ts.hideExt = !ext })
			args := slices.Clone(c.args)
			if i := slices.Index(args, "ID"); i >= 0 {
				args[i] = ts.id("1.1")
			}
			run(t, ts, runOpts{}, args...).must(t, 0)
			patches := ts.sentTo("PATCH ")
			if len(patches) != 1 {
				t.Fatalf("%v: %d PATCHes", args, len(patches))
			}
			want := map[bool]string{true: c.ifMatch}[ext]
			updatedAt := patches[0].Header.Get("X-Dealctl-If-Updated-At")
			if want == "UPDATED_AT" {
				if _, err := time.Parse(time.RFC3339Nano, updatedAt); err != nil {
					t.Errorf("ext=%v %v: X-Dealctl-If-Updated-At %q, want the row's updated_at", ext, args, updatedAt)
				}
				want = ""
			} else if updatedAt != "" {
				t.Errorf("ext=%v %v: X-Dealctl-If-Updated-At %q, want none", ext, args, updatedAt)
			}
			if want == "ETAG" {
				reads := ts.sentTo("GET /api/v1/deals/" + ts.dealID() + "/requests/" + ts.id("1.1"))
				if len(reads) != 1 || reads[0].etag == "" {
					t.Fatalf("%v: %d reads of the request, want one answered with an ETag", args, len(reads))
				}
				want = reads[0].etag
			}
			if got := patches[0].Header.Get("If-Match"); got != want {
				t.Errorf("ext=%v %v: If-Match %q, want %q", ext, args, got, want)
			}
		}
	}
}

// Someone changes the request between dealctl's read of it (named by id)
// and its PATCH: one line saying so, exit 5, and with --json the
// server's ErrorResponse.
func TestConflictStaleMessage(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	ts.set(func(ts *liveAPI) { ts.meddler = ts.id("1.1") })
	r := run(t, ts, runOpts{}, "requests", "status", ts.id("1.1"), "complete")
	r.must(t, cmdutil.ExitConflict)
	if want := "dealctl: 1.1 was changed by someone else after dealctl read it: nothing was saved; run the command again to apply your change to the current version\n"; r.err != want {
		t.Errorf("stderr = %q\nwant     %q", r.err, want)
	}
	r = run(t, ts, runOpts{}, "requests", "edit", ts.id("1.1"), "--title", "New", "--json")
	r.must(t, cmdutil.ExitConflict)
	var er api.ErrorResponse
	if err := json.Unmarshal([]byte(r.err), &er); err != nil || er.Code != api.CodeConflictStale {
		t.Errorf("--json stderr = %q (%v), want the server's conflict_stale", r.err, err)
	}
	if row := ts.row(t, "1.1"); row.Title != "Certificate of incorporation" || row.Status != api.StatusOpen {
		t.Errorf("a stale write landed: %+v", row)
	}
}

// create and answer send an Idempotency-Key where advertised and then
// survive a 5xx by retrying with the same key; without the extension a
// failed POST is not sent again.
func TestIdempotentPosts(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"answer", "1.1", "-m", "Here it is."},
		{"requests", "create", "--title", "Board minutes", "--parent", "1"},
	} {
		ts := newFalcon(t)
		ts.set(func(ts *liveAPI) { ts.failPOS = 1 })
		run(t, ts, runOpts{}, args...).must(t, 0)
		posts := ts.sentTo("POST ")
		if len(posts) != 2 {
			t.Fatalf("%v: %d POSTs, want 2 (a 503, then the retry)", args, len(posts))
		}
		k0, k1 := posts[0].Header.Get("Idempotency-Key"), posts[1].Header.Get("Idempotency-Key")
		if k0 == "" || k0 != k1 {
			t.Errorf("%v: keys %q then %q, want one key reused", args, k0, k1)
		}

		ts = newFalcon(t)
		ts.set(func(ts *liveAPI) { ts.hideExt, ts.failPOS = true, 1 })
		r := run(t, ts, runOpts{}, args...)
		r.must(t, cmdutil.ExitFailure)
		posts = ts.sentTo("POST ")
		if len(posts) != 1 || posts[0].Header.Get("Idempotency-Key") != "" {
			t.Errorf("%v without the extension: %d POSTs, key %q; want 1 and none", args, len(posts), posts[0].Header.Get("Idempotency-Key"))
		}
	}
}

// DEALCTL_NO_EXTENSIONS turns them off even where advertised.
func TestNoExtensionsSetting(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	run(t, ts, runOpts{env: map[string]string{"DEALCTL_NO_EXTENSIONS": "1"}}, "requests", "ls", "--status", "open").must(t, 0, "1.1")
	run(t, ts, runOpts{env: map[string]string{"DEALCTL_NO_EXTENSIONS": "1"}}, "requests", "edit", "1.1", "--title", "T").must(t, 0)
	for _, r := range ts.sentTo("") {
		if r.URL.RawQuery != "" || r.Header.Get("If-Match") != "" {
			t.Errorf("%s %s sent %q / If-Match %q with extensions off", r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("If-Match"))
		}
	}
}

// Against the real server: someone changes 1.1 between dealctl's read of
// it (named by id) and its PATCH (a proxy slips a write in first), and the
// real If-Match check answers conflict_stale; a POST whose answer is lost (the proxy drops it
// after the server wrote it) is retried under the same Idempotency-Key
// and the server replays it instead of posting twice.
func TestExtensionsLive(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 6000)
	var meddle, dropPost atomic.Bool
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch && r.Header.Get("If-Match") != "" && meddle.CompareAndSwap(true, false) {
			other := httptest.NewRequest(http.MethodPatch, r.URL.Path, strings.NewReader(`{"requester":"Someone else"}`))
			other.Header.Set("Authorization", "Bearer "+aliceKey)
			ls.handler.ServeHTTP(httptest.NewRecorder(), other)
		}
		if r.Method == http.MethodPost && r.Header.Get("Idempotency-Key") != "" && dropPost.CompareAndSwap(true, false) {
			ls.handler.ServeHTTP(httptest.NewRecorder(), r)
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		ls.handler.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)

	var id11 string
	for _, row := range liveRows(t, ls.URL) {
		if row.Number == "1.1" {
			id11 = row.ID
		}
	}
	meddle.Store(true)
	r := runLive(t, proxy.URL, "requests", "edit", id11, "--title", "Certificate, certified")
	r.must(t, cmdutil.ExitConflict)
	if !strings.Contains(r.err, "1.1 was changed by someone else") {
		t.Errorf("stderr = %q", r.err)
	}
	r = runLive(t, proxy.URL, "requests", "edit", id11, "--title", "Certificate, certified")
	r.must(t, 0)

	dropPost.Store(true)
	runLive(t, proxy.URL, "answer", "1.2", "-m", "Minutes attached.").must(t, 0)
	r = runLive(t, proxy.URL, "messages", "ls", "1.2", "--json")
	r.must(t, 0)
	if n := strings.Count(r.out, "Minutes attached."); n != 1 {
		t.Errorf("the answer is on 1.2 %d times, want once:\n%s", n, r.out)
	}
	if dropPost.Load() {
		t.Error("the POST was never sent with an Idempotency-Key")
	}
}

// Against the real server: someone changes 1.1 between the list read that
// resolved the number and the status move (a proxy slips a write in
// first). The move carries the row's updated_at from the list, so it is a
// conflict (exit 5) and the other change is not overwritten; run again, it
// lands.
func TestStatusByNumberSeesAChangeSinceTheList(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 6000)
	var meddle atomic.Bool
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch && meddle.CompareAndSwap(true, false) {
			if r.Header.Get("X-Dealctl-If-Updated-At") == "" {
				t.Errorf("the move by number sent no updated_at precondition (If-Match %q)", r.Header.Get("If-Match"))
			}
			other := httptest.NewRequest(http.MethodPatch, r.URL.Path, strings.NewReader(`{"status":"partial"}`))
			other.Header.Set("Authorization", "Bearer "+aliceKey)
			ls.handler.ServeHTTP(httptest.NewRecorder(), other)
		}
		ls.handler.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	status := func() api.RequestStatus {
		for _, row := range liveRows(t, ls.URL) {
			if row.Number == "1.1" {
				return row.Status
			}
		}
		t.Fatal("no 1.1")
		return ""
	}
	if s := status(); s == api.StatusPartial || s == api.StatusComplete {
		t.Fatalf("1.1 starts %s; the test needs another status", s)
	}
	meddle.Store(true)
	r := runLive(t, proxy.URL, "requests", "status", "1.1", "complete")
	r.must(t, cmdutil.ExitConflict)
	if !strings.Contains(r.err, "1.1 was changed by someone else") {
		t.Errorf("stderr = %q", r.err)
	}
	if s := status(); s != api.StatusPartial {
		t.Errorf("1.1 is %s after the refused move, want the other change (partial) kept", s)
	}
	runLive(t, proxy.URL, "requests", "status", "1.1", "complete").must(t, 0)
	if s := status(); s != api.StatusComplete {
		t.Errorf("1.1 is %s after the second move, want complete", s)
	}
}
