package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/iostreams"
	"github.com/spf13/cobra"
)

// TestFlagGroupsAreUsageErrors: flags that exclude each other exit 2 with
// a sentence naming them as typed, not cobra's words and exit 1.
func TestFlagGroupsAreUsageErrors(t *testing.T) {
	t.Parallel()
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
		if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, c.want) {
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
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{}, "api", "FOO", "/me")
	if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, `"FOO" is not an HTTP method: use GET, POST, PATCH, PUT, DELETE, HEAD`) {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
	if len(ts.callList()) != 0 {
		t.Errorf("calls made: %v", ts.callList())
	}
	run(t, ts, runOpts{}, "api", "get", "/me").must(t, 0, `"Target Co"`)
}

// TestUnknownSubcommandIsAUsageError: every command group answers a word
// it does not know with exit 2 and the command to run, before any call;
// with no word it shows its help and exits 0.
func TestUnknownSubcommandIsAUsageError(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	var groups [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			p := append(slices.Clone(path), sub.Name())
			if sub.HasSubCommands() {
				groups = append(groups, p)
			}
			walk(sub, p)
		}
	}
	io, _, _, _ := iostreams.Test()
	walk(NewCmdClient(NewFactory(io)), nil)
	if len(groups) < 4 {
		t.Fatalf("found only %d command groups: %v", len(groups), groups)
	}
	for _, g := range groups {
		r := run(t, ts, runOpts{}, append(slices.Clone(g), "nosuch")...)
		want := `unknown command "nosuch" for "dealctl ` + strings.Join(g, " ") + `"`
		if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, want) {
			t.Errorf("%v nosuch: exit %d, stderr %q, want 2 and %q", g, r.code, r.err, want)
		}
		run(t, ts, runOpts{}, g...).must(t, 0, "Available Commands")
	}
	if len(ts.callList()) != 0 {
		t.Errorf("calls made: %v", ts.callList())
	}
}

// TestUnreadableSettingIsAUsageError: a DEALCTL_* value the client cannot
// read stops the command with exit 2, naming the variable, before any call.
func TestUnreadableSettingIsAUsageError(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	r := run(t, ts, runOpts{env: map[string]string{"DEALCTL_NO_CACHE": "yes"}}, "requests", "ls")
	r.must(t, cmdutil.ExitUsage)
	if !strings.Contains(r.err, "fix DEALCTL_NO_CACHE") || ts.callsTo("/") != 0 {
		t.Errorf("stderr %q, %d calls; want the variable named and no call", r.err, ts.callsTo("/"))
	}
}

// TestArgumentMistakesSayTheFix: a wrong number of arguments names the
// usage and the likely fix (the quoting of a message cut at its first
// space, the statuses), and a typo in a subcommand or an enum value gets
// a "did you mean" at every level; all exit 2 before any call.
func TestArgumentMistakesSayTheFix(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"answer", "2.6", "-m", "Net", "debt", "attached"}, []string{
			`answer takes REQUEST [-m TEXT | -F FILE], got 3 (2.6 debt attached)`,
			`-m took only "Net"; quote a value of several words: dealctl answer 2.6 -m 'Net debt attached'`}},
		{[]string{"status", "2.6"}, []string{"status takes REQUEST STATUS, got 1 (2.6)", "STATUS is open, partial or complete", "usage: dealctl status REQUEST STATUS"}},
		{[]string{"requests", "status", "2.6"}, []string{"requests status takes REQUEST STATUS, got 1"}},
		{[]string{"status", "2.6", "compelte"}, []string{`status "compelte": choose from open, partial, complete (did you mean "complete"?)`}},
		{[]string{"requests", "ls", "--priority", "hgh"}, []string{`(did you mean "high"?)`}},
		{[]string{"requests", "lss"}, []string{`unknown command "lss" for "dealctl requests" (did you mean 'dealctl requests ls'?)`}},
		{[]string{"reqests", "ls"}, []string{`unknown command "reqests" for "dealctl" (did you mean 'dealctl requests'?)`}},
		{[]string{"requests", "show"}, []string{"requests show needs REQUEST"}},
		{[]string{"whoami", "extra"}, []string{"whoami takes no arguments, got 1 (extra)"}},
	} {
		r := run(t, ts, runOpts{}, c.args...)
		if r.code != cmdutil.ExitUsage || strings.Count(r.err, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line", c.args, r.code, r.err)
		}
		for _, w := range c.want {
			if !strings.Contains(r.err, w) {
				t.Errorf("%v: stderr %q lacks %q", c.args, r.err, w)
			}
		}
	}
	if len(ts.callList()) != 0 {
		t.Errorf("calls made: %v", ts.callList())
	}
	if got := didYouMean("zzzzzz", []string{"open", "partial"}); got != "" {
		t.Errorf("a word near nothing got %q", got)
	}
}
