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
	"github.com/dealctl/dealctl/internal/termsafe"
)

// RevertOptions are `revert`'s inputs.
type RevertOptions struct {
	cmdEnv
	Ref   string
	To    string // an event id from `history`
	Force bool
}

// NewCmdRevert is `dealctl revert REQUEST --to EVENT_ID`.
func NewCmdRevert(f *Factory) *cobra.Command {
	opts := &RevertOptions{cmdEnv: f.env()}
	cmd := &cobra.Command{
		Use:   "revert REQUEST --to EVENT_ID",
		Short: "Put a request back as it was before a change",
		Long: `Puts a request's fields back as they were before the event --to names
and every later change to it ('dealctl history REQUEST' lists the events
with their ids): title, body, number, priority, category, requester, due
date and assignee in one PATCH that lands only on the version just read,
then the status, moved back the way 'dealctl status' moves it.

A later change by someone other than the author of that event is a
conflict: nothing is written, each such change is listed with who made it,
and the command exits 5. --force puts the fields back anyway. So does a
field whose value is not what its last recorded change left.

An event id of a deletion (request.deleted) makes the row again: a new
request with the same number, fields and status, under the same section.
An event id of its creation deletes it, as 'dealctl requests delete'
would (never a row with messages).
Messages are never touched by a revert. Needs a server that advertises
the events extension (dealctl serve does).`,
		Example: `  dealctl history 2.3
  dealctl revert 2.3 --to uE1Rm8qgO2z03rLqma2GGg
  dealctl revert 2.3 --to uE1Rm8qgO2z03rLqma2GGg --force`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRequests(f, ""),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if opts.To == "" {
				return cmdutil.UsageErrorf("--to EVENT_ID is required: 'dealctl history %s' lists the request's events with their ids", opts.Ref)
			}
			return revertRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.To, "to", "", "the id of the first event to take back (from 'dealctl history')")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "put the fields back even where someone else changed them since")
	return cmd
}

// revertResult is what -o json prints.
type revertResult struct {
	Number    string           `json:"number"`
	Event     string           `json:"event"`
	Restored  []fieldRestore   `json:"restored"`
	Recreated bool             `json:"recreated,omitempty"`
	Deleted   bool             `json:"deleted,omitempty"` // the event reverted created the row
	Conflicts []revertConflict `json:"conflicts,omitempty"`
	Request   *api.DealRequest `json:"request"`
}

func revertRun(ctx context.Context, o *RevertOptions) error {
	h, err := readHistory(ctx, o.cmdEnv, o.Ref, "dealctl revert")
	if err != nil {
		return err
	}
	at := -1
	for i, ev := range h.events {
		if ev.ID == o.To {
			at = i
		}
	}
	if at < 0 {
		// The deletion of an earlier row of this number, which another
		// row holds now: making it again will say the number is taken.
		for _, ev := range h.all {
			if d, ok := activity.Deleted(ev); ok && ev.ID == o.To && d.Number == h.number {
				return recreate(ctx, o, h, d)
			}
		}
		return cmdutil.NotFoundErrorf("no event %s in the history of %s that this key can see: 'dealctl history %s' lists them", o.To, h.number, o.Ref)
	}
	if d, ok := activity.Deleted(h.events[at]); ok {
		return recreate(ctx, o, h, d)
	}
	if h.row == nil {
		return cmdutil.WithExit(cmdutil.ExitConflict, fmt.Errorf("%s was deleted after that event: revert its deletion first ('dealctl history %s' shows its id)", h.number, o.Ref))
	}
	reverted := h.events[at:]
	author := actorID(h.events[at])
	names := h.feed.names(ctx)
	if h.events[at].Type == activity.RequestCreated {
		return uncreate(ctx, o, h, reverted, author, names)
	}
	plan, unsettable, conflicts := planRevert(h.row, reverted, h.events)
	conflicts = append(laterChanges(h.row, reverted[1:], func(ev client.Event) bool { return actorID(ev) == author }, names, false), conflicts...)
	res := revertResult{Number: h.number, Event: o.To, Restored: plan.Restores, Conflicts: conflicts, Request: h.row}
	if res.Restored == nil {
		res.Restored = []fieldRestore{}
	}
	for _, f := range unsettable {
		o.Warnf("%s: %s cannot be set through the API and stays as it is", h.number, f)
	}
	for _, ev := range reverted {
		if fields := activity.Unrecorded(ev); len(fields) > 0 {
			o.Warnf("%s: event %s was recorded without the old values of %s (before this server kept them): those stay as they are",
				h.number, ev.ID, strings.Join(fields, ", "))
		}
	}
	if len(conflicts) > 0 && !o.Force {
		return revertConflictError(h.number, conflicts)
	}
	if len(plan.Restores) > 0 {
		after, err := putBack(ctx, h.s, h.row, h.s.forUpdate(h.row), plan)
		if err != nil {
			return err
		}
		res.Request = after
	}
	p := o.Printer()
	return p.Print(output.View{Data: res, Human: func(w io.Writer) error {
		if len(res.Restored) == 0 {
			_, err := fmt.Fprintf(w, "%s is already as it was before event %s: nothing to do\n", termsafe.Line(res.Number), termsafe.Line(res.Event))
			return err
		}
		fmt.Fprintf(w, "%s put back as it was before event %s:\n", termsafe.Line(res.Number), termsafe.Line(res.Event))
		for _, r := range res.Restored {
			fmt.Fprintf(w, "    %s: %s → %s\n", r.Field, oneLineValue(r.Field, r.Now, names), oneLineValue(r.Field, r.Back, names))
		}
		return nil
	}})
}

