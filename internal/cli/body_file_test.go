package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

// TestEmptyBodyFileIsRefused: -F that reads nothing (an empty pipe, an
// empty file) is a usage error, not a blanked body; --body ” clears it
// on purpose.
func TestEmptyBodyFileIsRefused(t *testing.T) {
	t.Parallel()
	empty := filepath.Join(t.TempDir(), "empty.md")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ts := newFalcon(t)
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"requests", "edit", "1.1", "-F", "-"}, "nothing read from stdin (-F -): to clear the body, pass --body ''"},
		{"\n", []string{"requests", "edit", "1.1", "-F", "-"}, "nothing read from stdin"},
		{"", []string{"requests", "edit", "1.1", "-F", empty}, "nothing read from " + empty},
		{"", []string{"requests", "create", "--title", "T", "-F", "-"}, "to create the request without a body, drop -F"},
	} {
		r := run(t, ts, runOpts{stdin: c.stdin}, c.args...)
		if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, r.code, r.err, c.want)
		}
	}
	if n := ts.callsTo("PATCH ") + ts.callsTo("POST "); n != 0 {
		t.Errorf("%d writes made", n)
	}
	if ts.row(t, "1.1").Body == "" {
		t.Error("1.1's body was erased")
	}
}
