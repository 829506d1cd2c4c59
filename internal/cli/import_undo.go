package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/activity"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/english"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// importArgs is FILE for an import, [RUN] for --undo.
func importArgs(o *ImportOptions) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if o.Undo {
			return cobra.MaximumNArgs(1)(cmd, args)
		}
		return cobra.ExactArgs(1)(cmd, args)
	}
}

func addUndoFlag(cmd *cobra.Command, o *ImportOptions) {
	cmd.Flags().BoolVar(&o.Undo, "undo", false, "take back an import run: the last from this machine for the deal, or RUN (with --dry-run: say what it would do)")
}

// undoRequest is what an undo does to one request the run wrote.
type undoRequest struct {
	Number   string         `json:"number"`
	ID       string         `json:"id"`
	Action   string         `json:"action"` // delete, put_back, kept, answered, unchanged, gone
	Restored []fieldRestore `json:"restored,omitempty"`
	// AnswersKept counts the answers the run imported on the row: the API
	// deletes no message, so they stay, and a row the run created with
	// one stays too (action answered).
	AnswersKept int `json:"answers_kept,omitempty"`
}

// undoResult is what -o json prints.
type undoResult struct {
	Run       string           `json:"run"`
	DryRun    bool             `json:"dry_run"`
	Requests  []undoRequest    `json:"requests"`
	Conflicts []revertConflict `json:"conflicts"`
}

// undoBatch is the batch id of an undo's own writes, so that running the
// undo again sees them as its own and finds nothing left to do.
func undoBatch(run string) string {
	id := "undo-" + run
	if len(id) > api.MaxBatchIDLen {
		id = id[:api.MaxBatchIDLen]
	}
	return id
}

// importUndoRun takes an import run back: every field the run changed
// gets the value it had before, every row it created is deleted, except
// on rows that someone changed or answered since, which are kept and
// listed as conflicts (exit 5). docs/guide-owner.md, "History, revert,
// undo and delete".
func importUndoRun(ctx context.Context, o *ImportOptions, args []string) error {
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	runID, err := chooseRun(o, s, args)
	if err != nil {
		return err
	}
	feed, err := newEventFeed(ctx, s, "dealctl import --undo")
	if err != nil {
		return err
	}
	var all []client.Event
	if err := feed.next(ctx, func(page []client.Event) error {
		all = append(all, page...)
		return nil
	}); err != nil {
		return err
	}
	own := func(ev client.Event) bool {
		b := activity.Batch(ev)
		return b == runID || b == undoBatch(runID)
	}
	// The requests the run wrote, in the order it first wrote them, with
	// each one's events.
	var touched []string
	byRequest := map[string][]client.Event{}
	for _, ev := range all {
		if ev.RequestID == nil {
			continue
		}
		id := *ev.RequestID
		if activity.Batch(ev) == runID && byRequest[id] == nil {
			touched = append(touched, id)
		}
		if byRequest[id] != nil || activity.Batch(ev) == runID {
			byRequest[id] = append(byRequest[id], ev)
		}
	}
	if len(touched) == 0 {
		return cmdutil.NotFoundErrorf("import run %s wrote nothing on %s that this key can see: nothing to undo", runID, s.Deal.Codename)
	}
	names := feed.names(ctx)
	res := undoResult{Run: runID, DryRun: o.DryRun, Requests: []undoRequest{}, Conflicts: []revertConflict{}}
	c := s.c.WithBatch(undoBatch(runID))
	scope := *s
	scope.c = c
	// Rows the run created are deleted newest first: a section after the
	// rows the run put under it.
	var deletions []*api.DealRequest
	for _, id := range touched {
		evs := byRequest[id]
		row, listed := feed.rows[id]
		number := activity.Number(evs[len(evs)-1])
		if listed {
			number = row.Number
		}
		u := undoRequest{Number: number, ID: id, AnswersKept: runAnswers(evs, runID)}
		created := evs[0].Type == activity.RequestCreated && own(evs[0])
		switch {
		case !listed:
			u.Action = "gone"
		case created && u.AnswersKept > 0:
			// Its answer cannot be deleted, so neither can the row; it
			// is left as the run made it.
			u.Action = "answered"
		default:
			conflicts := laterChanges(&row, evs, own, names, true)
			if created && len(conflicts) == 0 {
				u.Action = "delete"
				deletions = append(deletions, &row)
				break
			}
			var ownEvs []client.Event
			for _, ev := range evs {
				if own(ev) {
					ownEvs = append(ownEvs, ev)
				}
			}
			plan, _, unrecorded := planRevert(&row, ownEvs, evs)
			conflicts = append(conflicts, unrecorded...)
			if len(conflicts) > 0 {
				u.Action = "kept"
				res.Conflicts = append(res.Conflicts, conflicts...)
				break
			}
			u.Restored = plan.Restores
			if len(plan.Restores) == 0 {
				u.Action = "unchanged"
				break
			}
			u.Action = "put_back"
			if !o.DryRun {
				if _, err := putBack(ctx, &scope, &row, client.ListRowPrecondition(&row), plan); err != nil {
					return fmt.Errorf("undoing %s on %s: %w (run the undo again to finish: what is done stays done)", runID, row.Number, err)
				}
			}
		}
		res.Requests = append(res.Requests, u)
	}
	for i := len(deletions) - 1; i >= 0 && !o.DryRun; i-- {
		r := deletions[i]
		err := deleteRow(ctx, &scope, r, client.ListRowPrecondition(r))
		var ce *client.Error
		if errors.As(err, &ce) && ce.StatusCode == 409 {
			// Answered, or rows kept under it, since the list was read.
			res.Conflicts = append(res.Conflicts, revertConflict{Number: r.Number, What: "kept: " + err.Error()})
			markKept(&res, r.ID)
			continue
		}
		if err != nil {
			return fmt.Errorf("undoing %s: deleting %s: %w (run the undo again to finish: what is done stays done)", runID, r.Number, err)
		}
	}
	p := o.Printer()
	if err := p.Print(output.View{Data: res, Human: func(w io.Writer) error { return printUndo(w, res) }}); err != nil {
		return err
	}
	if len(res.Conflicts) > 0 {
		lines := make([]string, len(res.Conflicts))
		for i, c := range res.Conflicts {
			lines[i] = "  " + c.String()
		}
		return cmdutil.WithExit(cmdutil.ExitConflict, fmt.Errorf("rows changed or answered since the import were kept as they are (%d %s); the rest is undone. "+
			"'dealctl history NUMBER' shows each row's changes, 'dealctl revert NUMBER --to EVENT_ID --force' takes one back anyway:\n%s",
			len(res.Conflicts), english.Plural(len(res.Conflicts), "change", "changes"), strings.Join(lines, "\n")))
	}
	return nil
}

