package cli

import (
	"bytes"
	"context"
	"testing"

	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
)

// `requests ls -o json` prints the real server's list without decoding it;
// that must be byte-for-byte what decoding and encoding it print.
func TestRequestsListJSONUndecoded(t *testing.T) {
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
	if err := output.WriteJSON(&want, rows); err != nil {
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
	fa := newFakeAPI(t)
	r := run(t, fa, runOpts{env: map[string]string{"DEALCTL_DEAL": dealID}}, "requests", "ls", "-o", "json")
	r.must(t, 0, `"number": "2.1"`)
	if n := fa.callsTo("GET /api/v1/deals/" + dealID + "/requests"); n != 1 || len(fa.calls) != 1 {
		t.Errorf("calls %v, want the list alone", fa.calls)
	}
	missing := "99999999-9999-4999-8999-999999999999"
	r = run(t, fa, runOpts{env: map[string]string{"DEALCTL_DEAL": missing}}, "requests", "ls", "-o", "json")
	r.must(t, ExitNotFound)
	if want := `{"code":"not_found","params":{"message":"no deal ` + missing + ` reachable with this key: see 'dealctl deals ls'"}}` + "\n"; r.err != want {
		t.Errorf("stderr %q, want %q", r.err, want)
	}
}
