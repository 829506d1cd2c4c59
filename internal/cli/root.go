// Package cli holds dealctl's cobra commands, one file per noun, built in
// the cli/cli manner: a Factory carries lazily built dependencies and each
// command copies what it needs into an Options struct, which its run
// function works from. Where flags interact (requests ls), NewCmdX(f,
// runF) lets a table test capture the parsed options; the other commands
// are tested by running them against a real server.
package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// AsksVersion tells whether args ask only for the version, which people
// and scripts checking an install ask for: the binary answers before
// building anything else (PrintVersion).
func AsksVersion(args []string) bool {
	return len(args) == 1 && (args[0] == "--version" || args[0] == "version")
}

// PrintVersion writes the version to out and returns the exit code: a
// version that could not be written (a full disk, say) is a
// failure, said on errOut, since a script checking an install reads it.
func PrintVersion(out, errOut io.Writer) int {
	if _, err := io.WriteString(out, versionText()); err != nil {
		fmt.Fprintf(errOut, "dealctl: cannot write the version: %v\n", err)
		return cmdutil.ExitFailure
	}
	return cmdutil.ExitOK
}

// Execute runs args against the command tree cmd, built on f, and
// returns the exit code, printing any error to f.IO.ErrOut as the
// output flags ask (the server's ErrorResponse under --json).
func Execute(ctx context.Context, f *Factory, cmd *cobra.Command, args []string) int {
	cmd.SetArgs(args)
	cmd.SetIn(f.IO.In)
	cmd.SetOut(f.IO.Out)
	cmd.SetErr(f.IO.ErrOut)
	_, err := cmd.ExecuteContextC(ctx)
	if err == nil {
		return cmdutil.ExitOK
	}
	printError(f.IO.ErrOut, err, f.Global.JSON || f.Global.Output == output.FormatJSON || f.Global.JQ != "")
	return exitCode(err)
}

// Run executes args against the client commands alone, without `serve`
// and `admin`, and returns the exit code. The binary's tree is built by
// internal/cmd/root; Run is for the tests of this package and of the
// packages root builds on, which cannot import root.
func Run(ctx context.Context, f *Factory, args []string) int {
	return Execute(ctx, f, NewCmdClient(f), args)
}

// NewCmdClient is the client commands' tree alone: NewCmdBase with
// ClientCommands, finished.
func NewCmdClient(f *Factory) *cobra.Command {
	cmd := NewCmdBase(f)
	cmd.AddCommand(ClientCommands(f)...)
	FinishTree(cmd)
	return cmd
}

// NewCmdBase builds the root command with no subcommands: its name and
// help, the global flags every command shares (--server, --deal, the
// output flags) and the checks they make before any command runs.
// internal/cmd/root adds the commands, then calls FinishTree.
func NewCmdBase(f *Factory) *cobra.Command {
	g := f.Global
	root := &cobra.Command{
		Use:           "dealctl",
		Short:         "Work a due-diligence request list: serve the API, or act against it",
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if g.NoColor {
				f.IO.SetColorEnabled(false)
			}
			return checkOutputFlags(cmd, g, f.plainPrinter())
		},
	}
	root.SetVersionTemplate(versionText())

	pf := root.PersistentFlags()
	pf.StringVar(&g.Server, "server", "", "server URL (env DEALCTL_SERVER)")
	pf.StringVarP(&g.Deal, "deal", "d", "", "deal id, codename or name (env DEALCTL_DEAL; default from 'deals use')")
	pf.StringVarP(&g.Output, "output", "o", "", "output format: table, json, yaml, csv or tsv")
	pf.BoolVar(&g.JSON, "json", false, "output JSON (errors too, as the server's ErrorResponse)")
	pf.StringVar(&g.JQ, "jq", "", "filter JSON output with a jq expression")
	pf.BoolVar(&g.NoColor, "no-color", false, "no colours (also NO_COLOR)")
	pf.BoolVarP(&g.Quiet, "quiet", "q", false, "print only data: no confirmations or warnings")
	f.flags = pf
	_ = root.RegisterFlagCompletionFunc("output", cobra.FixedCompletions(output.Formats, cobra.ShellCompDirectiveNoFileComp))
	_ = root.RegisterFlagCompletionFunc("deal", completeDeals(f))

	return root
}

// ClientCommands are the commands that act against a server, in the
// order help lists them.
func ClientCommands(f *Factory) []*cobra.Command {
	return []*cobra.Command{
		NewCmdAuth(f),
		NewCmdWhoami(f),
		NewCmdDeals(f),
		NewCmdPeople(f),
		NewCmdRequests(f),
		NewCmdStatus(f),
		NewCmdAnswer(f),
		NewCmdMessages(f),
		NewCmdSearch(f, nil),
		NewCmdInbox(f),
		NewCmdFiles(f),
		NewCmdDownload(f),
		NewCmdProgress(f),
		NewCmdWatch(f),
		NewCmdActivity(f),
		NewCmdHistory(f),
		NewCmdRevert(f),
		NewCmdAudit(f),
		NewCmdAPI(f),
		NewCmdMCP(f),
		NewCmdCompletion(f),
		NewCmdVersion(f),
		NewCmdImport(f),
		NewCmdExport(f),
		NewCmdTUI(f),
	}
}

// FinishTree makes the whole tree refuse what a script could mistake for
// success: unknown subcommands and cobra's usage mistakes, as usage errors
// (exit 2). Call it once every command is added.
func FinishTree(root *cobra.Command) {
	refuseUnknownSubcommands(root)
	cmdutil.RefuseUsageMistakes(root)
}

// refuseUnknownSubcommands makes every command group (`requests`,
// `admin digest`, …) answer a word it does not know with a usage error
// and exit 2. Cobra does that for the root only; a group of its own
// prints its help and exits 0, so a script with a typo would carry on
// as if the command had run. A group run with no word still shows its help.
func refuseUnknownSubcommands(cmd *cobra.Command) {
	for _, sub := range cmd.Commands() {
		refuseUnknownSubcommands(sub)
	}
	if !cmd.HasSubCommands() || cmd.Runnable() {
		return
	}
	if cmd.Parent() == nil {
		// Without Args, cobra checks the root's first word itself and
		// answers a typo in several lines of its own.
		cmd.Args = cobra.ArbitraryArgs
	}
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return c.Help()
		}
		suggest := ""
		c.SuggestionsMinimumDistance = 2 // cobra sets it for the root only
		if s := c.SuggestionsFor(args[0]); len(s) > 0 {
			suggest = fmt.Sprintf(" (did you mean '%s %s'?)", c.CommandPath(), s[0])
		}
		return cmdutil.UsageErrorf("unknown command %q for %q%s: run '%s --help' for its commands", args[0], c.CommandPath(), suggest, c.CommandPath())
	}
}

// NewCmdVersion is `dealctl version`.
func NewCmdVersion(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print dealctl's version, commit, build date and Go version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return printVersion(f)
		},
	}
}
