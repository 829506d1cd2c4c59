package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/sheets"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// RequestsShowOptions are `requests show`'s inputs.
type RequestsShowOptions struct {
	cmdEnv
	Ref string
}

// NewCmdRequestsShow is `dealctl requests show REQUEST`.
func NewCmdRequestsShow(f *Factory) *cobra.Command {
	opts := &RequestsShowOptions{cmdEnv: f.env()}
	return &cobra.Command{
		Use:               "show REQUEST",
		Annotations:       printsTable, // -o csv|tsv
		Short:             "Show one request by number (2.3) or id",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRequests(f, ""),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			return requestsShowRun(cmd.Context(), opts)
		},
	}
}

func requestsShowRun(ctx context.Context, o *RequestsShowOptions) error {
	s, r, err := o.openRequest(ctx, o.Ref)
	if err != nil {
		return err
	}
	p := o.Printer()
	if !p.Machine() {
		if _, err := s.People(ctx); err != nil {
			return err
		}
	}
	return p.Print(output.View{Data: r, Table: requestsTable(s, []api.DealRequest{*r}, s.Today(o.Now())), Human: func(w io.Writer) error {
		safe := output.SafeCopy(*r)
		return writeRequestDetail(w, s, &safe, p.Theme, s.Today(o.Now()))
	}})
}

func writeRequestDetail(w io.Writer, s *dealScope, r *api.DealRequest, th *display.Theme, today string) error {
	fields := []output.Field{
		{Label: "Number", Value: r.Number},
		{Label: "Title", Value: th.Bold(r.Title)},
		{Label: "Kind", Value: string(r.Kind)},
	}
	if r.Kind == api.KindRequest {
		due := deref(r.DueDate)
		if domain.Overdue(r, today) {
			due = th.Red(due + " (overdue)")
		}
		fields = append(fields,
			output.Field{Label: "Status", Value: th.Status(string(r.Status)) + th.Dim(" (can move to: "+joinStatuses(r.AllowedStatuses)+")")},
			output.Field{Label: "Priority", Value: string(r.Priority)},
			output.Field{Label: "Category", Value: string(r.Category)},
			output.Field{Label: "Requester", Value: orDash(deref(r.Requester))},
			output.Field{Label: "Due", Value: orDash(due)},
			output.Field{Label: "Assignee", Value: orDash(termsafe.Line(s.personLabel(r.AssigneeID)))},
		)
	}
	fields = append(fields,
		output.Field{Label: "Updated", Value: r.UpdatedAt.Format(time.RFC3339)},
		output.Field{Label: "Id", Value: r.ID},
	)
	if r.LatestAnswer != nil {
		a := r.LatestAnswer
		who := "unknown"
		if a.Author != nil {
			who = a.Author.Email
		}
		fields = append(fields, output.Field{Label: "Latest", Value: fmt.Sprintf("%s: %s", who, sheets.OneLine(a.Preview))})
	}
	if len(r.Files) > 0 {
		fields = append(fields, output.Field{Label: "Files", Value: fmt.Sprintf("%d ('dealctl files ls %s')", len(r.Files), r.Number)})
	}
	if err := output.WriteFields(w, fields); err != nil {
		return err
	}
	if strings.TrimSpace(r.Body) != "" {
		_, err := fmt.Fprintf(w, "\n%s\n", strings.TrimRight(r.Body, "\n"))
		return err
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// joinStatuses lists statuses for a person, "none" for none.
func joinStatuses(ss []api.RequestStatus) string {
	if len(ss) == 0 {
		return "none"
	}
	return joinEnum(ss)
}