// actorID is the id of the person who made ev; "" for the system.
func actorID(ev client.Event) string {
	if ev.Actor == nil {
		return ""
	}
	return ev.Actor.ID
}

// revertConflictError lists the later changes a revert would undo, exit 5.
func revertConflictError(number string, conflicts []revertConflict) error {
	lines := make([]string, len(conflicts))
	for i, c := range conflicts {
		lines[i] = "  " + c.String()
	}
	return cmdutil.WithExit(cmdutil.ExitConflict, fmt.Errorf("%s was changed by someone else since: nothing was reverted; see 'dealctl history %s', or pass --force to put it back anyway\n%s",
		number, number, strings.Join(lines, "\n")))
}

// oneLineValue is a value shortened to one line, for a summary.
func oneLineValue(field string, v *string, names activity.Names) string {
	s := []rune(shownValue(field, v, names))
	cut := len(s)
	for i, r := range s {
		if r == '\n' || i == 60 {
			cut = i
			break
		}
	}
	if cut < len(s) {
		return termsafe.Line(string(s[:cut])) + "…"
	}
	return string(s)
}

// recreate makes a deleted row again from its deletion event: a new row
// with its number, fields and status, under its section.
func recreate(ctx context.Context, o *RevertOptions, h *requestHistory, d api.RequestDeletedData) error {
	s := h.s
	in := rowToCreate(d)
	created, err := s.c.CreateRequest(ctx, s.Deal.ID, in)
	var ce *client.Error
	switch {
	case errors.As(err, &ce) && ce.Response.Reason() == api.ReasonDuplicateNumber:
		return &describedError{err: err, msg: fmt.Sprintf("%s is taken by another row now: nothing was made again; renumber that row first ('dealctl requests edit %s --number …')", d.Number, d.Number)}
	case errors.As(err, &ce) && ce.StatusCode == 422 && d.ParentID != nil:
		return &describedError{err: err, msg: fmt.Sprintf("the section %s was under is gone: revert that section's deletion first, then this one", d.Number)}
	case err != nil:
		return err
	}
	if d.Status != "" && d.Status != created.Status && d.Kind != api.KindSection {
		st := d.Status
		if created, err = putBack(ctx, s, created, "", revertPlan{status: &st}); err != nil {
			return err
		}
	}
	res := revertResult{Number: created.Number, Event: o.To, Restored: []fieldRestore{}, Recreated: true, Request: created}
	p := o.Printer()
	return p.Print(output.View{Data: res, Human: func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "%s %s made again from its deletion (a new id: %s)\n", termsafe.Line(created.Number), termsafe.Line(created.Title), created.ID)
		return err
	}})
}

// uncreate takes back a creation: before it the row did not exist, so
// it is deleted, on the terms of 'requests delete' (no messages, nothing
// under it) and, unless --force, only while nobody else changed it since.
func uncreate(ctx context.Context, o *RevertOptions, h *requestHistory, reverted []client.Event, author string, names activity.Names) error {
	conflicts := laterChanges(h.row, reverted[1:], func(ev client.Event) bool { return actorID(ev) == author }, names, false)
	if len(conflicts) > 0 && !o.Force {
		return revertConflictError(h.number, conflicts)
	}
	if err := deleteRow(ctx, h.s, h.row, h.s.forUpdate(h.row)); err != nil {
		return err
	}
	res := revertResult{Number: h.number, Event: o.To, Restored: []fieldRestore{}, Deleted: true}
	p := o.Printer()
	return p.Print(output.View{Data: res, Human: func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "%s deleted: it did not exist before event %s ('dealctl history %s' shows the deletion, which can be reverted in turn)\n",
			termsafe.Line(res.Number), termsafe.Line(res.Event), termsafe.Line(res.Number))
		return err
	}})
}

// rowToCreate is the POST that makes a deleted row again.
func rowToCreate(d api.RequestDeletedData) api.DealRequestCreate {
	opt := func(v *string) api.Optional[string] {
		if v == nil {
			return api.Optional[string]{}
		}
		return api.Some(*v)
	}
	in := api.DealRequestCreate{Title: api.Some(d.Title), Body: api.Some(d.Body), Number: api.Some(d.Number), Kind: api.Some(d.Kind),
		ParentID: opt(d.ParentID), Requester: opt(d.Requester)}
	if d.Priority != "" {
		in.Priority = api.Some(d.Priority)
	}
	if d.Category != "" {
		in.Category = api.Some(d.Category)
	}
	if d.Kind != api.KindSection {
		in.DueDate, in.AssigneeID = opt(d.DueDate), opt(d.AssigneeID)
	}
	return in
}