// runAnswers counts the answers run imported among a row's events.
func runAnswers(evs []client.Event, run string) int {
	n := 0
	for _, ev := range evs {
		if ev.Type == activity.MessagePosted && activity.Batch(ev) == run {
			n++
		}
	}
	return n
}

func markKept(res *undoResult, id string) {
	for i := range res.Requests {
		if res.Requests[i].ID == id {
			res.Requests[i].Action = "kept"
		}
	}
}

// chooseRun is the run named, or the last this machine made on the deal.
func chooseRun(o *ImportOptions, s *dealScope, args []string) (string, error) {
	if len(args) == 1 {
		if !api.ValidBatchID(args[0]) {
			return "", cmdutil.UsageErrorf("%q is not an import run id: 'dealctl history NUMBER' shows the run of each change", args[0])
		}
		return args[0], nil
	}
	server, err := o.runs.server()
	if err != nil {
		return "", err
	}
	run, err := o.runs.last(server, s.Deal.ID)
	if err != nil {
		return "", err
	}
	if run == nil {
		return "", cmdutil.NotFoundErrorf("no import run into %s is remembered on this machine: name one, 'dealctl import --undo RUN' ('dealctl history NUMBER' shows the run of each change)", s.Deal.Codename)
	}
	return run.ID, nil
}

func printUndo(w io.Writer, res undoResult) error {
	verb := map[string]string{"delete": "deleted", "put_back": "put back", "kept": "kept (changed since)", "unchanged": "already as before", "gone": "deleted since",
		"answered": "kept: it has the run's imported answer, and messages are never deleted"}
	if res.DryRun {
		verb["delete"], verb["put_back"] = "would delete", "would put back"
	}
	for _, u := range res.Requests {
		fmt.Fprintf(w, "%s  %s\n", termsafe.Line(u.Number), verb[u.Action])
		for _, r := range u.Restored {
			fmt.Fprintf(w, "    %s: %s → %s\n", r.Field, oneLineValue(r.Field, r.Now, activity.Names{}), oneLineValue(r.Field, r.Back, activity.Names{}))
		}
		if u.AnswersKept > 0 && u.Action != "answered" {
			fmt.Fprintf(w, "    %d imported %s %s: messages are never deleted\n", u.AnswersKept, english.Plural(u.AnswersKept, "answer", "answers"), english.Plural(u.AnswersKept, "stays", "stay"))
		}
	}
	_, err := fmt.Fprintf(w, "Import run %s: %d %s.\n", termsafe.Line(res.Run), len(res.Requests), english.Plural(len(res.Requests), "request", "requests"))
	return err
}
