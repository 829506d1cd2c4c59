package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/english"
	"github.com/dealctl/dealctl/internal/gctune"
	"github.com/dealctl/dealctl/internal/importplan"
	"github.com/dealctl/dealctl/internal/sheets"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// ImportOptions are `import`'s inputs.
type ImportOptions struct {
	cmdEnv
	File        string
	Sheet       string
	DryRun      bool
	ApplyStatus bool
	Overwrite   bool
	ClearBlanks bool
	Match       string // --match: id (default) or number
	Renumber    bool
	Yes         bool
	Under       string
	Encoding    string   // --encoding
	DateOrder   string   // --date-order
	Maps        []string // --map FIELD:TEXT=VALUE
	Undo        bool     // --undo [RUN]: take a run back (import_undo.go)
	runs        importRuns
}

// NewCmdImport is `dealctl import`.
func NewCmdImport(f *Factory) *cobra.Command { return newCmdImport(f) }

func newCmdImport(f *Factory) *cobra.Command {
	opts := &ImportOptions{cmdEnv: f.env(), runs: newImportRuns(f)}
	cmd := &cobra.Command{
		Use:         "import FILE.xlsx|FILE.csv | --undo [RUN]",
		Annotations: printsTable, // -o csv|tsv
		Short:       "Create and update the deal's requests from a spreadsheet",
		Long: `Reads a request list from an .xlsx workbook (the first sheet, or --sheet) or
a .csv file, and brings the deal's list in line with it: rows new to the
deal are created, rows that differ are updated, rows of the deal missing
from the sheet are reported and left alone.

Nothing on the deal is damaged: rows match by identity, never by guess. A
row updates a deal row only by the deal's ID in its ID column (an export
of this deal). Any other row only creates: where its number is already on
the deal with other content, it is a conflict, listed with the deal's text
beside the sheet's and left alone (exit 5); identical rows, and headings
that differ only in capitals or spacing, are unchanged. A row never turns
a section into a request or back (exit 6, nothing written). The ways
through are printed as commands: --renumber gives each colliding row
the next free number of its section; --under SECTION puts the sheet's rows
under a section of the deal (1, 2 become SECTION.1, SECTION.2); and
--match number says the sheet's rows are the deal's own, matched by
number: the plan then shows each field it changes, old → new, and a run
asks on a terminal before writing (--yes answers; without a terminal, a
run without --yes writes nothing and exits 2).

A row of an export changed on the deal after its Updated time is a
conflict: the deal's values stay, the rest is imported, and the exit code
is 5 (--overwrite takes the sheet's values). In a sheet that is not an
export, a blank cell keeps the deal's value (--clear-blanks clears it).

The header row may sit below title rows; columns are found by name or a
common synonym (No., Ref, Request, Details, Workstream, Due, Deadline, ...).
Hidden rows and columns are not read. A csv that is not UTF-8 is read as
Windows-1252 (LibreOffice's and Excel's default) with a note, or as
--encoding says. Slashed dates take the day/month order their column
shows (12/13/2026 is month/day) or --date-order's. A team's own words for
values are mapped with --map (--map category:Regulatory=legal); every
unknown value is listed once.

Every row is checked before anything is written: if any row is bad, each
problem is reported with its sheet row number and nothing is written
(exit 6); a dry run exits as the run would (6; 4 where the caller may not
make the changes; 5 with conflicts). Statuses in the sheet are applied
only with --apply-status; the plan says so when new rows carry one.

A Response column (Seller comments, Answer, or --map response=COLUMN)
holds the other side's answers: each new one is posted on its request as
a message shown as imported on both sides (owning side's admins and
editors only), never twice however often the sheet is imported; the plan
lists them. Messages are never deleted, so --undo keeps them.

Import is safe to run again after an interruption: it plans against the
deal's current list, so it creates nothing twice. See docs/spreadsheets.md.`,
		Example: `  dealctl import buyer-list.xlsx --dry-run
  dealctl import buyer-list.xlsx --sheet "DD Requests"
  dealctl import bank-workbook.xlsx --sheet Financial --under 2 --dry-run
  dealctl import counsel-template.xlsx --renumber
  dealctl import our-own-list.xlsx --match number --dry-run
  dealctl import export.csv --apply-status -o json
  dealctl import tracker.csv --date-order mdy --map category:Regulatory=legal --map status:N/A=
  dealctl import advisor-list.csv --encoding macintosh --dry-run`,
		Args: importArgs(opts),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Undo {
				return importUndoRun(cmd.Context(), opts, args)
			}
			opts.File = args[0]
			return importRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Sheet, "sheet", "", "the workbook's sheet to read (default: the first)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the plan and write nothing")
	fl.BoolVar(&opts.ApplyStatus, "apply-status", false, "also move statuses to the sheet's, where allowed")
	fl.StringVar(&opts.Under, "under", "", "put the sheet's rows under this section of the deal (1 becomes SECTION.1)")
	fl.BoolVar(&opts.Overwrite, "overwrite", false, "take the sheet's values on rows changed on the deal since the export")
	fl.BoolVar(&opts.ClearBlanks, "clear-blanks", false, "let blank cells of a sheet that is not an export clear the deal's values")
	fl.StringVar(&opts.Match, "match", importplan.MatchID, "how rows without the deal's IDs match: `HOW` is id (they only create) or number (they update the deal's row of their number)")
	fl.BoolVar(&opts.Renumber, "renumber", false, "give rows whose number is another row on the deal the next free number of their section")
	fl.BoolVar(&opts.Yes, "yes", false, "overwrite rows matched by number (--match number) without asking")
	_ = cmd.RegisterFlagCompletionFunc("match", cobra.FixedCompletions([]string{"id\trows without the deal's IDs only create", "number\trows update the deal's row of their number"}, cobra.ShellCompDirectiveNoFileComp))
	addReadFlags(cmd, opts)
	addUndoFlag(cmd, opts)
	return cmd
}

