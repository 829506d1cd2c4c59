package cmdutil

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestUsageMistakesAreKnownByTheirType: cobra's usage mistakes are exit 2
// because RefuseUsageMistakes typed them where they were found; an error
// of the command's own that happens to use cobra's words is not one.
func TestUsageMistakesAreKnownByTheirType(t *testing.T) {
	run := func(args ...string) error {
		root := &cobra.Command{Use: "dealctl", SilenceErrors: true, SilenceUsage: true}
		cmd := &cobra.Command{Use: "make NAME", Args: cobra.ExactArgs(1), RunE: func(*cobra.Command, []string) error {
			return errors.New("unknown flag --colour in the config file")
		}}
		cmd.Flags().String("title", "", "")
		_ = cmd.MarkFlagRequired("title")
		root.AddCommand(cmd)
		RefuseUsageMistakes(root)
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		root.SetArgs(args)
		return root.Execute()
	}
	for _, args := range [][]string{
		{"make", "x", "--title", "t", "--nope"},
		{"make", "--title", "t"},
		{"make", "x", "y", "--title", "t"},
		{"make", "x"},
		{"make", "x", "--title"},
	} {
		if err := run(args...); ExitCode(err) != ExitUsage {
			t.Errorf("%q: %v (exit %d), want a usage error", args, err, ExitCode(err))
		}
	}
	if err := run("make", "x", "--title", "t"); ExitCode(err) != ExitFailure {
		t.Errorf("the command's own error in cobra's words: exit %d, want %d", ExitCode(err), ExitFailure)
	}
}

// TestFlagGroupsAreUsageErrorsInDealctlsWords: a broken flag group is a
// usage error naming the flags as typed, checked before cobra's own check
// could answer in its words.
func TestFlagGroupsAreUsageErrorsInDealctlsWords(t *testing.T) {
	run := func(args ...string) error {
		root := &cobra.Command{Use: "dealctl", SilenceErrors: true, SilenceUsage: true}
		cmd := &cobra.Command{Use: "answer", RunE: func(*cobra.Command, []string) error { return nil }}
		cmd.Flags().StringP("message", "m", "", "")
		cmd.Flags().StringP("file", "F", "", "")
		cmd.Flags().String("from", "", "")
		cmd.Flags().String("to", "", "")
		cmd.MarkFlagsMutuallyExclusive("message", "file")
		cmd.MarkFlagsOneRequired("message", "file")
		cmd.MarkFlagsRequiredTogether("from", "to")
		root.AddCommand(cmd)
		RefuseUsageMistakes(root)
		root.SetArgs(args)
		return root.Execute()
	}
	for args, want := range map[string]string{
		"answer -m x -F f":        "-F/--file and -m/--message cannot be used together: give only one (see 'dealctl answer --help')",
		"answer":                  "give -m/--message or -F/--file (see 'dealctl answer --help')",
		"answer -m x --from 2026": "--from and --to go together: also give --to (see 'dealctl answer --help')",
	} {
		err := run(strings.Fields(args)...)
		if ExitCode(err) != ExitUsage || err.Error() != want {
			t.Errorf("%s: %v (exit %d), want exit 2 saying %q", args, err, ExitCode(err), want)
		}
	}
	if err := run("answer", "-m", "x", "--from", "a", "--to", "b"); err != nil {
		t.Errorf("every group kept: %v", err)
	}
}

// TestFlagExcludingOthersIsOneMessage: a flag made exclusive with others
// a pair each (MarkFlagExcludes) is refused with every one given named
// in one message, and why where it says; the others still go together.
func TestFlagExcludingOthersIsOneMessage(t *testing.T) {
	run := func(why string, args ...string) error {
		root := &cobra.Command{Use: "dealctl", SilenceErrors: true, SilenceUsage: true}
		cmd := &cobra.Command{Use: "answer", RunE: func(*cobra.Command, []string) error { return nil }}
		cmd.Flags().Bool("similar", false, "")
		cmd.Flags().StringP("message", "m", "", "")
		cmd.Flags().StringP("file", "F", "", "")
		cmd.Flags().Bool("partial", false, "")
		cmd.Flags().String("kind", "", "")
		cmd.MarkFlagsMutuallyExclusive("message", "file")
		MarkFlagExcludes(cmd, "similar", why, "message", "file", "partial", "kind")
		root.AddCommand(cmd)
		RefuseUsageMistakes(root)
		root.SetArgs(args)
		return root.Execute()
	}
	for _, c := range []struct {
		why, args, want string
	}{
		{"--similar posts nothing", "answer --similar --partial --kind q -m x",
			"--similar posts nothing: leave out --kind, -m/--message and --partial, or leave out --similar (see 'dealctl answer --help')"},
		{"--similar posts nothing", "answer --similar --partial",
			"--similar posts nothing: leave out --partial, or leave out --similar (see 'dealctl answer --help')"},
		{"", "answer --similar --partial --kind q",
			"--similar cannot be used with --kind or --partial: leave out --kind and --partial, or leave out --similar (see 'dealctl answer --help')"},
		{"", "answer --similar --partial",
			"--partial and --similar cannot be used together: give only one (see 'dealctl answer --help')"},
		// -m and -F exclude each other too: every flag is in two broken
		// pairs, and --similar, which says why, is named with both.
		{"--similar posts nothing", "answer --similar -m x -F f",
			"--similar posts nothing: leave out -F/--file and -m/--message, or leave out --similar; and -F/--file and -m/--message cannot be used together (see 'dealctl answer --help')"},
		{"", "answer -m x -F f --partial",
			"-F/--file and -m/--message cannot be used together: give only one (see 'dealctl answer --help')"},
	} {
		err := run(c.why, strings.Fields(c.args)...)
		if ExitCode(err) != ExitUsage || err.Error() != c.want {
			t.Errorf("%s (why %q): %v (exit %d), want exit 2 saying %q", c.args, c.why, err, ExitCode(err), c.want)
		}
	}
	if err := run("", "answer", "--partial", "--kind", "q", "-m", "x"); err != nil {
		t.Errorf("the others together: %v", err)
	}
}

// Two pairs broken that share no flag are both named, in one message.
func TestTwoExclusivePairsBrokenAreOneMessage(t *testing.T) {
	root := &cobra.Command{Use: "dealctl", SilenceErrors: true, SilenceUsage: true}
	cmd := &cobra.Command{Use: "edit", RunE: func(*cobra.Command, []string) error { return nil }}
	for _, name := range []string{"body", "body-file", "title", "title-file"} {
		cmd.Flags().String(name, "", "")
	}
	cmd.MarkFlagsMutuallyExclusive("body", "body-file")
	cmd.MarkFlagsMutuallyExclusive("title", "title-file")
	root.AddCommand(cmd)
	RefuseUsageMistakes(root)
	root.SetArgs([]string{"edit", "--body", "b", "--body-file", "f", "--title", "t", "--title-file", "g"})
	err := root.Execute()
	want := "--body and --body-file cannot be used together; --title and --title-file cannot be used together: give only one of each (see 'dealctl edit --help')"
	if ExitCode(err) != ExitUsage || err == nil || err.Error() != want {
		t.Errorf("%v (exit %d), want exit 2 saying %q", err, ExitCode(err), want)
	}
}
