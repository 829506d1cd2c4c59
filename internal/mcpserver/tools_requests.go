package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/domain"
)

// ListRequestsIn is list_requests' input: the filters of `dealctl
// requests ls`. Every filter given must hold.
type ListRequestsIn struct {
	DealArg
	Status       []string   `json:"status,omitempty" jsonschema:"any of: {status}"`
	Priority     []string   `json:"priority,omitempty" jsonschema:"any of: {priority}"`
	Category     []string   `json:"category,omitempty" jsonschema:"any of: {category}"`
	Assignee     string     `json:"assignee,omitempty" jsonschema:"me, none (unassigned), or a person's email, name or id"`
	Overdue      bool       `json:"overdue,omitempty" jsonschema:"only requests due before today (deal's time zone) and not complete"`
	DueBefore    string     `json:"due_before,omitempty" jsonschema:"only requests due before this day, YYYY-MM-DD"`
	Section      RequestRef `json:"section,omitempty" jsonschema:"only requests under this section, by its number"`
	Search       string     `json:"search,omitempty" jsonschema:"only requests whose number, title, body or requester contains this text"`
	UpdatedSince string     `json:"updated_since,omitempty" jsonschema:"only requests updated at or after this time (RFC 3339)"`
	Limit        int        `json:"limit,omitempty" jsonschema:"at most this many rows (default 200, at most 1000)"`
}

// ListRequestsOut is list_requests' answer.
type ListRequestsOut struct {
	Deal      DealRef `json:"deal"`
	Today     string  `json:"today" jsonschema:"today in the deal's time zone"`
	Matched   int     `json:"matched" jsonschema:"rows that matched, before the limit"`
	Truncated bool    `json:"truncated" jsonschema:"true when more rows matched than were returned"`
	Requests  []Row   `json:"requests"`
}

// filterOf is list_requests' filters, checked and resolved: the
// matching is domain.ListFilter's, which `dealctl requests ls` shares.
func (s *Server) filterOf(ctx context.Context, sc *scope, in ListRequestsIn) (*domain.ListFilter, error) {
	for _, given := range []struct{ name, value string }{{"assignee", in.Assignee}, {"search", in.Search}} {
		if given.value != "" && strings.TrimSpace(given.value) == "" {
			return nil, fmt.Errorf("%s is blank: give a value, or leave it out to keep every request", given.name)
		}
	}
	f := &domain.ListFilter{DueBefore: in.DueBefore, Search: domain.SearchQuery(in.Search)}
	var err error
	if f.Statuses, err = enumList(in.Status, "status", api.RequestStatuses); err != nil {
		return nil, err
	}
	if f.Priorities, err = enumList(in.Priority, "priority", api.Priorities); err != nil {
		return nil, err
	}
	if f.Categories, err = enumList(in.Category, "category", api.RequestCategories); err != nil {
		return nil, err
	}
	switch a := strings.TrimSpace(in.Assignee); {
	case a == "":
	case strings.EqualFold(a, string(api.AssigneeNone)):
		f.Assignees = []string{string(api.AssigneeNone)}
	default:
		p, err := sc.Person(ctx, a)
		if err != nil {
			return nil, err
		}
		f.Assignees = []string{p.ID}
	}
	if in.Overdue {
		f.OverdueOn = sc.today(s)
	}
	if in.DueBefore != "" {
		if _, err := time.Parse(time.DateOnly, in.DueBefore); err != nil {
			return nil, fmt.Errorf("due_before %q: give a day as YYYY-MM-DD", inertLine(in.DueBefore, maxLineChars))
		}
	}
	if in.UpdatedSince != "" {
		t, err := time.Parse(time.RFC3339, in.UpdatedSince)
		if err != nil {
			return nil, fmt.Errorf("updated_since %q: give a time as RFC 3339 (2026-11-20T09:00:00Z)", inertLine(in.UpdatedSince, maxLineChars))
		}
		f.UpdatedSince = &t
	}
	if !in.Section.IsZero() {
		sec, _, err := sc.Request(ctx, in.Section)
		if err != nil {
			return nil, err
		}
		if sec.Kind != api.KindSection {
			return nil, fmt.Errorf("%s is a request, not a section", sec.Number)
		}
		f.SectionID = sec.ID
	}
	return f, nil
}