func importRun(ctx context.Context, o *ImportOptions) error {
	gctune.ForLongRuns()
	if o.Match != importplan.MatchID && o.Match != importplan.MatchNumber {
		return cmdutil.UsageErrorf("--match %s: use id (rows without the deal's IDs only create) or number (they update the deal's row of their number)", o.Match)
	}
	sheet, err := o.readSheet()
	if err != nil {
		return err
	}
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	people, err := s.People(ctx)
	if err != nil {
		return err
	}
	current, hdr, err := fetchList(ctx, s.c, s.Deal.ID)
	if err != nil {
		return err
	}
	plan, err := importplan.Build(sheet, current, people, importplan.Options{
		ApplyStatus: o.ApplyStatus, Overwrite: o.Overwrite, ClearBlanks: o.ClearBlanks, Under: o.Under,
		MatchNumber: o.Match == importplan.MatchNumber, Renumber: o.Renumber,
	})
	if err != nil {
		return underError(err)
	}
	plan.Deal, plan.DryRun = s.Deal.Codename, o.DryRun
	p := o.Printer()

	mayCreate := func() bool { return cannotCreate(ctx, s) == "" }
	if len(plan.Problems) > 0 {
		return reportProblems(o.cmdEnv, plan, o.waysThrough(sheet, plan, current, mayCreate()))
	}
	if len(sheet.Ignored) > 0 {
		o.Infof("Ignoring columns dealctl does not use: %s", strings.Join(sheet.Ignored, ", "))
	}
	for _, n := range plan.Notes {
		o.Infof("%s", n)
	}
	for _, w := range plan.Warnings {
		o.Warnf("%s", w)
	}
	if plan.Summary.Create > 0 {
		if why := cannotCreate(ctx, s); why != "" {
			plan.Forbidden = append([]string{why}, plan.Forbidden...)
		}
	}
	if err := planAnswers(ctx, o, s, plan); err != nil {
		return err
	}
	if o.DryRun {
		if !p.Machine() {
			reportChanges(o.cmdEnv, plan)
			reportAnswers(o.cmdEnv, plan)
		}
		reportConflicts(o.cmdEnv, plan)
		o.Infof("%s", planSentence(plan, true))
		if err := p.Print(output.View{Data: plan, Table: planTable(plan, o.IO.IsStdoutTTY())}); err != nil {
			return err
		}
		if len(plan.Forbidden) > 0 { // as the run would
			return cmdutil.WithExit(cmdutil.ExitAuth, fmt.Errorf("a run would write nothing: %s", strings.Join(plan.Forbidden, "; ")))
		}
		reportWays(o.cmdEnv, o.waysThrough(sheet, plan, current, mayCreate()))
		return conflictError(plan)
	}
	if len(plan.Forbidden) > 0 {
		return cmdutil.WithExit(cmdutil.ExitAuth, fmt.Errorf("nothing was written: %s", strings.Join(plan.Forbidden, "; ")))
	}
	if err := o.confirmByNumber(plan); err != nil {
		return err
	}

	c, run := startImportRun(o, s)
	pace := newPacer(importWorkers)
	pace.observe(hdr)
	// Every answer tells the pacer what the bucket holds, those of the
	// typed client's calls (MoveStatus) included.
	observed := c.WithResponseObserver(func(r *http.Response) { pace.observe(r.Header) })
	a := &applier{c: observed, dealID: s.Deal.ID, pace: pace, ids: map[string]string{}}
	total := plan.Summary.Answers
	for _, it := range plan.Items {
		if it.HasWrite() {
			total++
		}
	}
	bar := startProgress(o.IO.ErrOut, o.IO.IsStderrTTY() && total > 0, total)
	a.onDone = bar.step
	err = a.run(ctx, plan)
	if err == nil {
		err = a.postAnswers(ctx, plan)
	}
	bar.stop()
	finishImportRun(o, run, err, a.applied)
	if err != nil {
		return interruptedError(err, a.applied, total)
	}
	plan.Applied = true
	reportConflicts(o.cmdEnv, plan)
	reportWays(o.cmdEnv, o.waysThrough(sheet, plan, current, mayCreate()))
	// The rows of what was done, for -o csv|tsv; a sentence otherwise.
	err = p.Print(output.View{Data: plan, Table: planTable(plan, false), Human: func(w io.Writer) error {
		_, err := fmt.Fprintln(w, planSentence(plan, false))
		return err
	}})
	if err != nil {
		return err
	}
	return conflictError(plan)
}

