// Package root builds dealctl's whole command tree, as cli/cli's
// pkg/cmd/root does: the root command with its global flags
// (cli.NewCmdBase), the client commands of internal/cli, and `serve`
// (internal/cmd/serve) and `admin` (internal/cmd/admin), which open the
// database directly. It is the one package that links both halves, as
// soft-serve's cmd/soft does; the client commands stay free of the server
// and the database drivers, and serve and admin of the client and the TUI
// (deps_test.go).
package root

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cli"
	"github.com/dealctl/dealctl/internal/cmd/admin"
	"github.com/dealctl/dealctl/internal/cmd/serve"
	"github.com/dealctl/dealctl/internal/iostreams"
)

// Main runs dealctl with args and returns the process exit code.
func Main(args []string) int {
	// The version is asked for by people and by scripts checking an
	// install; answer before building anything else.
	if cli.AsksVersion(args) {
		return cli.PrintVersion(os.Stdout, os.Stderr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Run(ctx, cli.NewFactory(iostreams.System()), args)
}

// Run executes args against f and returns the exit code, printing any
// error to f.IO.ErrOut.
func Run(ctx context.Context, f *cli.Factory, args []string) int {
	return cli.Execute(ctx, f, NewCmd(f), args)
}

// NewCmd builds the whole command tree.
func NewCmd(f *cli.Factory) *cobra.Command {
	cmd := cli.NewCmdBase(f)
	cmd.AddCommand(cli.ClientCommands(f)...)
	cmd.AddCommand(serve.NewCmd(), admin.NewCmd(f.IO))
	cli.FinishTree(cmd)
	return cmd
}
