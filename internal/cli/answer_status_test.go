package cli

import (
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

// TestAnswerSaysWhetherTheStatusMoved: "is now" only when it moved.
func TestAnswerSaysWhetherTheStatusMoved(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--kind", "question"}, "1.1: status unchanged (open)\n"},
		{[]string{"--no-status"}, "1.1: status unchanged (open)\n"},
		{nil, "1.1 is now complete\n"},
	} {
		r := run(t, ts, runOpts{tty: true}, append([]string{"answer", "1.1", "-m", "x"}, c.args...)...)
		r.must(t, 0, c.want)
		if c.want != "1.1 is now complete\n" && strings.Contains(r.out, "is now") {
			t.Errorf("%v: says the status moved:\n%s", c.args, r.out)
		}
	}
}

// TestAnswerPartialNeedsAStatusMove: --partial with --no-status or a
// message that is not a response is a usage error, before any call.
func TestAnswerPartialNeedsAStatusMove(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	for _, extra := range [][]string{{"--no-status"}, {"--kind", "question"}, {"--kind", "internal_note"}} {
		r := run(t, ts, runOpts{}, append([]string{"answer", "1.1", "-m", "x", "--partial"}, extra...)...)
		if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, "--partial") {
			t.Errorf("%v: exit %d, stderr %q", extra, r.code, r.err)
		}
	}
	if len(ts.callList()) != 0 {
		t.Errorf("calls made: %v", ts.callList())
	}
	run(t, ts, runOpts{}, "answer", "1.1", "-m", "x", "--partial", "--kind", "response").must(t, 0)
}

// TestAPIFieldsOnGETAreQueryParameters: as in gh api, -f on a GET is sent
// as the query, not dropped.
func TestAPIFieldsOnGETAreQueryParameters(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	run(t, ts, runOpts{}, "api", "GET", "/me", "-f", "x=1").must(t, 0)
	sent := ts.sentTo("GET /api/v1/me")
	if len(sent) != 1 || sent[0].URL.Query().Get("x") != "1" {
		t.Errorf("sent %v, want GET /api/v1/me?x=1", sent)
	}
}
