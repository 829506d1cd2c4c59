package cli

import (
	"bufio"
	"context"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/exporters"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/gctune"
)

// Export formats.
const (
	exportXLSX = "xlsx"
	exportCSV  = "csv"
	exportJSON = "json"
	exportMD   = "md"
)

var exportFormats = []string{exportXLSX, exportCSV, exportJSON, exportMD}

// ExportOptions are `export`'s inputs.
type ExportOptions struct {
	cmdEnv
	File         string // "" or "-" for stdout
	Format       string
	WithMessages bool
	// IncludeInternal keeps what the owning side posted internal, and
	// the answers, files and links it gave rows (left out otherwise).
	IncludeInternal bool
	Excel           bool   // csv with a byte-order mark, for Excel
	Force           bool   // replace a file that exists
	Paper           string // xlsx: a4, letter or auto
}

// NewCmdExport is `dealctl export`.
func NewCmdExport(f *Factory) *cobra.Command { return newCmdExport(f) }

func newCmdExport(f *Factory) *cobra.Command {
	opts := &ExportOptions{cmdEnv: f.env()}
	cmd := &cobra.Command{
		Use:   "export [-o FILE] [--format xlsx|csv|json|md]",
		Short: "Write the deal's list to a spreadsheet, csv, json or Markdown",
		Long: `Writes the deal's list in list order. The format is --format, else the
extension of -o FILE (.xlsx, .csv, .json or .md). Without -o (or with
-o -) it goes to stdout, as xlsx unless --format says otherwise, except
xlsx to a terminal.

-o FILE is written to a temporary file renamed over it; a new FILE is
readable by you only (0600). A FILE that exists is not replaced (exit 5,
before any call) unless --force, and then keeps its permissions.
A symbolic link is followed to the file it names; a device or FIFO is
written to as it is.

xlsx: a Requests sheet (styled, frozen header, filter, sections set apart,
status colours, dropdowns, date cells, links), a Summary sheet (counts by
category and status, with a chart), and with --with-messages a Messages
sheet; every sheet prints landscape, one page wide, with its header row
on every page, on A4 or Letter (--paper). The Requests sheet starts with
what a reader needs, and prints only that: number, title, status,
priority, due date, the assignee by name, the latest answer and the
links with their labels; the rest follows in the sheet, off the paper. csv: RFC 4180 in UTF-8 (--excel adds the byte-order mark
Excel needs to read accents); a cell starting with = + - @, tab or CR is
written behind an apostrophe so no spreadsheet runs it as a formula, and
import reads it back without. json: the API's DealRequest array. md: a
checklist.

An export is often sent to the other side: every format, with or without
--with-messages, leaves out what your side posted internal (internal
notes, internal answers, and the files and links given with them),
including a row's latest answer, files and links (the newest shared
answer stands in where the conversation was read). --include-internal
keeps them, and the file then says at its top (md), on its Summary sheet
and on every printed page (xlsx) that it holds internal notes; in json
each such message, file and link has "internal": true. The other side
has no internal notes: for it --include-internal changes nothing.

A server that does not mark internal answers and files (extension
internal-marks) makes your side's export read every conversation to
tell, a call per request.

An exported xlsx or csv imported back changes nothing.`,
		Example: `  dealctl export -o falcon.xlsx
  dealctl export --format csv --excel > falcon.csv
  dealctl export -o falcon.md --with-messages
  dealctl export -o falcon-internal.xlsx --with-messages --include-internal`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exportRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	// -o is the file here, as users of export tools expect; it shadows the
	// global output-format flag, which export has no use for.
	fl.StringVarP(&opts.File, "output", "o", "", "write to FILE (- for stdout)")
	fl.StringVar(&opts.Format, "format", "", "xlsx, csv, json or md (default: from FILE's extension, else xlsx)")
	fl.BoolVar(&opts.WithMessages, "with-messages", false, "include every request's conversation")
	fl.BoolVar(&opts.IncludeInternal, "include-internal", false, "keep what your side posted internal: notes, answers, their files and links (the file says it holds them)")
	fl.BoolVar(&opts.Excel, "excel", false, "csv: start with a UTF-8 byte-order mark so Excel reads accents right")
	fl.BoolVar(&opts.Force, "force", false, "replace -o FILE when it exists")
	fl.StringVar(&opts.Paper, "paper", "auto", "xlsx: the paper it prints on, a4 or letter (auto: Letter for a deal in the Americas, else A4)")
	_ = cmd.RegisterFlagCompletionFunc("paper", cobra.FixedCompletions([]string{"auto", "a4", "letter"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(exportFormats, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// exportFormat picks the format: --format, else FILE's extension, else
// (to stdout) xlsx.
func (o *ExportOptions) exportFormat() (string, error) {
	if o.Format != "" {
		f := strings.ToLower(o.Format)
		if f == "markdown" {
			f = exportMD
		}
		if !slices.Contains(exportFormats, f) {
			return "", cmdutil.UsageErrorf("--format %q: choose from %s", o.Format, strings.Join(exportFormats, ", "))
		}
		return f, nil
	}
	if o.toStdout() {
		return exportXLSX, nil
	}
	return formatFromName(o.File)
}

// paper is --paper as the exporter takes it ("" for auto).
func (o *ExportOptions) paper() string {
	if o.Paper == "auto" {
		return ""
	}
	return o.Paper
}

// toStdout reports whether the export goes to stdout (no -o, or -o -).
func (o *ExportOptions) toStdout() bool { return o.File == "" || o.File == "-" }

func exportRun(ctx context.Context, o *ExportOptions) error {
	gctune.ForLongRuns()
	if _, err := parseEnum("--paper", o.Paper, []string{"auto", "a4", "letter"}); err != nil {
		return err
	}
	o.Paper = strings.ToLower(strings.TrimSpace(o.Paper))
	var target *exportTarget
	if !o.toStdout() {
		t, err := resolveExportTarget(o.File, o.Force)
		if err != nil {
			return err
		}
		target = t
	}
	format, err := o.exportFormat()
	if err != nil {
		return err
	}
	toStdout := target == nil
	if toStdout && format == exportXLSX && o.IO.IsStdoutTTY() {
		return cmdutil.UsageErrorf("an xlsx workbook is not for a terminal: give -o FILE.xlsx, or redirect stdout")
	}
	if o.WithMessages && format == exportCSV {
		return cmdutil.UsageErrorf("--with-messages needs a format with room for conversations: xlsx, json or md")
	}
	if o.Excel && format != exportCSV {
		return cmdutil.UsageErrorf("--excel applies to csv only")
	}
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	rows, err := s.Requests(ctx)
	if err != nil {
		return err
	}
	people, err := s.People(ctx)
	if err != nil {
		return err
	}
	e := &exporters.Export{Deal: s.Deal, Rows: rows, People: people, Now: o.Now(), Internal: o.IncludeInternal, Paper: o.paper()}
	if o.WithMessages {
		if e.Messages, err = fetchMessages(ctx, s, rows); err != nil {
			return err
		}
	} else if !o.IncludeInternal {
		if e.Conversations, err = conversationsToTellInternal(ctx, s, rows); err != nil {
			return err
		}
	}
	o.sayInternal(e)
	if toStdout {
		w := bufio.NewWriter(o.IO.Out)
		if err := writeExport(w, format, e, o.Excel); err != nil {
			return err
		}
		return w.Flush()
	}
	if err := target.write(func(w io.Writer) error { return writeExport(w, format, e, o.Excel) }); err != nil {
		return err
	}
	o.Infof("Wrote %d rows of %s to %s", len(rows), s.Deal.Codename, o.File)
	return nil
}

// conversationsToTellInternal reads the conversations when they alone
// can tell which rows' answers, files and links are internal: for the
// owning side (the other has no internal notes) of a server that does not
// mark them. A call per request, as --with-messages costs.
func conversationsToTellInternal(ctx context.Context, s *dealScope, rows []api.DealRequest) (map[string][]api.Message, error) {
	if s.c.Supports(api.ExtInternalMarks) {
		return nil, nil
	}
	owner, err := s.OnOwningSide(ctx)
	if err != nil || !owner {
		return nil, err
	}
	return fetchMessages(ctx, s, rows)
}

// sayInternal says on stderr what the export leaves out of, or keeps of,
// the owning side's internal content; the writers do the leaving out.
func (o *ExportOptions) sayInternal(e *exporters.Export) {
	n := e.Internals()
	if !n.Any() {
		return
	}
	if o.IncludeInternal {
		o.Warnf("the export holds what your side posted internal (%s): do not send it to the other side", n)
		return
	}
	o.Infof("Left out what your side posted internal: %s (--include-internal keeps them)", n)
}

func writeExport(w io.Writer, format string, e *exporters.Export, bom bool) error {
	switch format {
	case exportCSV:
		return exporters.WriteCSV(w, e, bom)
	case exportJSON:
		return exporters.WriteJSON(w, e)
	case exportMD:
		return exporters.WriteMarkdown(w, e)
	}
	return exporters.WriteXLSX(w, e)
}
