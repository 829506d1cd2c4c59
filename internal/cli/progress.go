package cli

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/domain"
)

// ProgressOptions are `progress`'s inputs.
type ProgressOptions struct{ cmdEnv }

// NewCmdProgress is `dealctl progress`.
func NewCmdProgress(f *Factory) *cobra.Command {
	opts := &ProgressOptions{cmdEnv: f.env()}
	return &cobra.Command{
		Use:         "progress",
		Annotations: printsTable, // -o csv|tsv
		Short:       "The deal at a glance: counts by status, category and assignee; overdue and due this week",
		Long: `Counts the deal's requests (sections aside) by status and category and by
assignee, and counts those overdue (due before today in the deal's time
zone, not complete) and due this week (today and the six days after, not
complete).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return progressRun(cmd.Context(), opts)
		},
	}
}

// assigneeCounts is one assignee's line.
type assigneeCounts struct {
	Assignee string `json:"assignee"` // an email, or "" for unassigned
	domain.StatusCounts
}

// progressReport is what `progress -o json` prints.
type progressReport struct {
	Deal        string                          `json:"deal"`
	Today       string                          `json:"today"`
	Total       domain.StatusCounts             `json:"total"`
	ByCategory  map[string]*domain.StatusCounts `json:"by_category"`
	ByAssignee  []assigneeCounts                `json:"by_assignee"`
	Overdue     int                             `json:"overdue"`
	DueThisWeek int                             `json:"due_this_week"`
}

func progressRun(ctx context.Context, o *ProgressOptions) error {
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	rows, err := s.Requests(ctx)
	if err != nil {
		return err
	}
	// Loaded once here so that personLabel names assignees by email.
	if _, err := s.People(ctx); err != nil {
		return err
	}
	rep := buildProgress(s, rows, o.Now())
	p := o.Printer()
	return p.Print(output.View{Data: rep, Table: progressTable(rep, false), Human: func(w io.Writer) error {
		width := 0
		if o.IO.IsStdoutTTY() {
			width = o.IO.TerminalWidth()
		}
		return writeProgress(w, rep, p.Theme, width)
	}})
}

func buildProgress(s *dealScope, rows []api.DealRequest, now time.Time) *progressReport {
	today := s.Today(now)
	rep := &progressReport{Deal: s.Deal.Codename, Today: today, ByCategory: map[string]*domain.StatusCounts{}}
	byAssignee := map[string]*domain.StatusCounts{}
	for _, c := range api.RequestCategories {
		rep.ByCategory[string(c)] = &domain.StatusCounts{}
	}
	for _, r := range rows {
		if r.Kind != api.KindRequest {
			continue
		}
		rep.Total.Add(r.Status)
		if rep.ByCategory[string(r.Category)] == nil {
			rep.ByCategory[string(r.Category)] = &domain.StatusCounts{}
		}
		rep.ByCategory[string(r.Category)].Add(r.Status)
		who := s.personLabel(r.AssigneeID)
		if byAssignee[who] == nil {
			byAssignee[who] = &domain.StatusCounts{}
		}
		byAssignee[who].Add(r.Status)
		if domain.Overdue(&r, today) {
			rep.Overdue++
		}
		if domain.DueThisWeek(&r, today) {
			rep.DueThisWeek++
		}
	}
	for who, c := range byAssignee {
		rep.ByAssignee = append(rep.ByAssignee, assigneeCounts{Assignee: who, StatusCounts: *c})
	}
	sort.Slice(rep.ByAssignee, func(i, j int) bool {
		a, b := rep.ByAssignee[i], rep.ByAssignee[j]
		if (a.Assignee == "") != (b.Assignee == "") {
			return b.Assignee == "" // unassigned last
		}
		return a.Assignee < b.Assignee
	})
	if rep.ByAssignee == nil {
		rep.ByAssignee = []assigneeCounts{}
	}
	return rep
}

// progressTable is the category × status table; for csv/tsv it is the
// whole report's data.
func progressTable(rep *progressReport, bars bool) *output.Table {
	t := &output.Table{Columns: []output.Column{
		{Header: "CATEGORY"}, {Header: "OPEN"}, {Header: "PARTIAL"}, {Header: "COMPLETE"}, {Header: "TOTAL"},
		{Header: "DONE", TTYOnly: true, Drop: 1},
	}}
	add := func(name string, c domain.StatusCounts) {
		if c.Total == 0 && name != "total" {
			return
		}
		t.AddRow(name, itoa(c.Open), itoa(c.Partial), itoa(c.Complete), itoa(c.Total), bar(c, bars))
	}
	for _, cat := range api.RequestCategories {
		add(string(cat), *rep.ByCategory[string(cat)])
	}
	add("total", rep.Total)
	return t
}

// bar shows the share of complete (█) and partial (▒) requests.
func bar(c domain.StatusCounts, on bool) string {
	if !on || c.Total == 0 {
		return ""
	}
	const width = 20
	full := c.Complete * width / c.Total
	half := c.Partial * width / c.Total
	return strings.Repeat("█", full) + strings.Repeat("▒", half) + strings.Repeat("░", width-full-half) +
		fmt.Sprintf(" %3d%%", c.Complete*100/c.Total)
}

// writeProgress writes the report for a terminal width wide, or for a
// pipe when width is 0.
func writeProgress(w io.Writer, rep *progressReport, th *display.Theme, width int) error {
	if width == 0 {
		// Stable lines for scripts: a label, then the counts.
		fmt.Fprintf(w, "total\t%d\t%d\t%d\t%d\n", rep.Total.Open, rep.Total.Partial, rep.Total.Complete, rep.Total.Total)
		for _, cat := range api.RequestCategories {
			c := rep.ByCategory[string(cat)]
			fmt.Fprintf(w, "category:%s\t%d\t%d\t%d\t%d\n", cat, c.Open, c.Partial, c.Complete, c.Total)
		}
		for _, a := range rep.ByAssignee {
			fmt.Fprintf(w, "assignee:%s\t%d\t%d\t%d\t%d\n", a.Assignee, a.Open, a.Partial, a.Complete, a.Total)
		}
		fmt.Fprintf(w, "overdue\t%d\ndue_this_week\t%d\n", rep.Overdue, rep.DueThisWeek)
		return nil
	}
	fmt.Fprintf(w, "%s — %d requests, %d complete, %d partial, %d open (today %s)\n\n",
		th.Bold(rep.Deal), rep.Total.Total, rep.Total.Complete, rep.Total.Partial, rep.Total.Open, rep.Today)
	if err := progressTable(rep, true).Render(w, th, width); err != nil {
		return err
	}
	fmt.Fprintln(w)
	at := &output.Table{Columns: []output.Column{{Header: "ASSIGNEE", Flex: true}, {Header: "OPEN"}, {Header: "PARTIAL"}, {Header: "COMPLETE"}, {Header: "TOTAL"}, {Header: "DONE", Drop: 1}}}
	for _, a := range rep.ByAssignee {
		at.AddRow(orDash(a.Assignee), itoa(a.Open), itoa(a.Partial), itoa(a.Complete), itoa(a.Total), bar(a.StatusCounts, true))
	}
	if err := at.Render(w, th, width); err != nil {
		return err
	}
	overdue := fmt.Sprintf("%d overdue", rep.Overdue)
	if rep.Overdue > 0 {
		overdue = th.Red(overdue)
	}
	_, err := fmt.Fprintf(w, "\n%s, %d due this week\n", overdue, rep.DueThisWeek)
	return err
}
