package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/activity"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
)

// NewCmdAudit is `dealctl audit`.
func NewCmdAudit(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "audit", Short: "Audit trails of the deal, for its project admins"}
	cmd.AddCommand(NewCmdAuditDownloads(f))
	return cmd
}

// AuditDownloadsOptions are `audit downloads`'s inputs.
type AuditDownloadsOptions struct {
	cmdEnv
	Since string
}

// NewCmdAuditDownloads is `dealctl audit downloads`.
func NewCmdAuditDownloads(f *Factory) *cobra.Command {
	opts := &AuditDownloadsOptions{cmdEnv: f.env()}
	cmd := &cobra.Command{
		Use:         "downloads",
		Annotations: printsTable, // -o csv|tsv
		Short:       "Who took a download link for which file, and who fetched it",
		Long: `Lists the deal's download events, oldest first: each download link
issued (who asked for which file of which request) and each file fetched
through the server. Only the owning side's project admins see them; for
anyone else the command says so and exits 4.

-o csv writes a file to open in a spreadsheet (a cell that would run as
a formula there is written behind an apostrophe). --since takes what
'dealctl activity --since' takes; the default is the whole history.
Needs a server that advertises the events extension (dealctl serve does).`,
		Example: `  dealctl audit downloads --since 7d
  dealctl audit downloads -o csv > falcon-downloads.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := activity.ParseSince(opts.Since, time.Now(), nil); err != nil {
				return cmdutil.WithExit(cmdutil.ExitUsage, err)
			}
			return auditDownloadsRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Since, "since", "all", "from when: a duration (24h, 7d), a date, today, yesterday, a time, or all")
	return cmd
}

func auditDownloadsRun(ctx context.Context, o *AuditDownloadsOptions) error {
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	if err := checkAuditSeat(ctx, s); err != nil {
		return err
	}
	feed, err := newEventFeed(ctx, s, "dealctl audit downloads")
	if err != nil {
		return err
	}
	since, err := activity.ParseSince(o.Since, o.Now(), dealLocation(s.Deal))
	if err != nil {
		return cmdutil.WithExit(cmdutil.ExitUsage, err)
	}
	p := o.Printer()
	t := downloadsTable()
	records := []activityRecord{}
	names := feed.names(ctx)
	err = feed.next(ctx, func(page []client.Event) error {
		for _, ev := range page {
			if !activity.IsDownload(ev.Type) || ev.At.Before(since) {
				continue
			}
			e := activity.Describe(ev, names)
			records = append(records, recordOf(e))
			t.AddRow(downloadRow(e)...)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(records) == 0 && !p.Machine() {
		o.Infof("No downloads on %s since %s.", s.Deal.Codename, sinceText(since))
	}
	return p.Print(output.View{Data: records, Table: t})
}

// checkAuditSeat refuses, before reading any event, a caller who is not
// a project admin of the owning side: the server would only leave the
// download events out, and an empty trail would read as "nobody
// downloaded anything".
func checkAuditSeat(ctx context.Context, s *dealScope) error {
	owner, err := s.OnOwningSide(ctx)
	if err != nil {
		return err
	}
	d := s.detail
	if d.Me.IsProjectAdmin && owner {
		return nil
	}
	who := "a " + orDash(string(d.Me.Access))
	if strings.ContainsAny(string(d.Me.Access)[:min(1, len(d.Me.Access))], "aeiou") {
		who = "an " + string(d.Me.Access) // an admin, an editor
	}
	if d.Me.IsProjectAdmin {
		who = "a project admin of the counterparty"
	} else if !owner {
		who += " of the counterparty"
	} else {
		who += " of the owning side, not a project admin"
	}
	return cmdutil.WithExit(cmdutil.ExitAuth, fmt.Errorf(
		"the download audit trail of %s is for the owning side's project admins; this key acts as %s: ask one of them to run it",
		s.Deal.Codename, who))
}

func sinceText(t time.Time) string {
	if t.IsZero() {
		return "the start"
	}
	return t.Local().Format("2006-01-02 15:04")
}

func downloadsTable() *output.Table {
	return &output.Table{Columns: []output.Column{
		{Header: "AT"},
		{Header: "PERSON"},
		{Header: "EMAIL", PipeOnly: true},
		{Header: "REQUEST", Color: display.CyanColumn},
		{Header: "TITLE", Flex: true},
		{Header: "WHAT"},
		{Header: "TYPE", PipeOnly: true},
		{Header: "ID", PipeOnly: true},
	}}
}

func downloadRow(e activity.Entry) []string {
	email := ""
	if a := e.Event.Actor; a != nil {
		email = a.Email
	}
	return []string{e.Event.At.UTC().Format(time.RFC3339), e.Actor, email, recordOf(e).Number, e.Title, e.What, string(e.Event.Type), e.Event.ID}
}
