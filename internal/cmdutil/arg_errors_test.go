package cmdutil

import (
	"errors"
	"io"
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