func enumList[T ~string](vals []string, what string, allowed []T) ([]T, error) {
	var out []T
	for _, v := range vals {
		for _, p := range strings.Split(v, ",") {
			t := T(strings.ToLower(strings.TrimSpace(p)))
			if t == "" {
				continue
			}
			if !api.OneOf(t, allowed) {
				return nil, notOneOf(what, p, allowed)
			}
			out = append(out, t)
		}
	}
	if len(vals) > 0 && len(out) == 0 {
		// Read as no filter, blanks would keep every request.
		return nil, fmt.Errorf("%s holds no value: give %s, or leave it out to keep every request", what, orList(allowed))
	}
	return out, nil
}

// enumOne checks one value of an enumeration (letters in either case,
// spaces around it ignored): anything else, a blank included, is refused.
func enumOne[T ~string](v, what string, allowed []T) (T, error) {
	t := T(strings.ToLower(strings.TrimSpace(v)))
	if !api.OneOf(t, allowed) {
		return "", notOneOf(what, v, allowed)
	}
	return t, nil
}

// notOneOf refuses v, naming the values allowed.
func notOneOf[T ~string](what, v string, allowed []T) error {
	return fmt.Errorf("%s %q: choose from %s", what, inertLine(v, maxLineChars), strings.Join(api.Names(allowed), ", "))
}

func (s *Server) listRequests(ctx context.Context, _ *mcp.CallToolRequest, in ListRequestsIn) (*mcp.CallToolResult, ListRequestsOut, error) {
	sc, err := s.openDeal(ctx, in.Deal)
	if err != nil {
		return nil, ListRequestsOut{}, toolError(err)
	}
	f, err := s.filterOf(ctx, sc, in)
	if err != nil {
		return nil, ListRequestsOut{}, toolError(err)
	}
	rows, err := sc.RowsFor(ctx, client.QueryOf(&f.RequestFilter))
	if err != nil {
		return nil, ListRequestsOut{}, toolError(err)
	}
	out := s.rowsOut(ctx, sc, f.Keep(rows), in.Limit)
	return result(out), out, nil
}

// rowsOut is rows as list_requests and search return them, at most
// limit of them.
func (s *Server) rowsOut(ctx context.Context, sc *scope, rows []api.DealRequest, limit int) ListRequestsOut {
	today := sc.today(s)
	n := rowLimit(limit)
	out := ListRequestsOut{Deal: dealRef(sc.deal.Deal), Today: today, Matched: len(rows), Truncated: len(rows) > n,
		Requests: make([]Row, 0, min(n, len(rows)))}
	for i := range rows[:min(n, len(rows))] {
		out.Requests = append(out.Requests, sc.row(ctx, &rows[i], today, false, 0))
	}
	return out
}

// GetRequestIn is get_request's input.
type GetRequestIn struct {
	DealArg
	Request  RequestRef `json:"request" jsonschema:"the request's number (such as 2.3) or id"`
	MaxChars int        `json:"max_chars,omitempty" jsonschema:"cut the body and each message to this many characters (default 4000, at most 20000)"`
}

// GetRequestOut is get_request's answer.
type GetRequestOut struct {
	Deal             DealRef   `json:"deal"`
	Request          Row       `json:"request"`
	Messages         []Message `json:"messages" jsonschema:"the conversation, oldest first"`
	MessagesOmitted  int       `json:"messages_omitted,omitempty" jsonschema:"older messages left out (the newest 200 are returned)"`
	Files            []File    `json:"files" jsonschema:"every file and link given in answer"`
	YourSideIsOwning bool      `json:"your_side_is_owning" jsonschema:"whether the caller's side owns the list (and may keep internal notes)"`
}

func (s *Server) getRequest(ctx context.Context, _ *mcp.CallToolRequest, in GetRequestIn) (*mcp.CallToolResult, GetRequestOut, error) {
	sc, r, _, err := s.openRequest(ctx, in.Deal, in.Request)
	if err != nil {
		return nil, GetRequestOut{}, err
	}
	msgs, err := s.c.Messages(ctx, sc.deal.ID, r.ID)
	if err != nil {
		return nil, GetRequestOut{}, toolError(err)
	}
	chars := textLimit(in.MaxChars)
	out := GetRequestOut{Deal: dealRef(sc.deal.Deal), Request: sc.row(ctx, r, sc.today(s), true, chars),
		Files: files(r.Files), YourSideIsOwning: sc.onOwningSide()}
	if len(msgs) > maxMessages {
		out.MessagesOmitted = len(msgs) - maxMessages
		msgs = msgs[len(msgs)-maxMessages:]
	}
	out.Messages = make([]Message, 0, len(msgs))
	for _, m := range msgs {
		out.Messages = append(out.Messages, sc.message(ctx, m, chars))
	}
	return result(out), out, nil
}
