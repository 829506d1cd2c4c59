package tui

import (
	"context"
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/dealctl/dealctl/internal/api"
)

type pane int

const (
	paneList pane = iota
	paneDetail
)

type mode int

const (
	modeBrowse mode = iota
	modeSearch
	modeAnswer
	modePick
	modeHelp
)

// Model is the program's state. It is used through a pointer: the list
// can hold thousands of rows and must not be copied on every message.
type Model struct {
	o     Options
	ctx   context.Context
	st    styles
	keys  keyMap
	width int
	// height is the terminal's; layout() divides it between the panes.
	height int

	deal   *api.Deal
	loc    *time.Location
	seat   *api.Seat
	owner  bool              // the caller is on the side that owns the list
	people map[string]string // person id → name, for the assignee column
	list   rowList
	etag   string

	cursor, offset int // cursor and first shown row, as positions in list.visible
	focus          pane
	mode           mode

	detail    viewport.Model
	detailFor string // the row id the detail pane was built for
	convo     map[string]*conversation
	md        *markdown

	search textinput.Model
	answer *answerForm
	picker *picker

	loading    bool
	refreshing bool
	note       string // the last thing that happened, for the status line
	noteErr    bool
	// staleErr marks a note that is a failed background refresh, which
	// the next good refresh clears: the problem it reported is over.
	staleErr bool
}

// New builds the program's model.
func New(ctx context.Context, o Options) *Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Describe == nil {
		o.Describe = func(err error) string { return err.Error() }
	}
	setColorProfile(o.Color)
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "number, title or body"
	m := &Model{
		o:      o,
		ctx:    ctx,
		st:     newStyles(o.Color),
		keys:   newKeyMap(),
		width:  MinWidth,
		height: MinHeight,
		loc:    time.UTC,
		convo:  map[string]*conversation{},
		md:     newMarkdown(o.Color),
		search: ti,
		detail: viewport.New(MinWidth, 8),
	}
	if o.Deal != nil {
		m.setDeal(*o.Deal)
		m.loading = true
	}
	return m
}

// Init starts the first load and the refresh clock.
func (m *Model) Init() tea.Cmd {
	if m.deal == nil {
		return tea.Batch(m.fetchDeals(), m.tick())
	}
	return tea.Batch(m.loadDeal(*m.deal, m.o.Seat), m.tick())
}

func (m *Model) setDeal(d api.Deal) {
	m.deal = &d
	m.loc = time.UTC
	if loc, err := time.LoadLocation(d.Timezone); err == nil {
		m.loc = loc
	}
}

// Update handles one message. Every branch returns quickly: network work
// is handed back as a tea.Cmd.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case tea.KeyMsg:
		return m, m.handleKey(msg)
	case dealLoadedMsg:
		return m, m.onDealLoaded(msg)
	case refreshedMsg:
		m.onRefreshed(msg)
		return m, nil
	case tickMsg:
		// The next tick is scheduled now, not when the refresh returns, so
		// a slow server cannot stretch the period; a refresh still in
		// flight is not doubled.
		var cmd tea.Cmd
		if !m.refreshing && !m.loading && m.deal != nil {
			m.refreshing = true
			cmd = m.refresh(false)
		}
		return m, tea.Batch(cmd, m.tick())
	case messagesMsg:
		m.onMessages(msg)
		return m, nil
	case postedMsg:
		return m, m.onPosted(msg)
	case movedMsg:
		m.onMoved(msg)
		return m, nil
	case downloadedMsg:
		if msg.err != nil {
			m.fail(fmt.Errorf("download of %s: %s", msg.name, m.o.Describe(msg.err)))
		} else {
			m.say("Saved %s to %s", msg.name, msg.path)
		}
		return m, nil
	case dealsMsg:
		m.onDeals(msg)
		return m, nil
	}
	// Cursor blinks and the like belong to whichever input is open.
	return m, m.updateInputs(msg)
}

func (m *Model) updateInputs(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch m.mode {
	case modeSearch:
		m.search, cmd = m.search.Update(msg)
	case modeAnswer:
		cmd = m.answer.update(msg)
	}
	return cmd
}

// say puts a line in the status bar.
func (m *Model) say(format string, a ...any) {
	m.note, m.noteErr, m.staleErr = fmt.Sprintf(format, a...), false, false
}

// fail shows err in the status bar: the program never stops on an error
// from the server; the user reads it and carries on.
func (m *Model) fail(err error) {
	m.note, m.noteErr, m.staleErr = err.Error(), true, false
}

func (m *Model) failf(prefix string, err error) {
	m.note, m.noteErr, m.staleErr = prefix+": "+m.o.Describe(err), true, false
}

func (m *Model) onDealLoaded(msg dealLoadedMsg) tea.Cmd {
	if m.deal == nil || msg.deal.ID != m.deal.ID {
		return nil
	}
	m.loading = false
	if msg.err != nil {
		m.failf("loading "+msg.deal.Codename, msg.err)
		return nil
	}
	m.setDeal(msg.deal)
	m.seat, m.people, m.etag = msg.seat, msg.people, msg.etag
	m.owner = false
	for _, p := range msg.deal.Parties {
		if p.IsOwner && msg.seat != nil && p.ID == msg.seat.PartyID {
			m.owner = true
		}
	}
	m.convo = map[string]*conversation{}
	m.cursor, m.offset = 0, 0
	m.setRows(msg.rows, "")
	m.skipHeading()
	m.syncDetail(true)
	return nil
}

