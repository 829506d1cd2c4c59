package cli

import (
	"bufio"
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/domain"
)

// RequestsListOptions are `requests ls`'s inputs.
type RequestsListOptions struct {
	cmdEnv
	RequestFilterFlags
	Search   string
	ExitCode bool
}

// NewCmdRequestsList is `dealctl requests ls`.
func NewCmdRequestsList(f *Factory, runF func(*RequestsListOptions) error) *cobra.Command {
	opts := &RequestsListOptions{cmdEnv: f.env()}
	cmd := &cobra.Command{
		Use:         "ls",
		Annotations: printsTable, // -o csv|tsv
		Aliases:     []string{"list"},
		Short:       "List the deal's requests, with filters",
		Long: `Lists the deal's rows in list order. With no filter, sections are shown too;
with any filter, only the requests that match. Due dates are calendar days
in the deal's time zone: --overdue means due before today there and not
complete; --due-before DATE means due strictly before DATE.

With --exit-code the command exits 8 when anything matches, 0 when nothing
does, and a failure keeps its own code (1 server unreachable, 4 bad key,
7 rate limited…): a gate for CI that tells "rows match" from "the check
could not run" (dealctl requests ls --overdue --exit-code).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// An empty --search (an unset variable in a script) would list
			// every row, and --exit-code would call them all matches.
			if cmd.Flags().Changed("search") && strings.TrimSpace(opts.Search) == "" {
				return cmdutil.UsageErrorf("--search needs words, and TEXT is empty: e.g. --search accounts, or leave --search out to list every request")
			}
			if runF != nil {
				return runF(opts)
			}
			return requestsListRun(cmd.Context(), opts)
		},
	}
	opts.addFlags(f, cmd, "requests")
	fl := cmd.Flags()
	fl.StringVar(&opts.Search, "search", "", "only requests matching TEXT: the server's search where offered (words, stems, \"phrases\"), else number, title, body or requester containing TEXT")
	fl.BoolVar(&opts.ExitCode, "exit-code", false, "exit 8 when any row matches")
	return cmd
}

func requestsListRun(ctx context.Context, o *RequestsListOptions) error {
	// Validate what needs no server first: a typo should not cost a call.
	flt, err := o.parse()
	if err != nil {
		return err
	}
	flt.Search = o.Search

	p := o.Printer()
	if p.Format == output.FormatJSON && p.JQ == "" && !o.given() && o.Search == "" && !o.ExitCode {
		return requestsListJSON(ctx, o, p)
	}
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	if flt.Search != "" {
		if flt.Found, err = searchOnServer(ctx, s, flt.Search); err != nil {
			return err
		}
	}
	now := o.Now()
	today := s.Today(now)
	if err := o.resolveOnDeal(ctx, s, now, &flt); err != nil {
		return err
	}
	needPeople := !p.Machine() || o.Assignee != ""
	// Where the server advertises list filters it is asked to filter what
	// it can, so less is sent; the answer is filtered here again either
	// way, so the rows printed are the same with or without them.
	rows, filtered, err := s.c.RequestsFiltered(ctx, s.Deal.ID, client.QueryOf(&flt.RequestFilter))
	if err != nil {
		return err
	}
	if !filtered {
		s.rows = rows // the whole list: later lookups by number reuse it
	}
	if err := o.resolveSection(ctx, s, rows, &flt); err != nil {
		return err
	}
	if needPeople {
		// Assignees show as emails; without the people list only ids.
		if _, err := s.People(ctx); err != nil {
			return err
		}
	}
	rows = flt.Keep(rows)
	if err := p.Print(output.View{Data: rows, Table: requestsTable(s, rows, today)}); err != nil {
		return err
	}
	if len(rows) == 0 && flt.Active() && !p.Machine() {
		// On stderr: a header alone, or nothing piped, reads as a failure.
		o.Infof("No request matches these filters")
	}
	if o.ExitCode && len(rows) > 0 {
		return cmdutil.SilentExit(cmdutil.ExitMatched)
	}
	return nil
}

// requestsListJSON is `requests ls -o json` with no filter: the list as
// the server sent it, laid out as -o json lays out anything, without
// decoding and encoding thousands of rows (see output.CopyRawJSON), and
// kept laid out in the ETag cache, so that a repeat is a 304 and a copy.
//
// A deal named by id is not looked up first: the list's own 404 says the
// same thing, and the call saved is a third of the command's wait.
func requestsListJSON(ctx context.Context, o *RequestsListOptions, p *output.Printer) error {
	ref, err := o.DealRef()
	if err != nil {
		return err
	}
	c, err := o.Client()
	if err != nil {
		return err
	}
	dealID := ref
	if !api.IsID(ref) {
		s, err := resolveDeal(ctx, c, ref)
		if err != nil {
			return err
		}
		dealID = s.Deal.ID
	}
	body, err := c.RequestsJSON(ctx, dealID, indentedList)
	if client.IsNotFound(err) {
		return cmdutil.NotFoundErrorf("no deal %s reachable with this key: see 'dealctl deals ls'", ref)
	}
	if err != nil {
		return err
	}
	defer body.Close()
	_, err = io.Copy(p.IO.Out, body)
	return err
}

// indentedList is the layout `requests ls -o json` prints, which the ETag
// cache keeps so that a repeated listing copies a file. A change to what
// layOutList writes needs a new Name, or old entries print the old way.
var indentedList = &client.Layout{Name: "indented-list", Write: layOutList}

// layOutList lays out the list as -o json lays out anything (see
// output.CopyRawJSON). A server that answers an empty deal with nothing
// or null gets the empty array a script can iterate.
func layOutList(w io.Writer, r io.Reader) error {
	br := bufio.NewReader(r)
	if err := skipSpace(br); err == io.EOF {
		return output.WriteRawJSON(w, []byte("[]"))
	} else if err != nil {
		return err
	}
	if head, _ := br.Peek(4); string(head) == "null" {
		br.Discard(4)
		if err := skipSpace(br); err == io.EOF {
			return output.WriteRawJSON(w, []byte("[]"))
		}
		return output.CopyRawJSON(w, io.MultiReader(strings.NewReader("null "), br)) // refused: null and more
	}
	return output.CopyRawJSON(w, br)
}

// skipSpace reads past JSON whitespace; io.EOF says nothing else came.
func skipSpace(br *bufio.Reader) error {
	for {
		b, err := br.ReadByte()
		if err != nil {
			return err
		}
		if b != ' ' && b != '\t' && b != '\n' && b != '\r' {
			return br.UnreadByte()
		}
	}
}

// findRow finds a row by number or id among rows, or returns nil.
func findRow(rows []api.DealRequest, ref string) *api.DealRequest {
	for i := range rows {
		if rows[i].Number == ref || rows[i].ID == ref {
			return &rows[i]
		}
	}
	return nil
}

// overdueMark is the requests table's hidden column the DUE colour reads.
const overdueMark = 9

func requestsTable(s *dealScope, rows []api.DealRequest, today string) *output.Table {
	// Piped, the columns are as they always were; on a terminal the title
	// follows the number and takes the width the others leave, the
	// assignee is named rather than e-mailed, and the category, then the
	// assignee, then the priority go when the terminal is narrow.
	t := &output.Table{Columns: []output.Column{
		{Header: "NUMBER", Color: display.CyanColumn},
		{Header: "KIND", PipeOnly: true},
		{Header: "STATUS", Color: display.StatusColumn},
		{Header: "PRIORITY", Color: display.PriorityColumn, Drop: 1},
		{Header: "CATEGORY", Drop: 3, Words: true},
		{Header: "DUE", Color: func(th *display.Theme, c string, row []string) string {
			if row[overdueMark] == "overdue" {
				return th.Red(c)
			}
			return c
		}},
		{Header: "ASSIGNEE", PipeOnly: true},
		{Header: "TITLE", Flex: true},
		{Header: "ID", PipeOnly: true},
		// A hidden marker the DUE colour reads; neither shown nor piped.
		{Header: "", PipeOnly: true, TTYOnly: true},
		{Header: "ASSIGNEE", TTYOnly: true, Drop: 2},
	}, TTYOrder: []int{0, 7, 2, 3, 5, 10, 4}}
	for _, r := range rows {
		if r.Kind == api.KindSection {
			t.AddRow(r.Number, string(r.Kind), "", "", "", "", "", r.Title, r.ID, "", "")
			continue
		}
		mark := ""
		if domain.Overdue(&r, today) {
			mark = "overdue"
		}
		t.AddRow(r.Number, string(r.Kind), string(r.Status), string(r.Priority), string(r.Category),
			deref(r.DueDate), s.personLabel(r.AssigneeID), r.Title, r.ID, mark, s.personName(r.AssigneeID))
	}
	return t
}
