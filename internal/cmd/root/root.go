// Package root wires dealctl's whole command tree: the client commands of
// internal/cli with `serve` (internal/cmd/serve) and `admin`
// (internal/cmd/admin), which open the database directly. It is the one
// package that links both halves, as soft-serve's cmd/soft does; the
// client commands stay free of the server and the database drivers.
package root

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cli"
	"github.com/dealctl/dealctl/internal/cmd/admin"
	"github.com/dealctl/dealctl/internal/cmd/serve"
)

// databaseCommands are the commands that work on the database itself.
var databaseCommands = []cli.CommandBuilder{
	func(*cli.Factory) *cobra.Command { return serve.NewCmd() },
	func(f *cli.Factory) *cobra.Command { return admin.NewCmd(f.IO) },
}

// Main runs dealctl with args and returns the process exit code.
func Main(args []string) int { return cli.Main(args, databaseCommands...) }

// Run executes args against f and returns the exit code, printing any
// error to f.IO.ErrOut.
func Run(ctx context.Context, f *cli.Factory, args []string) int {
	return cli.Run(ctx, f, args, databaseCommands...)
}

// NewCmd builds the whole command tree.
func NewCmd(f *cli.Factory) *cobra.Command { return cli.NewCmdRoot(f, databaseCommands...) }