func (m *Model) onRefreshed(msg refreshedMsg) {
	if m.deal == nil || msg.dealID != m.deal.ID {
		return
	}
	m.refreshing = false
	if msg.err == nil && m.staleErr {
		m.note, m.noteErr, m.staleErr = "", false, false
	}
	switch {
	case msg.err != nil:
		m.failf("refresh", msg.err)
		m.staleErr = true
	case msg.changed:
		m.etag = msg.etag
		keep := m.currentID()
		m.setRows(msg.rows, keep)
		// Conversations may have grown: read them again when opened.
		m.convo = map[string]*conversation{}
		m.syncDetail(true)
		if msg.manual {
			m.say("Refreshed: %d requests", len(m.list.all))
		}
	case msg.manual:
		m.say("Up to date")
	}
}

// setRows replaces the list, keeping the filter and, when it is still
// shown, the row under the cursor.
func (m *Model) setRows(rows []api.DealRequest, keepID string) {
	m.list = newRowList(rows).withFilter(m.list.filter, m.search.Value())
	m.placeCursor(keepID)
}

// placeCursor puts the cursor on row id, or keeps its position when that
// row is no longer shown.
func (m *Model) placeCursor(id string) {
	if pos := m.list.indexOf(id); pos >= 0 {
		m.cursor = pos
	}
	m.clampCursor()
}

// skipHeading moves the cursor off a section heading onto the first
// request below it: after a load or a search the user wants a request.
func (m *Model) skipHeading() {
	for pos := m.cursor; pos < len(m.list.visible); pos++ {
		if m.list.all[m.list.visible[pos]].Kind != api.KindSection {
			m.cursor = pos
			m.clampCursor()
			return
		}
	}
}

func (m *Model) currentID() string {
	if r := m.current(); r != nil {
		return r.ID
	}
	return ""
}

// current is the row under the cursor, or nil for an empty list.
func (m *Model) current() *api.DealRequest {
	if m.cursor < 0 || m.cursor >= len(m.list.visible) {
		return nil
	}
	return &m.list.all[m.list.visible[m.cursor]]
}

// replaceRow puts a row the server returned in place of the old one.
func (m *Model) replaceRow(r *api.DealRequest) {
	if i, ok := m.list.byID[r.ID]; ok {
		rows := make([]api.DealRequest, len(m.list.all))
		copy(rows, m.list.all)
		rows[i] = *r
		m.setRows(rows, r.ID)
		m.syncDetail(true)
	}
}

func (m *Model) onPosted(msg postedMsg) tea.Cmd {
	if m.deal == nil || msg.dealID != m.deal.ID {
		return nil
	}
	if msg.err != nil {
		// The form stays open with the text, so nothing typed is lost.
		if m.answer != nil {
			m.answer.sending = false
		}
		m.failf("answer on "+msg.number, msg.err)
		return nil
	}
	m.answer, m.mode = nil, modeBrowse
	delete(m.convo, msg.request.ID)
	m.replaceRow(msg.request)
	m.say("Answer posted on %s; it is now %s", msg.number, msg.request.Status)
	// The etag no longer matches: the next refresh reads the list anew.
	if m.focus == paneDetail {
		return m.openConversation()
	}
	return nil
}

func (m *Model) onMoved(msg movedMsg) {
	if m.deal == nil || msg.dealID != m.deal.ID {
		return
	}
	if msg.err != nil {
		m.failf(fmt.Sprintf("moving %s to %s", msg.number, msg.wantedTo), msg.err)
		return
	}
	m.replaceRow(msg.request)
	m.say("%s moved from %s to %s", msg.number, msg.from, msg.request.Status)
}

func (m *Model) onMessages(msg messagesMsg) {
	if m.deal == nil || msg.dealID != m.deal.ID {
		return
	}
	if msg.err != nil {
		delete(m.convo, msg.requestID)
		m.failf("reading the conversation", msg.err)
		m.syncDetail(true)
		return
	}
	c := &conversation{msgs: msg.msgs}
	m.convo[msg.requestID] = c
	if msg.requestID == m.currentID() {
		m.syncDetail(true)
		m.scrollToConversation()
	}
}

func (m *Model) onDeals(msg dealsMsg) {
	if msg.err != nil {
		m.failf("listing deals", msg.err)
		return
	}
	if len(msg.deals) == 0 {
		m.fail(fmt.Errorf("this key reaches no deal"))
		return
	}
	items := make([]pickItem, len(msg.deals))
	for i, d := range msg.deals {
		label := d.Codename + " — " + d.Name
		if d.Archived {
			label += " (archived)"
		}
		items[i] = pickItem{label: label, value: d}
	}
	m.openPicker("Switch to deal", items, func(v any) tea.Cmd {
		d := v.(api.Deal)
		m.setDeal(d)
		m.loading, m.refreshing = true, false
		m.list, m.etag, m.cursor, m.offset = rowList{}, "", 0, 0
		m.search.SetValue("")
		m.detailFor = ""
		m.say("Opening %s…", d.Codename)
		return m.loadDeal(d, nil)
	})
}
