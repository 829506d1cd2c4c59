package cli

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/activity"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/gctune"
)

// ActivityOptions are `activity`'s inputs.
type ActivityOptions struct {
	cmdEnv
	Since    string
	Request  string // a number or id; "" for the whole deal
	Follow   bool
	Interval time.Duration
	Count    int // with --follow: polls before stopping; 0: until interrupted
	Sleep    func(ctx context.Context, d time.Duration) error
}

// NewCmdActivity is `dealctl activity`.
func NewCmdActivity(f *Factory) *cobra.Command {
	opts := &ActivityOptions{cmdEnv: f.env(), Sleep: client.Sleep}
	cmd := &cobra.Command{
		Use:         "activity",
		Annotations: printsTable, // -o csv|tsv
		Short:       "Show what happened on the deal, who did it, and when",
		Long: `Lists the deal's events, oldest first: requests created and edited,
assignments and due dates, status moves, messages, files attached, and
(for the owning side's project admins) downloads. Each line names who
did it, when, and the request's number and title. The server shows each
caller only what the API lets them see: the counterparty never sees an
internal note, nor that one was posted.

--since takes a duration back from now (24h, 7d), a date (2026-11-20,
from midnight in the deal's time zone), a time (2026-11-20T09:00:00Z), or
"all". --follow keeps polling every --interval for new events with
If-None-Match, so a poll with nothing new costs a 304.

With -o json each event is one JSON object on its own line. Needs a
server that advertises the events extension (dealctl serve does).`,
		Example: `  dealctl activity                       # the last 24 hours
  dealctl activity --since 7d --request 2.3
  dealctl activity --follow -o json | tee -a falcon-events.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Interval < time.Second {
				return cmdutil.UsageErrorf("--interval %s: at least 1s, to stay within the rate limit", opts.Interval)
			}
			if opts.Count < 0 {
				return cmdutil.UsageErrorf("--count %d: a number of polls, 0 for no end", opts.Count)
			}
			if _, err := activity.ParseSince(opts.Since, time.Now(), nil); err != nil {
				return cmdutil.WithExit(cmdutil.ExitUsage, err)
			}
			if opts.Follow && newFeedPrinter(opts.cmdEnv, nil).collects() {
				return cmdutil.UsageErrorf("--follow prints events as they come: use -o json, --jq or the default lines, not -o %s", opts.Printer().Format)
			}
			return activityRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Since, "since", "24h", "from when: a duration (24h, 7d), a date, today, yesterday, a time, or all")
	cmd.Flags().StringVar(&opts.Request, "request", "", "only this request's events (a number such as 2.3, or an id)")
	cmd.Flags().BoolVarP(&opts.Follow, "follow", "f", false, "keep printing new events as they happen")
	cmd.Flags().DurationVar(&opts.Interval, "interval", 30*time.Second, "with --follow: time between polls")
	cmd.Flags().IntVar(&opts.Count, "count", 0, "with --follow: stop after N polls (0: run until interrupted)")
	_ = cmd.RegisterFlagCompletionFunc("request", completeRequests(f, ""))
	return cmd
}

func activityRun(ctx context.Context, o *ActivityOptions) error {
	if o.Follow {
		gctune.ForLongRuns()
	}
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	feed, err := newEventFeed(ctx, s, "dealctl activity")
	if err != nil {
		return err
	}
	since, err := activity.ParseSince(o.Since, o.Now(), dealLocation(s.Deal))
	if err != nil {
		return cmdutil.WithExit(cmdutil.ExitUsage, err)
	}
	var onlyID string
	if o.Request != "" {
		r := findRow(feed.order, o.Request)
		if r == nil {
			return cmdutil.NotFoundErrorf("no request %s on %s that this key can see: see 'dealctl requests ls'", o.Request, s.Deal.Codename)
		}
		onlyID = r.ID
	}
	fp := newFeedPrinter(o.cmdEnv, activityTable())
	names := feed.names(ctx)
	show := func(page []client.Event) error {
		var es []activity.Entry
		for _, ev := range page {
			if ev.At.Before(since) || (onlyID != "" && (ev.RequestID == nil || *ev.RequestID != onlyID)) {
				continue
			}
			es = append(es, activity.Describe(ev, names))
		}
		return fp.print(es, activityRow)
	}
	if err := feed.next(ctx, show); err != nil {
		return err
	}
	if !o.Follow {
		if fp.n == 0 && !fp.p.Machine() {
			o.Infof("Nothing happened on %s since %s that this key can see.", s.Deal.Codename, sinceText(since))
		}
		return fp.flush()
	}
	if !fp.p.Machine() {
		o.Infof("Following %s every %s (Ctrl-C to stop)", describeDeal(s.Deal), o.Interval)
	}
	for poll := 1; o.Count == 0 || poll < o.Count; poll++ {
		if err := o.Sleep(ctx, o.Interval); err != nil {
			return nil // interrupted: a normal way to stop following
		}
		if err := feed.next(ctx, show); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
	return nil
}

// dealLocation is the deal's time zone, UTC when it names none known.
func dealLocation(d api.Deal) *time.Location { return domain.DealLocation(d.Timezone) }
