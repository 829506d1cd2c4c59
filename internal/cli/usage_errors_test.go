package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlagGroupsAreUsageErrors: flags that exclude each other exit 2 with
// a sentence naming them as typed, not cobra's words and exit 1.
func TestFlagGroupsAreUsageErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f.md")
	if err := os.WriteFile(file, []byte("text"), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := newFalcon(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"answer", "1.1", "-m", "x", "-F", file}, "dealctl: -F/--file and -m/--message cannot be used together: give only one (see 'dealctl answer --help')\n"},
		{[]string{"requests", "edit", "1.1", "--body", "B", "-F", file}, "dealctl: --body and -F/--body-file cannot be used together: give only one (see 'dealctl requests edit --help')\n"},
		{[]string{"requests", "create", "--title", "T", "--body", "B", "-F", file}, "cannot be used together"},
	} {
		r := run(t, ts, runOpts{}, c.args...)
		if r.code != ExitUsage || !strings.Contains(r.err, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, r.code, r.err, c.want)
		}
	}
	if len(ts.callList()) != 0 {
		t.Errorf("calls made: %v", ts.callList())
	}
}

// TestAPIMethodIsChecked: a method that is not one is refused before
// anything is sent.
func TestAPIMethodIsChecked(t *testing.T) {
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "api", "FOO", "/me")
	if r.code != ExitUsage || !strings.Contains(r.err, `"FOO" is not an HTTP method: use GET, POST, PATCH, PUT, DELETE, HEAD`) {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
	if len(ts.callList()) != 0 {
		t.Errorf("calls made: %v", ts.callList())
	}
	run(t, ts, runOpts{}, "api", "get", "/me").must(t, 0, `"Target Co"`)
}
