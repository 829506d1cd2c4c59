package cli

import (
	"slices"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// annotationTable marks a command whose output has rows, and so can be
// printed with -o csv or -o tsv; every other command prints one object.
const annotationTable = "dealctl/prints-table"

// printsTable is the Annotations of a command that prints rows.
var printsTable = map[string]string{annotationTable: "yes"}

// hasTable reports whether cmd prints rows (see printsTable).
func hasTable(cmd *cobra.Command) bool { return cmd.Annotations[annotationTable] == "yes" }

// checkOutputFlags validates -o and --jq for cmd before it runs, so a
// command that writes never succeeds and then fails on how to print the
// result: run again, it would write twice.
func checkOutputFlags(cmd *cobra.Command, g *GlobalOptions, p *output.Printer) error {
	if g.Output != "" && !slices.Contains(output.Formats, g.Output) {
		return cmdutil.UsageErrorf("-o %q: choose one of %v", g.Output, output.Formats)
	}
	if p.JQ != "" {
		if _, err := output.CompileJQ(p.JQ); err != nil {
			return cmdutil.UsageErrorf("--jq %q: %v: nothing was done", p.JQ, err)
		}
	}
	// help prints cobra's text whatever -o says.
	if p.NeedsTable() && !hasTable(cmd) && cmd.Name() != "help" {
		return cmdutil.UsageErrorf("-o %s is not available for '%s', which prints no table: use -o json or -o yaml (nothing was done)",
			p.Format, cmd.CommandPath())
	}
	return nil
}
