package cli

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// With the deal and the list in the cache (one earlier command), acting on
// one request by number costs at most two calls: the list, confirmed by a
// 304 or read again when it changed, and the write. Counted at the real
// server.
func TestActionsByNumberCostTwoCalls(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	env := map[string]string{"DEALCTL_SERVER": ls.URL, "DEALCTL_API_KEY": aliceKey, "XDG_CACHE_HOME": t.TempDir(), "DEALCTL_DEBUG": "api"}
	do := func(args ...string) (result, int64) {
		before := ls.calls.Load()
		r := run(t, nil, runOpts{env: env}, args...)
		return r, ls.calls.Load() - before
	}
	r, _ := do("requests", "ls")
	r.must(t, 0)

	for _, c := range []struct {
		args  []string
		out   string
		calls int64
	}{
		{[]string{"status", "1.1", "partial"}, "1.1 moved from open to partial", 2},
		{[]string{"status", "1.1", "partial"}, "1.1 is already partial; nothing to do", 1},
		{[]string{"answer", "1.2", "-m", "Minutes attached."}, "1.2 is now complete", 2},
		{[]string{"answer", "1.1", "-m", "When?", "--kind", "question"}, "1.1: status unchanged (partial)", 2},
		{[]string{"requests", "edit", "1.1", "--title", "Certificate, certified"}, "1.1\tpartial\t", 2},
		{[]string{"requests", "assign", "1.1", "--to", "none"}, "1.1\tpartial\t", 2},
	} {
		r, n := do(c.args...)
		if !strings.Contains(r.out+r.err, c.out) {
			t.Errorf("%v: neither stdout %q nor stderr %q says %q", c.args, r.out, r.err, c.out)
		}
		if n > c.calls {
			t.Errorf("%v made %d calls, want at most %d:\n%s", c.args, n, c.calls, r.err)
		}
	}
	// What was said is what the server holds.
	for _, row := range liveRows(t, ls.URL) {
		switch {
		case row.Number == "1.1" && (row.Status != api.StatusPartial || row.Title != "Certificate, certified" || row.AssigneeID != nil):
			t.Errorf("1.1 on the server: %+v", row)
		case row.Number == "1.2" && row.Status != api.StatusComplete:
			t.Errorf("1.2 on the server is %s, want complete", row.Status)
		}
	}
}

// -o json of answer prints the request as the server has it after the
// post, as it always has: that costs a read of the request.
func TestAnswerJSONPrintsTheRequestAfter(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	r := runLive(t, ls.URL, "answer", "1.2", "-m", "Minutes attached.", "--partial", "-o", "json")
	r.must(t, 0)
	var got answerResult
	if err := json.Unmarshal([]byte(r.out), &got); err != nil {
		t.Fatal(err)
	}
	for _, row := range liveRows(t, ls.URL) {
		if row.Number == "1.2" && (got.Request.Status != api.StatusPartial || !got.Request.UpdatedAt.Equal(row.UpdatedAt) ||
			got.Request.LatestAnswer == nil || got.Message.Text != "Minutes attached.") {
			t.Errorf("-o json = %s\nserver's row: %+v", r.out, row)
		}
	}
}

// A deal remembered by codename that the server no longer knows under
// that id (here: a /deals answer that named another id) is looked up
// again, and the command goes on with the deal the server names now.
func TestRememberedDealLookedUpAgainWhenGone(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	var lie atomic.Bool
	lie.Store(true)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/deals" || !lie.CompareAndSwap(true, false) {
			ls.handler.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		ls.handler.ServeHTTP(rec, r)
		var deals []api.Deal
		if err := json.Unmarshal(rec.Body.Bytes(), &deals); err != nil {
			t.Error(err)
		}
		for i := range deals {
			deals[i].ID = "00000000-0000-4000-8000-00000000000" + string(rune('1'+i))
		}
		var body bytes.Buffer
		_ = json.NewEncoder(&body).Encode(deals)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"not-the-servers"`)
		_, _ = w.Write(body.Bytes())
	}))
	t.Cleanup(proxy.Close)
	env := map[string]string{"DEALCTL_SERVER": proxy.URL, "DEALCTL_API_KEY": aliceKey, "XDG_CACHE_HOME": t.TempDir()}
	run(t, nil, runOpts{env: env}, "deals", "ls").must(t, 0, "Falcon")

	r := run(t, nil, runOpts{env: env}, "status", "1.1", "complete")
	r.confirms(t, 0, "1.1 moved from open to complete")
	if strings.Contains(r.err, "not found") {
		t.Errorf("stderr = %q", r.err)
	}
}
