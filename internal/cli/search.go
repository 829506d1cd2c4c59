package cli

import (
	"context"
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/english"
	"github.com/dealctl/dealctl/internal/search"
)

// SearchOptions are `dealctl search`'s inputs.
type SearchOptions struct {
	cmdEnv
	RequestFilterFlags
	Query string
	In    string
	Any   bool
	Limit int
}

// NewCmdSearch is `dealctl search QUERY`.
func NewCmdSearch(f *Factory, runF func(*SearchOptions) error) *cobra.Command {
	opts := &SearchOptions{cmdEnv: f.env()}
	cmd := &cobra.Command{
		Use:         "search QUERY...",
		Annotations: printsTable, // -o csv|tsv
		Short:       "Search the deal's requests and conversations",
		Long: `Finds words in the deal's request numbers, titles, bodies and requesters, in
message texts, link labels and file names, in what you may see: the server's
search (docs/api.md, "Search"), ranked. Every word must match; words are
stemmed (account finds accounts), accents and case folded; "a phrase" in
quotes (quote it for the shell too), audit* for words starting so; numbers
such as 2.3 and names such as FY2023 are found as typed.

Requests whose number or title holds the words come first, then body,
requester, then messages, links and files, newest first. WHERE says which:
a number, title, body, requester, request (spread over its fields),
message, link or file. Matched words are bold on a terminal.

--in requests looks in the rows only, --in messages in the conversations
only; --any finds requests holding any of the words, those holding most
first (the "asked before" search).

The filters are requests ls's, and keep the hits on requests that pass
them (never a section's). --status, --priority, --category and --assignee
are applied by the server's search. --section, --overdue and --due-before
are applied here, by the requests the hits belong to (the deal's list is
read for them): with any of these the server is asked for its first 500
hits, and --limit counts those that pass; where the server found more than
500, hits past the 500th were not looked at, and a warning says so.`,
		Example: `  dealctl search audited accounts
  dealctl search '"share purchase agreement"' --in messages
  dealctl search 'indemn*' --status open --json --jq '.[].number'
  dealctl search accounts --section 2 --overdue`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Query = strings.Join(args, " ")
			if err := checkQuery(opts.Query); err != nil {
				return err
			}
			if cmd.Flags().Changed("in") && strings.TrimSpace(opts.In) == "" {
				return cmdutil.UsageErrorf("--in was given an empty value: give requests or messages, or leave the flag out")
			}
			if runF != nil {
				return runF(opts)
			}
			return searchRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.In, "in", "", "look only in requests or messages")
	fl.BoolVar(&opts.Any, "any", false, "requests holding any of the words, most first")
	fl.IntVarP(&opts.Limit, "limit", "L", 30, "hits at most (1-500)")
	opts.addFlags(f, cmd, "hits on requests")
	_ = cmd.RegisterFlagCompletionFunc("in", cobra.FixedCompletions([]string{string(api.SearchInRequests), string(api.SearchInMessages)}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func searchRun(ctx context.Context, o *SearchOptions) error {
	q := client.SearchQuery{Q: o.Query, Limit: o.Limit}
	var err error
	if o.In != "" {
		if q.In, err = parseEnum("--in", o.In, []api.SearchIn{api.SearchInRequests, api.SearchInMessages}); err != nil {
			return err
		}
	}
	if o.Any {
		if q.In == api.SearchInMessages {
			return cmdutil.UsageErrorf("--any looks in requests only: leave out --in messages")
		}
		q.Match, q.In = api.SearchMatchAny, api.SearchInRequests
	}
	if o.Limit < 1 || o.Limit > api.SearchMaxLimit {
		return cmdutil.UsageErrorf("--limit %d: give 1 to %d", o.Limit, api.SearchMaxLimit)
	}
	flt, err := o.parse()
	if err != nil {
		return err
	}
	s, err := o.openDeal(ctx)
	if err != nil {
		return err
	}
	if err := o.resolveOnDeal(ctx, s, o.Now(), &flt); err != nil {
		return err
	}
	q.Filter = client.QueryOf(&flt.RequestFilter)
	onClient := o.onClientOnly()
	var rows []api.DealRequest
	if len(onClient) > 0 {
		q.Limit = api.SearchMaxLimit // --limit counts the hits that pass here
		// The list, and the section in it, before the search: a
		// mistyped --section costs no search of 500 hits.
		if rows, err = s.Requests(ctx); err != nil {
			return err
		}
		if err := o.resolveSection(ctx, s, rows, &flt); err != nil {
			return err
		}
	}
	res, err := s.c.Search(ctx, s.Deal.ID, q)
	if errors.Is(err, client.ErrSearchUnsupported) {
		return cmdutil.WithExit(cmdutil.ExitFailure, errors.New("this server does not offer search (the search extension); 'dealctl requests ls --search TEXT' matches the rows' fields instead"))
	}
	if err != nil {
		return err
	}
	hits, more, cut := res.Hits, res.More, false
	if len(onClient) > 0 {
		hits, more, cut = filterHits(o, &flt, rows, res, onClient)
	}
	p := o.Printer()
	if err := p.Print(output.View{Data: hits, Table: searchTable(hits)}); err != nil {
		return err
	}
	if !p.Machine() {
		o.sayWhatIsLeftOut(res, hits, more, cut, onClient)
	}
	return nil
}

// sayWhatIsLeftOut says on stderr, under a table, why it is empty — the
// server found nothing, or the client's filters left none of what it
// found — or that more hits are there and how to see them: --limit,
// unless it is at its most, or the server's answer was cut before the
// filters here (cut: filterHits warned of it, and a higher --limit would
// not look further). onClient is the filters applied here.
func (o *SearchOptions) sayWhatIsLeftOut(res *api.SearchResults, hits []api.SearchHit, more, cut bool, onClient []string) {
	switch {
	case len(res.Hits) == 0 && len(o.onServer()) > 0:
		o.Infof("Nothing found for %s with %s", o.Query, strings.Join(o.onServer(), " and "))
	case len(res.Hits) == 0:
		o.Infof("Nothing found for %s", o.Query)
	case len(hits) == 0:
		o.Infof("No hit for %s passes %s (the search found %d before %s)", o.Query, strings.Join(onClient, " and "), len(res.Hits), english.Plural(len(onClient), "it", "them"))
	case !more, cut:
	case o.Limit < api.SearchMaxLimit:
		o.Infof("More than %d %s: narrow the search, or ask for more with --limit (up to %d)", len(hits), english.Plural(len(hits), "hit", "hits"), api.SearchMaxLimit)
	default:
		o.Infof("More than %d hits, the most one search answers: narrow the search", len(hits))
	}
}

// checkQuery refuses, before any call, a query the server's parser
// (internal/search, which the server runs) finds nothing in or too much:
// a usage error, exit 2, whether it is empty or punctuation alone.
func checkQuery(q string) error {
	_, err := search.Parse(q)
	switch {
	case err == nil:
		return nil
	case strings.TrimSpace(q) == "":
		return cmdutil.UsageErrorf("search needs words, and QUERY is empty: e.g. dealctl search audited accounts")
	case errors.Is(err, search.ErrQueryEmpty):
		return cmdutil.UsageErrorf("%q has no word to search for (punctuation alone is not searched): give words, e.g. dealctl search audited accounts", q)
	}
	return cmdutil.UsageErrorf("%s: at most %d characters and %d words", err, search.MaxQueryLen, search.MaxTerms)
}

// filterHits keeps the hits of res on requests that pass flt, which the
// server's search could not apply (--section, --overdue, --due-before),
// at most o.Limit of them; more says others passed too. Where the server
// found more than it answered, hits past its answer were never looked
// at: the user is warned, since fewer may show than there are, and cut
// says so. onClient names the filters applied here.
func filterHits(o *SearchOptions, flt *domain.ListFilter, rows []api.DealRequest, res *api.SearchResults, onClient []string) (hits []api.SearchHit, more, cut bool) {
	passed := make(map[string]bool)
	for _, r := range flt.Keep(rows) {
		passed[r.ID] = true
	}
	hits = []api.SearchHit{}
	for _, h := range res.Hits {
		if !passed[h.RequestID] {
			continue
		}
		if len(hits) == o.Limit {
			return hits, true, false
		}
		hits = append(hits, h)
	}
	if res.More {
		o.Warnf("the search found more than %d hits before %s %s applied here: hits past the %dth were not looked at, so some may be missing; add words to narrow it",
			len(res.Hits), strings.Join(onClient, " and "), english.Plural(len(onClient), "was", "were"), len(res.Hits))
	}
	return hits, res.More, res.More
}

// snippetColumn is the search table's SNIPPET column and matchesColumn
// the (piped) column of the words matched in it, which the terminal
// shows bold.
const (
	snippetColumn = 3
	matchesColumn = 4
)

func searchTable(hits []api.SearchHit) *output.Table {
	t := &output.Table{Columns: []output.Column{
		{Header: "NUMBER", Color: display.CyanColumn},
		{Header: "WHERE"},
		{Header: "TITLE", Max: 40, Drop: 1},
		{Header: "SNIPPET", Flex: true, Color: boldMatches},
		{Header: "MATCHES", PipeOnly: true},
		{Header: "POSTED", PipeOnly: true},
		{Header: "REQUEST_ID", PipeOnly: true},
		{Header: "MESSAGE_ID", PipeOnly: true},
		{Header: "FILE_ID", PipeOnly: true},
	}}
	for _, h := range hits {
		var matched []string
		for _, piece := range h.Snippet {
			if piece.Match {
				matched = append(matched, piece.Text)
			}
		}
		where := string(h.Field)
		if h.Internal {
			where += " (internal)"
		}
		t.AddRow(h.Number, where, h.Title, snippetText(h.Snippet), strings.Join(matched, ","), timeCell(h.PostedAt), h.RequestID, deref(h.MessageID), deref(h.FileVersionID))
	}
	return t
}

// snippetLead is how much of a snippet's text is kept before its first
// matched word: the terminal cuts the SNIPPET column at its end, so a
// match late in a long sentence would be cut off the screen.
const snippetLead = 24

// snippetText is a snippet's text from a little before its first matched
// word, the rest of the words before it said with "…".
func snippetText(pieces []api.SnippetPiece) string {
	var before, rest strings.Builder
	matched := false
	for _, p := range pieces {
		matched = matched || p.Match
		if matched {
			rest.WriteString(p.Text)
		} else {
			before.WriteString(p.Text)
		}
	}
	lead := []rune(before.String())
	if !matched || len(lead) <= snippetLead {
		return string(lead) + rest.String()
	}
	kept := string(lead[len(lead)-snippetLead:])
	if i := strings.IndexByte(kept, ' '); i >= 0 && i < len(kept)-1 {
		kept = kept[i+1:] // from a word's start
	}
	return "…" + kept + rest.String()
}

// boldMatches makes the matched words of a snippet cell bold.
func boldMatches(th *display.Theme, cell string, row []string) string {
	for _, word := range strings.Split(row[matchesColumn], ",") {
		if word != "" {
			cell = strings.ReplaceAll(cell, word, th.Bold(word))
		}
	}
	return cell
}
