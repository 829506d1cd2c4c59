package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// Every call to the server runs in a tea.Cmd, that is on a goroutine of
// its own, and comes back as one of these messages: the keyboard is never
// waiting on the network. Each carries the deal it was for, so an answer
// that arrives after a switch of deal is dropped.

type dealLoadedMsg struct {
	deal   api.Deal
	seat   *api.Seat
	people map[string]string
	rows   []api.DealRequest
	etag   string
	err    error
}

type refreshedMsg struct {
	dealID  string
	rows    []api.DealRequest
	etag    string
	changed bool
	manual  bool // asked for with r: say so even when nothing changed
	err     error
}

type tickMsg struct{}

type messagesMsg struct {
	dealID, requestID string
	msgs              []api.Message
	scroll            scrollTo // where the detail pane goes once they show
	messageID         string   // with scrollMessage: the message to show
	err               error
}

// scrollTo is where the detail pane scrolls when a conversation arrives.
type scrollTo int

const (
	scrollHeading scrollTo = iota // enter: the start of the conversation
	scrollBottom                  // after a post: the newest message
	scrollKeep                    // a re-read in the background: stay put
	scrollMessage                 // a search hit: its message at the top
)

type postedMsg struct {
	dealID   string
	number   string
	kind     api.MessageKind
	internal bool
	before   api.RequestStatus // the status when the form was opened
	request  *api.DealRequest  // the request as it is after the post
	err      error
}

type movedMsg struct {
	dealID   string
	from     api.RequestStatus
	request  *api.DealRequest
	changed  bool // false: it was there already, which is no failure
	err      error
	number   string
	wantedTo api.RequestStatus
}

type downloadedMsg struct {
	name, path string
	err        error
}

type dealsMsg struct {
	deals []api.Deal
	err   error
}

// loadDeal reads what the screen needs about a deal: the caller's seat
// (which side it is on) unless seat is given, the people (assignee
// names) and the list.
func (m *Model) loadDeal(d api.Deal, seat *api.Seat) tea.Cmd {
	c, ctx := m.o.Client, m.ctx
	return func() tea.Msg {
		out := dealLoadedMsg{deal: d, seat: seat}
		if seat == nil {
			detail, err := c.Deal(ctx, d.ID)
			if err != nil {
				out.err = err
				return out
			}
			out.deal, out.seat = detail.Deal, &detail.Me
		}
		people, err := c.People(ctx, d.ID)
		if err != nil {
			out.err = err
			return out
		}
		out.people = make(map[string]string, len(people))
		for _, p := range people {
			label := p.Email
			if p.Name != nil && *p.Name != "" {
				label = *p.Name
			}
			out.people[p.ID] = label
		}
		rows, etag, _, err := c.RequestsIfChanged(ctx, d.ID, "")
		out.rows, out.etag, out.err = rows, etag, err
		return out
	}
}

// refresh asks for the list with If-None-Match: an unchanged list costs
// a 304 and no decoding.
func (m *Model) refresh(manual bool) tea.Cmd {
	if m.deal == nil {
		return nil
	}
	c, ctx, dealID, etag := m.o.Client, m.ctx, m.deal.ID, m.etag
	return func() tea.Msg {
		rows, newETag, changed, err := c.RequestsIfChanged(ctx, dealID, etag)
		return refreshedMsg{dealID: dealID, rows: rows, etag: newETag, changed: changed, manual: manual, err: err}
	}
}

// tick schedules the next background refresh.
func (m *Model) tick() tea.Cmd {
	if m.o.RefreshEvery <= 0 {
		return nil
	}
	return tea.Tick(m.o.RefreshEvery, func(time.Time) tea.Msg { return tickMsg{} })
}

func (m *Model) fetchMessages(requestID string, scroll scrollTo) tea.Cmd {
	c, ctx, dealID := m.o.Client, m.ctx, m.deal.ID
	return func() tea.Msg {
		msgs, err := c.Messages(ctx, dealID, requestID)
		return messagesMsg{dealID: dealID, requestID: requestID, msgs: msgs, scroll: scroll, err: err}
	}
}

// post sends an answer, then reads the request again: a response moves
// its status, and the row should show where it landed.
func (m *Model) post(r api.DealRequest, in api.MessageCreate) tea.Cmd {
	c, ctx, dealID := m.o.Client, m.ctx, m.deal.ID
	base := postedMsg{dealID: dealID, number: termsafe.Line(r.Number), before: r.Status,
		kind: in.Kind.Value, internal: in.Internal.Value}
	return func() tea.Msg {
		out := base
		if _, err := c.PostMessage(ctx, dealID, r.ID, in); err != nil {
			out.err = err
			return out
		}
		out.request, out.err = c.Request(ctx, dealID, r.ID)
		return out
	}
}

// move changes r's status through the same path as `dealctl status`
// (client.MoveStatus): the row may be older than the server's copy, so it
// is read again where the server checks If-Match, a move to where the
// request is already is success, and a refused move says which are
// allowed.
func (m *Model) move(r api.DealRequest, to api.RequestStatus) tea.Cmd {
	c, ctx, dealID := m.o.Client, m.ctx, m.deal.ID
	return func() tea.Msg {
		after, changed, err := c.MoveStatus(ctx, dealID, &r, "", to)
		return movedMsg{dealID: dealID, from: r.Status, request: after, changed: changed, err: err, number: termsafe.Line(r.Number), wantedTo: to}
	}
}

func (m *Model) download(r api.DealRequest, f api.File) tea.Cmd {
	deal, ctx, dl := *m.deal, m.ctx, m.o.Download
	name := termsafe.Line(display.FileName(f))
	return func() tea.Msg {
		path, err := dl(ctx, deal, r.Number, f)
		return downloadedMsg{name: name, path: path, err: err}
	}
}

func (m *Model) fetchDeals() tea.Cmd {
	c, ctx := m.o.Client, m.ctx
	return func() tea.Msg {
		deals, err := c.Deals(ctx)
		return dealsMsg{deals: deals, err: err}
	}
}
