package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/activity"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/gctune"
	"github.com/dealctl/dealctl/internal/sheets"
)

// WatchOptions are `watch`'s inputs.
type WatchOptions struct {
	cmdEnv
	Interval time.Duration
	Count    int // polls before stopping; 0: until interrupted
	Sleep    func(ctx context.Context, d time.Duration) error
}

// NewCmdWatch is `dealctl watch`.
func NewCmdWatch(f *Factory) *cobra.Command {
	opts := &WatchOptions{cmdEnv: f.env(), Sleep: client.Sleep}
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Print new answers and status moves on the deal as they happen",
		Long: `Prints each new request, status move and new answer on the deal as it
happens. Against a server with the events extension (dealctl serve) each
poll asks for the events since the last one seen, so every change made
between two polls is printed, with who made it; otherwise the deal's list
is polled with If-None-Match and compared with the last one (two moves of
one request between polls then show as one, and nobody is named). Either
way a poll with nothing new costs a 304. The default interval of 30s uses
2 of the 600 calls a minute. With -o json (or --json) each event is one
JSON object on its own line.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Interval < time.Second {
				return cmdutil.UsageErrorf("--interval %s: at least 1s, to stay within the rate limit", opts.Interval)
			}
			return watchRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().DurationVar(&opts.Interval, "interval", 30*time.Second, "time between polls")
	cmd.Flags().IntVar(&opts.Count, "count", 0, "stop after N polls (0: run until interrupted)")
	return cmd
}

// watchEvent is one change seen between polls.
type watchEvent struct {
	Type      string            `json:"type"` // "status", "answer", "new_request"
	At        time.Time         `json:"at"`
	Number    string            `json:"number"`
	RequestID string            `json:"request_id"`
	Title     string            `json:"title"`
	From      api.RequestStatus `json:"from,omitempty"`
	To        api.RequestStatus `json:"to,omitempty"`
	MessageID string            `json:"message_id,omitempty"`
	Author    string            `json:"author,omitempty"`
	Partial   bool              `json:"partial,omitempty"`
	Preview   string            `json:"preview,omitempty"`
	// Added with the events extension: who made the change (nil when
	// it was seen by diffing, which cannot tell) and the event's id.
	Actor   *api.Author `json:"actor,omitempty"`
	EventID string      `json:"event_id,omitempty"`
}

func watchRun(ctx context.Context, o *WatchOptions) error {
	gctune.ForLongRuns()
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	p := o.Printer()
	asJSON := p.Machine()
	if !asJSON {
		o.Infof("Watching %s every %s (Ctrl-C to stop)", describeDeal(s.Deal), o.Interval)
	}
	if s.c.Supports(api.ExtEvents) {
		return watchOnEvents(ctx, o, s)
	}
	var etag string
	var prev map[string]api.DealRequest
	for poll := 1; ; poll++ {
		rows, newETag, changed, err := s.c.RequestsIfChanged(ctx, s.Deal.ID, etag)
		if err != nil {
			if ctx.Err() != nil {
				return nil // interrupted: a normal way to stop watching
			}
			return err
		}
		etag = newETag
		if changed {
			cur := make(map[string]api.DealRequest, len(rows))
			for _, r := range rows {
				cur[r.ID] = r
			}
			if prev != nil {
				for _, ev := range diffRequests(prev, rows, o.Now()) {
					if err := printEvent(o, ev, asJSON); err != nil {
						return err
					}
				}
			}
			prev = cur
		}
		if o.Count > 0 && poll >= o.Count {
			return nil
		}
		if err := o.Sleep(ctx, o.Interval); err != nil {
			return nil
		}
	}
}

// diffRequests lists the moves and answers between two snapshots, in list
// order.
func diffRequests(prev map[string]api.DealRequest, rows []api.DealRequest, now time.Time) []watchEvent {
	var evs []watchEvent
	for _, r := range rows {
		if r.Kind != api.KindRequest {
			continue
		}
		base := watchEvent{At: now.UTC(), Number: r.Number, RequestID: r.ID, Title: r.Title}
		old, seen := prev[r.ID]
		if !seen {
			ev := base
			ev.Type, ev.To = "new_request", r.Status
			evs = append(evs, ev)
			continue
		}
		if a := r.LatestAnswer; a != nil && (old.LatestAnswer == nil || old.LatestAnswer.MessageID != a.MessageID) {
			ev := base
			ev.Type, ev.MessageID, ev.Partial, ev.Preview = "answer", a.MessageID, a.Partial, a.Preview
			if a.Author != nil {
				ev.Author = a.Author.Email
			}
			if a.PostedAt != nil {
				ev.At = a.PostedAt.UTC()
			}
			evs = append(evs, ev)
		}
		if old.Status != r.Status {
			ev := base
			ev.Type, ev.From, ev.To = "status", old.Status, r.Status
			if r.StatusChangedAt != nil {
				ev.At = r.StatusChangedAt.UTC()
			}
			evs = append(evs, ev)
		}
	}
	return evs
}

func printEvent(o *WatchOptions, ev watchEvent, asJSON bool) error {
	w := o.IO.Out
	if asJSON {
		b, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(w, string(b))
		return err
	}
	th := o.Printer().Theme
	at := ev.At.Local().Format("15:04:05")
	ev = output.SafeCopy(ev)
	w = terminalSafeWriter{w: w, color: o.IO.ColorEnabled()}
	by := "" // who made the change, where events tell
	if ev.Actor != nil {
		by = " by " + th.Bold(activity.ActorName(client.Event{Actor: ev.Actor}))
	}
	var err error
	switch ev.Type {
	case "status":
		_, err = fmt.Fprintf(w, "%s %s %s → %s  %s%s\n", at, th.Cyan(ev.Number), th.Status(string(ev.From)), th.Status(string(ev.To)), ev.Title, by)
	case "answer":
		kind := "answer"
		if ev.Partial {
			kind = "partial answer"
		}
		if by == "" {
			by = " by " + orDash(ev.Author)
		}
		_, err = fmt.Fprintf(w, "%s %s %s%s: %s\n", at, th.Cyan(ev.Number), kind, by, sheets.OneLine(ev.Preview))
	case "new_request":
		_, err = fmt.Fprintf(w, "%s %s new request: %s%s\n", at, th.Cyan(ev.Number), ev.Title, by)
	}
	return err
}
