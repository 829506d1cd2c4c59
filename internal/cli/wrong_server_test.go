package cli

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

// TestWrongServerIsNotNotFound: an address that answers, but not as a
// dealctl API (a 404 page with no ErrorResponse), is reported as the
// wrong server to check, exit 1, not as a missing deal or request.
func TestWrongServerIsNotNotFound(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler()) // "404 page not found", text/plain
	t.Cleanup(srv.Close)
	env := map[string]string{"DEALCTL_SERVER": srv.URL}
	want := srv.URL + " does not answer as a dealctl API (HTTP 404 for GET /api/v1/me): check --server / DEALCTL_SERVER"
	r := run(t, nil, runOpts{env: env}, "whoami")
	if r.code != cmdutil.ExitFailure || !strings.Contains(r.err, want) {
		t.Errorf("exit %d, stderr %q, want exit 1 and %q", r.code, r.err, want)
	}
	r = run(t, nil, runOpts{env: env}, "requests", "ls")
	if r.code != cmdutil.ExitFailure || !strings.Contains(r.err, "does not answer as a dealctl API (HTTP 404 for GET /api/v1/deals)") {
		t.Errorf("requests ls: exit %d, stderr %q", r.code, r.err)
	}
	// A dealctl server under a wrong path: its 404 for /me, which every
	// dealctl API serves, means the address is wrong.
	ls := startLiveServer(t, 0)
	r = runLive(t, ls.URL+"/x", "whoami")
	if r.code != cmdutil.ExitFailure || !strings.Contains(r.err, ls.URL+"/x does not answer as a dealctl API (HTTP 404 for GET /api/v1/me)") {
		t.Errorf("wrong prefix: exit %d, stderr %q", r.code, r.err)
	}
	ts := newFalcon(t)
	// A real server's 404 still reads as not found.
	r = run(t, ts, runOpts{}, "api", "GET", "/deals/"+ts.dealID()+"/requests/"+ts.id("1.1")+"0")
	if r.code != cmdutil.ExitNotFound || !strings.Contains(r.err, "not found") {
		t.Errorf("a dealctl 404: exit %d, stderr %q", r.code, r.err)
	}
}

// TestServerWithAnotherAPIPath: a --server ending in another API path
// (…/api/v2) is a usage error naming the fix, before any call, rather
// than 404s that read as a missing deal (exit 3).
func TestServerWithAnotherAPIPath(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{env: map[string]string{"DEALCTL_SERVER": ts.URL + "/api/v2"}}, "requests", "ls")
	if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, "ends in /api/v2, and dealctl speaks API v1: give the server's address ("+ts.URL+")") {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
	if n := len(ts.callList()); n != 0 {
		t.Errorf("%d calls made", n)
	}
}

// TestExpiredKeySaysSo: a key that has expired is told apart from an
// unknown one, with what to do (exit 4 both).
func TestExpiredKeySaysSo(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 1_000_000)
	r := runAs(t, ls.URL, "dlk_old0000000000000000000000000000000000", runOpts{}, "whoami")
	if r.code != cmdutil.ExitAuth || !strings.Contains(r.err, "the API key has expired: ask an admin of the deal for a new one") {
		t.Errorf("expired: exit %d, stderr %q", r.code, r.err)
	}
	r = runAs(t, ls.URL, "dlk_unknown0000000000000000000000000000", runOpts{}, "whoami")
	if r.code != cmdutil.ExitAuth || !strings.Contains(r.err, "unknown, expired or revoked") {
		t.Errorf("unknown: exit %d, stderr %q", r.code, r.err)
	}
}
