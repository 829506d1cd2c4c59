package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/activity"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// HistoryOptions are `history`'s inputs.
type HistoryOptions struct {
	cmdEnv
	Ref string
}

// NewCmdHistory is `dealctl history REQUEST`.
func NewCmdHistory(f *Factory) *cobra.Command {
	opts := &HistoryOptions{cmdEnv: f.env()}
	cmd := &cobra.Command{
		Use:   "history REQUEST",
		Short: "Show every change to a request, with what it replaced",
		Long: `Shows a request's events, oldest first: who created it, and for every
change since, each field's value before and after (title and body in
full), assignments, due dates, status moves, messages posted and its
deletion. Each change is headed by its event id, which 'dealctl revert
REQUEST --to EVENT_ID' takes to put the request back as it was before it.

A request deleted since is found by its number, from its deletion event.
The server shows each caller only what the API lets them see: the
counterparty never sees an internal note, nor that one was posted.

With --json (or -o json) the output is the events as the server gave
them (docs/api.md, "Events"). Needs a server that advertises the events
extension (dealctl serve does).`,
		Example: `  dealctl history 2.3
  dealctl history 2.3 --json | jq '.[] | select(.type == "request.edited") | .data.changes'
  dealctl revert 2.3 --to <event id from the history>`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRequests(f, ""),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			return historyRun(cmd.Context(), opts)
		},
	}
	return cmd
}

// requestHistory is one request's events, read from the deal's whole
// feed: the request as listed now (nil once deleted) and its number.
type requestHistory struct {
	s      *dealScope
	feed   *eventFeed
	id     string
	number string
	row    *api.DealRequest // nil: no longer on the list
	events []client.Event
	all    []client.Event // the deal's, for an event of an earlier row of the same number
}

// readHistory reads the events of the request ref names: a row of the
// list by number or id, else a deleted one by the number or id its
// newest deletion event gives.
func readHistory(ctx context.Context, e cmdEnv, ref, command string) (*requestHistory, error) {
	s, err := e.openDeal(ctx)
	if err != nil {
		return nil, err
	}
	feed, err := newEventFeed(ctx, s, command)
	if err != nil {
		return nil, err
	}
	h := &requestHistory{s: s, feed: feed}
	if r := findRow(feed.order, ref); r != nil {
		row := *r
		h.row, h.id, h.number = &row, r.ID, r.Number
	}
	var all []client.Event
	if err := feed.next(ctx, func(page []client.Event) error {
		all = append(all, page...)
		return nil
	}); err != nil {
		return nil, err
	}
	h.all = all
	if h.row == nil {
		for _, ev := range all {
			if d, ok := activity.Deleted(ev); ok && ev.RequestID != nil && (d.Number == ref || *ev.RequestID == ref) {
				h.id, h.number = *ev.RequestID, d.Number
			}
		}
	}
	if h.id == "" {
		return nil, cmdutil.NotFoundErrorf("no request %s on %s that this key can see, nor a deletion of one: see 'dealctl requests ls'", ref, s.Deal.Codename)
	}
	for _, ev := range all {
		if ev.RequestID != nil && *ev.RequestID == h.id {
			h.events = append(h.events, ev)
		}
	}
	return h, nil
}

func historyRun(ctx context.Context, o *HistoryOptions) error {
	h, err := readHistory(ctx, o.cmdEnv, o.Ref, "dealctl history")
	if err != nil {
		return err
	}
	names := h.feed.names(ctx)
	p := o.Printer()
	events := h.events
	if events == nil {
		events = []client.Event{}
	}
	return p.Print(output.View{Data: events, Human: func(w io.Writer) error {
		title := h.number
		if h.row != nil {
			title += " " + h.row.Title
		} else {
			title += " (deleted)"
		}
		fmt.Fprintln(w, p.Theme.Bold(termsafe.Line(title)))
		if len(events) == 0 {
			_, err := fmt.Fprintln(w, "No changes that this key can see.")
			return err
		}
		for _, ev := range events {
			if _, err := io.WriteString(w, historyEntry(p.Theme, ev, names)); err != nil {
				return err
			}
		}
		return nil
	}})
}

// historyEntry is one event for a person: a line with when, who, what
// and the event's id, then each changed field's old and new value.
func historyEntry(th *display.Theme, ev client.Event, names activity.Names) string {
	var b strings.Builder
	e := activity.Describe(ev, names)
	fmt.Fprintf(&b, "\n%s  %s  %s  %s\n", th.Dim(ev.At.Local().Format("2006-01-02 15:04")), th.Bold(termsafe.Line(e.Actor)),
		termsafe.Line(e.What), th.Dim("event "+termsafe.Line(ev.ID)))
	if batch := activity.Batch(ev); batch != "" {
		fmt.Fprintf(&b, "    %s\n", th.Dim("in import run "+termsafe.Line(batch)))
	}
	for _, c := range activity.Changes(ev) {
		from, to := shownValue(c.Field, c.From, names), shownValue(c.Field, c.To, names)
		if !strings.Contains(from+to, "\n") && len(from)+len(to) < 100 {
			fmt.Fprintf(&b, "    %s: %s → %s\n", c.Field, from, to)
			continue
		}
		fmt.Fprintf(&b, "    %s was:\n%s    %s now:\n%s", c.Field, quoted(blockValue(c.From)), c.Field, quoted(blockValue(c.To)))
	}
	if d, ok := activity.Deleted(ev); ok {
		fmt.Fprintf(&b, "    title: %s\n", termsafe.Line(d.Title))
		if d.Body != "" {
			fmt.Fprintf(&b, "    body:\n%s", quoted(termsafe.Text(d.Body)))
		}
	}
	return b.String()
}

// shownValue is a field's value as history prints it: people by name,
// null as "(none)", text made safe for the terminal and quoted when on
// one line.
func shownValue(field string, v *string, names activity.Names) string {
	switch {
	case v == nil:
		return "(none)"
	case field == "assignee_id" && names.Person != nil:
		if name, ok := names.Person(*v); ok {
			return termsafe.Line(name)
		}
	case field == "body" || field == "title" || field == "requester":
		if strings.Contains(*v, "\n") {
			return termsafe.Text(*v)
		}
		return "“" + termsafe.Line(*v) + "”"
	}
	return termsafe.Line(*v)
}

// blockValue is a value as a block of lines shows it: whole, unquoted.
func blockValue(v *string) string {
	if v == nil {
		return "(none)"
	}
	return termsafe.Text(*v)
}

// quoted indents text under a field name, each line marked so that
// blank lines and trailing spaces stay visible.
func quoted(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		b.WriteString("      │ " + line + "\n")
	}
	return b.String()
}