// readError classes a file that cannot be read: a missing file or an
// unknown type is a usage mistake; a file without a header row, or one
// that cannot be split into rows (an unterminated quote), is invalid
// input.
func readError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return cmdutil.WithExit(cmdutil.ExitUsage, fmt.Errorf("cannot read %s: %v", pe.Path, pe.Err))
	}
	var me *sheets.MalformedError
	if errors.As(err, &me) {
		return cmdutil.WithExit(cmdutil.ExitValidation, fmt.Errorf("%w: nothing was written; fix the file and run again", err))
	}
	if unreadableContent(err) {
		return cmdutil.WithExit(cmdutil.ExitValidation, fmt.Errorf("%w: nothing was written; fix the file and run again", err))
	}
	return cmdutil.WithExit(cmdutil.ExitUsage, err)
}

// reportProblems prints every bad row, and the ways through for rows
// that collide with the deal's, and fails with exit 6; -o json prints
// the plan with its problems on stdout as well.
func reportProblems(e cmdEnv, plan *importplan.Plan, ways []string) error {
	p := e.Printer()
	if p.Machine() {
		if err := p.Print(output.View{Data: plan}); err != nil {
			return err
		}
	} else {
		for _, pr := range plan.Problems {
			fmt.Fprintln(e.IO.ErrOut, termsafe.Line(pr.String()))
		}
	}
	reportWays(e, ways)
	lines := map[int]bool{}
	for _, pr := range plan.Problems {
		lines[pr.Line] = true
		for _, l := range pr.Rows {
			lines[l] = true
		}
	}
	return cmdutil.WithExit(cmdutil.ExitValidation, fmt.Errorf("%d %s of %s %s invalid (%d %s): nothing was written; fix the sheet and run again",
		len(lines), english.Plural(len(lines), "row", "rows"), plan.File, english.Plural(len(lines), "is", "are"),
		len(plan.Problems), english.Plural(len(plan.Problems), "problem", "problems")))
}

// cannotCreate explains why the caller may not create rows, or "".
func cannotCreate(ctx context.Context, s *dealScope) string {
	seat, err := s.Seat(ctx)
	if err != nil {
		return ""
	}
	if s.Deal.Archived {
		return "the deal is archived and read-only"
	}
	for _, party := range s.Deal.Parties {
		if party.ID == seat.PartyID && party.IsOwner && seat.Access != api.AccessViewer {
			return ""
		}
	}
	return "only admins and editors of the owning side may create requests, and the sheet has new rows"
}

// interruptedError says how far an import got and that running it again
// finishes the job.
func interruptedError(err error, applied, total int) error {
	what := describeError(err)
	if errors.Is(err, context.Canceled) {
		what = "interrupted"
	}
	return cmdutil.WithExit(exitCode(err), fmt.Errorf("import stopped after %d of %d changes: %s; run the same command again to finish: nothing is created twice", applied, total, what))
}
