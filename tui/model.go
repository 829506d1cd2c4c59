package tui

import (
	"context"
	"fmt"
	"time"

	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/termsafe"
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
	modeActivity
	modeInbox
	modeQuit // asking whether to quit with drafts not posted
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
	// threadHits are, by request id, the message the server's search
	// found the search's words in (threadsearch.go).
	threadHits map[string]string
	answer     *answerForm
	// drafts are answers left unsent, by request id (drafts.go).
	drafts map[string]*answerForm

	activity     *activityFeed // nil until the activity view is first opened
	activityView viewport.Model
	inbox        *inboxState // nil until the inbox is first opened
	inboxView    viewport.Model
	picker       *picker

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
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "number, title or body"
	inputStyles(o.Color, &ti, nil)
	m := &Model{
		o:      o,
		ctx:    ctx,
		st:     newStyles(o.Color),
		keys:   newKeyMap(),
		width:  MinWidth,
		height: MinHeight,
		loc:    time.UTC,
		convo:  map[string]*conversation{},
		drafts: map[string]*answerForm{},
		md:     newMarkdown(o.Color),
		search: ti,
		detail: viewport.New(viewport.WithWidth(MinWidth), viewport.WithHeight(8)),

		activityView: viewport.New(viewport.WithWidth(MinWidth), viewport.WithHeight(MinHeight-3)),
		inboxView:    viewport.New(viewport.WithWidth(MinWidth), viewport.WithHeight(MinHeight-3)),
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
	m.loc = domain.DealLocation(d.Timezone)
}

// Update handles one message. Every branch returns quickly: network work
// is handed back as a tea.Cmd.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.PasteMsg:
		// Pasted text goes to the open field; a paste into the search
		// narrows the list as typing does.
		cmd := m.updateInputs(msg)
		if m.mode == modeSearch {
			m.setFilter(m.list.filter)
		}
		return m, cmd
	case dealLoadedMsg:
		return m, m.onDealLoaded(msg)
	case refreshedMsg:
		return m, m.onRefreshed(msg)
	case tickMsg:
		// The next tick is scheduled now, not when the refresh returns, so
		// a slow server cannot stretch the period; a refresh still in
		// flight is not doubled.
		var cmd tea.Cmd
		if !m.refreshing && !m.loading && m.deal != nil {
			m.refreshing = true
			cmd = m.refresh(false)
		}
		if m.mode == modeActivity {
			// The view on screen is read again like the list: a 304
			// while nothing is new.
			cmd = tea.Batch(cmd, m.readActivity())
		}
		return m, tea.Batch(cmd, m.tick())
	case messagesMsg:
		m.onMessages(msg)
		return m, nil
	case threadHitsMsg:
		return m, m.onThreadHits(msg)
	case activityMsg:
		m.onActivity(msg)
		return m, nil
	case inboxMsg:
		m.onInbox(msg)
		return m, nil
	case inboxDoneMsg:
		return m, m.onInboxDone(msg)
	case postedMsg:
		return m, m.onPosted(msg)
	case movedMsg:
		m.onMoved(msg)
		return m, nil
	case downloadedMsg:
		if msg.err != nil {
			m.failf("download of "+msg.name, msg.err)
		} else {
			m.say("Saved %s to %s", msg.name, termsafe.Line(msg.path))
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
	m.note, m.noteErr, m.staleErr = termsafe.Line(err.Error()), true, false
}

// failf shows err after prefix. The description can carry the server's
// own words, so it is made safe for the terminal like any server text.
func (m *Model) failf(prefix string, err error) {
	m.note, m.noteErr, m.staleErr = prefix+": "+termsafe.Line(m.o.Describe(err)), true, false
}

// clearNote forgets the last thing that happened: a key press is the
// next action, and an old message would read as its result.
func (m *Model) clearNote() {
	m.note, m.noteErr, m.staleErr = "", false, false
}

// setMode changes the mode and fits the panes to it: the answer form
// takes more of the screen than the list, and a detail pane left at the
// form's height would hide the end of the thread.
func (m *Model) setMode(md mode) {
	if m.mode == md {
		return
	}
	m.mode = md
	m.resize()
}

func (m *Model) onDealLoaded(msg dealLoadedMsg) tea.Cmd {
	if m.deal == nil || msg.deal.ID != m.deal.ID {
		return nil
	}
	m.loading = false
	if msg.err != nil {
		m.failf("loading "+termsafe.Line(msg.deal.Codename), msg.err)
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
	if m.inbox != nil && m.inbox.dealID != msg.deal.ID {
		m.inbox = nil
	}
	if m.activity != nil && m.activity.dealID != msg.deal.ID {
		m.activity = nil
	}
	m.cursor, m.offset = 0, 0
	m.setRows(msg.rows, "")
	m.skipHeading()
	m.syncDetail(true)
	return nil
}

func (m *Model) onRefreshed(msg refreshedMsg) tea.Cmd {
	if m.deal == nil || msg.dealID != m.deal.ID {
		return nil
	}
	m.refreshing = false
	if msg.err == nil && m.staleErr {
		m.clearNote()
	}
	switch {
	case msg.err != nil:
		m.failf("refresh", msg.err)
		m.staleErr = true
	case msg.changed:
		m.etag = msg.etag
		keep := m.currentID()
		m.setRows(msg.rows, keep)
		if m.mode == modeActivity {
			m.syncActivity() // titles and numbers may have changed
		}
		if msg.manual {
			m.say("Refreshed: %d requests", len(m.list.all))
		}
		// Conversations may have grown: the one on screen is read again
		// (it stays shown meanwhile), the others when next opened.
		return m.rereadConversation()
	case msg.manual:
		m.say("Up to date")
	}
	return nil
}

// rereadConversation drops every conversation read so far and reads the
// one on screen again, so a message posted since shows. A reader at the
// end of the thread stays at the end, where the new message is.
func (m *Model) rereadConversation() tea.Cmd {
	r := m.current()
	shown, open := (*conversation)(nil), false
	if r != nil {
		shown, open = m.convo[r.ID]
	}
	m.convo = map[string]*conversation{}
	if !open || shown.loading {
		m.syncDetail(true)
		return nil
	}
	// The old thread stays until the new one comes, so nothing jumps.
	m.convo[r.ID] = shown
	m.syncDetail(true)
	return m.fetchMessages(r.ID, m.scrollAfterReread())
}

// scrollAfterReread keeps a reader who was at the end of the detail pane
// at the end; any other position is kept as it is.
func (m *Model) scrollAfterReread() scrollTo {
	if m.detail.AtBottom() {
		return scrollBottom
	}
	return scrollKeep
}

// filterWith is f completed with who the caller is and what day it is in
// the deal's zone, which mine and overdue compare against.
func (m *Model) filterWith(f filter) filter {
	f.me, f.today = "", m.today()
	if m.seat != nil {
		f.me = m.seat.ParticipantID
	}
	return f
}

// setFilter narrows the list to f and the search.
func (m *Model) setFilter(f filter) {
	m.list = m.list.withFilter(m.filterWith(f), m.search.Value())
	m.afterFilter()
}

// setRows replaces the list, keeping the filter and, when it is still
// shown, the row under the cursor.
func (m *Model) setRows(rows []api.DealRequest, keepID string) {
	l := newRowList(rows)
	l.threadHit = m.list.threadHit
	m.list = l.withFilter(m.filterWith(m.list.filter), m.search.Value())
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
		m.failf(fmt.Sprintf("%s on %s", postedWhat(msg.kind, msg.internal), msg.number), msg.err)
		return nil
	}
	if m.answer != nil && m.answer.row.ID == msg.request.ID {
		m.answer = nil
		m.setMode(modeBrowse)
	}
	delete(m.drafts, msg.request.ID)
	delete(m.convo, msg.request.ID)
	m.replaceRow(msg.request)
	m.say("%s", postedNote(msg))
	// The etag no longer matches: the next refresh reads the list anew.
	// The thread is read again and shown at its end, where the new
	// message is.
	if m.currentID() != msg.request.ID {
		return nil
	}
	m.focus = paneDetail
	m.convo[msg.request.ID] = &conversation{loading: true}
	m.syncDetail(true)
	return m.fetchMessages(msg.request.ID, scrollBottom)
}

// postedWhat names what was posted, as the user chose it in the form.
func postedWhat(kind api.MessageKind, internal bool) string {
	switch {
	case kind == api.MessageInternalNote || internal:
		return "Internal note"
	case kind == api.MessageQuestion:
		return "Question"
	case kind == api.MessageReference:
		return "Reference"
	}
	return "Answer"
}

// postedNote says exactly what a post did: what was posted, and whether
// the status moved (a response can move it; notes, questions and
// references never do).
func postedNote(msg postedMsg) string {
	what := postedWhat(msg.kind, msg.internal)
	if msg.request.Status == msg.before {
		return fmt.Sprintf("%s posted on %s; status unchanged (%s)", what, msg.number, msg.before)
	}
	return fmt.Sprintf("%s posted on %s; status %s → %s", what, msg.number, msg.before, msg.request.Status)
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
	if !msg.changed {
		m.say("%s is already %s: nothing to move", msg.number, msg.request.Status)
		return
	}
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
	m.convo[msg.requestID] = &conversation{msgs: msg.msgs}
	if msg.requestID != m.currentID() {
		return
	}
	m.syncDetail(true)
	switch msg.scroll {
	case scrollBottom:
		m.detail.GotoBottom()
	case scrollHeading:
		m.scrollToConversation()
	case scrollMessage:
		m.scrollToMessage(msg.messageID)
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
		label := termsafe.Line(d.Codename + " — " + d.Name)
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
		m.say("Opening %s…", termsafe.Line(d.Codename))
		return m.loadDeal(d, nil)
	})
}
