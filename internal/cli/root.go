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
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/iostreams"
)

// CommandBuilder builds a command from the Factory. The root command
// takes the commands that open the database directly (serve, admin) this
// way, from the package that wires the binary (internal/cmd/root), so that
// this package, the client commands, links neither the server nor the
// database drivers.
type CommandBuilder func(f *Factory) *cobra.Command

// Main runs dealctl with args, with the commands more builds added to the
// client commands, and returns the process exit code.
func Main(args []string, more ...CommandBuilder) int {
	// The version is asked for by people and by scripts checking an
	// install; answer before building anything else.
	if len(args) == 1 && (args[0] == "--version" || args[0] == "version") {
		return printVersionTo(os.Stdout, os.Stderr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	f := NewFactory(iostreams.System())
	return Run(ctx, f, args, more...)
}

// printVersionTo writes the version to out and returns the exit code: a
// version that could not be written (a full disk, say) is a
// failure, said on errOut, since a script checking an install reads it.
func printVersionTo(out, errOut io.Writer) int {
	if _, err := io.WriteString(out, versionText()); err != nil {
		fmt.Fprintf(errOut, "dealctl: cannot write the version: %v\n", err)
		return cmdutil.ExitFailure
	}
	return cmdutil.ExitOK
}

// Run executes args against f and returns the exit code, printing any
// error to f.IO.ErrOut.
func Run(ctx context.Context, f *Factory, args []string, more ...CommandBuilder) int {
	root := NewCmdRoot(f, more...)
	root.SetArgs(args)
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	_, err := root.ExecuteContextC(ctx)
	if err == nil {
		return cmdutil.ExitOK
	}
	printError(f.IO.ErrOut, err, f.Global.JSON || f.Global.Output == output.FormatJSON || f.Global.JQ != "")
	return exitCode(err)
}

// NewCmdRoot builds the command tree: the client commands and those more
// builds.
func NewCmdRoot(f *Factory, more ...CommandBuilder) *cobra.Command {
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

	root.AddCommand(
		NewCmdAuth(f),
		NewCmdWhoami(f),
		NewCmdDeals(f),
		NewCmdPeople(f),
		NewCmdRequests(f),
		NewCmdStatus(f),
		NewCmdAnswer(f),
		NewCmdMessages(f),
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
		NewCmdCompletion(f),
		NewCmdVersion(f),
	)
	root.AddCommand(NewCmdImport(f), NewCmdExport(f), NewCmdTUI(f))
	for _, build := range more {
		root.AddCommand(build(f))
	}
	refuseUnknownSubcommands(root)
	cmdutil.RefuseUsageMistakes(root)
	return root
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
