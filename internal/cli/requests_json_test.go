package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
)

// `requests ls -o json` prints the real server's list without decoding it;
// that must be byte-for-byte what decoding and encoding it print.
func TestRequestsListJSONUndecoded(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 6000)
	runLive(t, ls.URL, "requests", "edit", "1.1", "--title", `Certificate <b> & "seal"`, "--body", "a\u2028b & <c>").must(t, 0)
	c, err := client.New(client.Options{BaseURL: ls.URL, Key: aliceKey})
	if err != nil {
		t.Fatal(err)
	}
	scope, err := resolveDeal(context.Background(), c, "falcon")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := c.Requests(context.Background(), scope.Deal.ID)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := display.WriteJSON(&want, rows); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-o", "json"}, {"--json"}} {
		r := runLive(t, ls.URL, append([]string{"requests", "ls"}, args...)...)
		r.must(t, 0, `"title": "Certificate <b> & \"seal\""`)
		if r.out != want.String() {
			t.Errorf("requests ls %v differs from the decoded list:\n%s\n--- want\n%s", args, r.out, want.String())
		}
	}
}

// By id, the deal is not looked up first, and an unknown one still says
// so (exit 3), as any command does.
func TestRequestsListJSONByID(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{env: map[string]string{"DEALCTL_DEAL": ts.dealID()}}, "requests", "ls", "-o", "json")
	r.must(t, 0, `"number": "2.1"`)
	if n := ts.callsTo("GET /api/v1/deals/" + ts.dealID() + "/requests"); n != 1 || len(ts.callList()) != 1 {
		t.Errorf("calls %v, want the list alone", ts.callList())
	}
	missing := "99999999-9999-4999-8999-999999999999"
	r = run(t, ts, runOpts{env: map[string]string{"DEALCTL_DEAL": missing}}, "requests", "ls", "-o", "json")
	r.must(t, cmdutil.ExitNotFound)
	if want := `{"code":"not_found","params":{"message":"no deal ` + missing + ` reachable with this key: see 'dealctl deals ls'"}}` + "\n"; r.err != want {
		t.Errorf("stderr %q, want %q", r.err, want)
	}
}

// A repeated `requests ls -o json` is answered with a 304 and the laid-out
// list the cache kept, and prints the same bytes; the table, which reads
// the same cache entry decoded, prints the same rows whichever form the
// entry is in.
func TestRequestsListJSONFromTheCache(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 6000)
	cache := t.TempDir()
	runCached := func(args ...string) result {
		t.Helper()
		return run(t, nil, runOpts{env: map[string]string{"DEALCTL_SERVER": ls.URL, "DEALCTL_API_KEY": aliceKey, "XDG_CACHE_HOME": cache}}, args...)
	}
	table := runCached("requests", "ls")
	table.must(t, 0, "1.1")
	first := runCached("requests", "ls", "-o", "json") // lays out the entry the table read
	first.must(t, 0, `"number": "1.1"`)
	again := runCached("requests", "ls", "-o", "json")
	again.must(t, 0)
	if again.out != first.out {
		t.Errorf("the cached listing differs:\n%s\n--- first\n%s", again.out, first.out)
	}
	if tableAgain := runCached("requests", "ls"); tableAgain.out != table.out {
		t.Errorf("the table from the laid-out entry differs:\n%s\n--- before\n%s", tableAgain.out, table.out)
	}
	entries, _ := filepath.Glob(filepath.Join(cache, "dealctl", "http", "*", "*.json"))
	laidOut := 0
	for _, e := range entries {
		if b, err := os.ReadFile(e); err == nil && bytes.Contains(bytes.SplitN(b, []byte("\n"), 2)[0], []byte("\tindented-list")) {
			laidOut++
		}
	}
	if laidOut != 1 {
		t.Errorf("%d of %d cache entries hold the laid-out list, want 1", laidOut, len(entries))
	}
	// A change on the server is seen at once.
	runLive(t, ls.URL, "requests", "edit", "1.1", "--title", "Renamed after caching").must(t, 0)
	runCached("requests", "ls", "-o", "json").must(t, 0, `"title": "Renamed after caching"`)
}

// A server answering an empty deal with nothing or null (padded or not)
// still gives scripts an array; anything after null is refused. (Words
// such as "nul" are passed through as the layout does not parse literals:
// see output.WriteRawJSON.)
func TestLayOutListEmptyAnswers(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "[]\n", "  \n": "[]\n", "null": "[]\n", "\n null \n\n": "[]\n", "[]": "[]\n", ` [ {"a":1} ]`: "[\n  {\n    \"a\": 1\n  }\n]\n"} {
		var out bytes.Buffer
		if err := layOutList(&out, strings.NewReader(in)); err != nil || out.String() != want {
			t.Errorf("layOutList(%q) = %q, %v; want %q", in, out.String(), err, want)
		}
	}
	for _, in := range []string{"null x", "null [", " null\n{}"} {
		if err := layOutList(io.Discard, strings.NewReader(in)); err == nil {
			t.Errorf("layOutList(%q) accepted it", in)
		}
	}
}
