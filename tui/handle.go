package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// handleKey routes a key to the open form, picker or help first: keys a
// form takes as text must not also act on the list.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "ctrl+c" {
		// Always heard: a second ctrl+c while the program asks about
		// drafts quits all the same.
		return m.quit(m.mode == modeQuit)
	}
	// Keys typed faster than the program reads them can arrive as one
	// message of several characters; outside text fields each character
	// is its own command.
	if runes := []rune(msg.Text); len(runes) > 1 && m.mode != modeSearch && m.mode != modeAnswer {
		var cmds []tea.Cmd
		for _, r := range runes {
			cmds = append(cmds, m.handleKey(tea.KeyPressMsg{Code: r, Text: string(r), Mod: msg.Mod}))
		}
		return tea.Batch(cmds...)
	}
	// Whatever the status line said was about the last action.
	if m.mode != modeAnswer || m.answer == nil || !m.answer.sending {
		m.clearNote()
	}
	switch m.mode {
	case modeHelp:
		m.setMode(modeBrowse)
		return nil
	case modeSearch:
		return m.searchKey(msg)
	case modeAnswer:
		return m.answerKey(msg)
	case modePick:
		return m.picker.key(m, msg)
	case modeActivity:
		return m.activityKey(msg)
	case modeInbox:
		return m.inboxKey(msg)
	case modeQuit:
		return m.quitKey(msg)
	}
	return m.browseKey(msg)
}

func (m *Model) browseKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	f := m.list.filter
	switch {
	case key.Matches(msg, k.quit):
		return m.quit(false)
	case key.Matches(msg, k.help):
		m.setMode(modeHelp)
	case key.Matches(msg, k.pane):
		m.togglePane()
	case key.Matches(msg, k.back):
		m.back()
	case key.Matches(msg, k.search):
		m.setMode(modeSearch)
		return m.search.Focus()
	case key.Matches(msg, k.filter):
		f.status = nextFilter(f.status)
		m.setFilter(f)
	case key.Matches(msg, k.mine):
		f.mine = !f.mine
		m.setFilter(f)
	case key.Matches(msg, k.overdue):
		f.overdue = !f.overdue
		m.setFilter(f)
	case key.Matches(msg, k.priority):
		f.priority = cycle(f.priority, api.Priorities)
		m.setFilter(f)
	case key.Matches(msg, k.category):
		f.category = cycle(f.category, api.RequestCategories)
		m.setFilter(f)
	case key.Matches(msg, k.order):
		f.order = f.order.next()
		m.setFilter(f)
	case key.Matches(msg, k.refresh):
		if m.deal != nil && !m.loading {
			m.refreshing = true
			m.say("Refreshing…")
			// The thread on screen is read again too: a message can come
			// without the list changing (an internal note, say).
			return tea.Batch(m.refresh(true), m.rereadShownConversation())
		}
	case key.Matches(msg, k.deal):
		m.say("Listing deals…")
		return m.fetchDeals()
	case key.Matches(msg, k.open):
		return m.openConversation()
	case key.Matches(msg, k.answer):
		return m.startAnswer()
	case key.Matches(msg, k.status):
		m.startMove()
	case key.Matches(msg, k.download):
		return m.startDownload()
	case key.Matches(msg, k.activity):
		return m.openActivity()
	case key.Matches(msg, k.inbox):
		return m.openInbox()
	case m.focus == paneDetail:
		m.scrollDetail(msg)
	default:
		m.moveCursor(msg)
	}
	return nil
}

func (m *Model) togglePane() {
	if m.focus == paneList {
		m.focus = paneDetail
	} else {
		m.focus = paneList
	}
}

// back undoes one thing: the detail focus, then a search, then the
// filters (the sort order stays: it hides nothing).
func (m *Model) back() {
	switch {
	case m.focus == paneDetail:
		m.focus = paneList
	case m.search.Value() != "":
		m.search.SetValue("")
		m.clearThreadHits()
		m.setFilter(m.list.filter)
	case m.list.filter.active():
		m.setFilter(filter{order: m.list.filter.order})
	}
}

// rereadShownConversation reads the open thread of the row under the
// cursor again, keeping the reader where they are (at the end if they
// were at the end).
func (m *Model) rereadShownConversation() tea.Cmd {
	r := m.current()
	if r == nil {
		return nil
	}
	c, ok := m.convo[r.ID]
	if !ok || c.loading {
		return nil
	}
	return m.fetchMessages(r.ID, m.scrollAfterReread())
}

func (m *Model) moveCursor(msg tea.KeyPressMsg) {
	k, h := m.keys, m.layout().listH
	switch {
	case key.Matches(msg, k.up):
		m.cursor--
	case key.Matches(msg, k.down):
		m.cursor++
	case key.Matches(msg, k.pgUp):
		m.cursor -= h
	case key.Matches(msg, k.pgDown):
		m.cursor += h
	case key.Matches(msg, k.top):
		m.cursor = 0
	case key.Matches(msg, k.bottom):
		m.cursor = len(m.list.visible) - 1
	default:
		return
	}
	m.clampCursor()
	m.syncDetail(false)
}

func (m *Model) scrollDetail(msg tea.KeyPressMsg) {
	k := m.keys
	switch {
	case key.Matches(msg, k.up):
		m.detail.ScrollUp(1)
	case key.Matches(msg, k.down):
		m.detail.ScrollDown(1)
	case key.Matches(msg, k.pgUp):
		m.detail.PageUp()
	case key.Matches(msg, k.pgDown):
		m.detail.PageDown()
	case key.Matches(msg, k.top):
		m.detail.GotoTop()
	case key.Matches(msg, k.bottom):
		m.detail.GotoBottom()
	}
}

// clampCursor keeps the cursor on a row and the window around it.
func (m *Model) clampCursor() {
	n := len(m.list.visible)
	m.cursor = max(0, min(m.cursor, n-1))
	h := max(1, m.layout().listH)
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+h {
		m.offset = m.cursor - h + 1
	}
	m.offset = max(0, min(m.offset, n-h))
}

// afterFilter puts the cursor on the row whose number is the search
// exactly, else keeps it on the same request when that is still shown,
// else on the first request shown.
func (m *Model) afterFilter() {
	if pos := m.list.exactNumber(); pos >= 0 {
		m.cursor = pos
		m.clampCursor()
	} else {
		m.placeCursor(m.detailFor)
		m.skipHeading()
	}
	m.syncDetail(false)
}

// searchKey edits the search; the list narrows as the user types.
func (m *Model) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "enter":
		m.setMode(modeBrowse)
		m.search.Blur()
		return m.searchThreads()
	case "esc":
		m.setMode(modeBrowse)
		m.search.Blur()
		m.search.SetValue("")
		m.clearThreadHits()
		m.setFilter(m.list.filter)
		return nil
	}
	var cmd tea.Cmd
	before := m.search.Value()
	m.search, cmd = m.search.Update(msg)
	if m.search.Value() != before {
		m.clearThreadHits()
	}
	m.setFilter(m.list.filter)
	return cmd
}

// openConversation reads the messages of the row under the cursor (once;
// r or an answer reads them again) and moves to the detail pane.
func (m *Model) openConversation() tea.Cmd {
	r := m.current()
	if r == nil {
		return nil
	}
	m.focus = paneDetail
	if r.Kind == api.KindSection {
		return nil
	}
	hit := m.threadHits[r.ID]
	if c, ok := m.convo[r.ID]; ok {
		if hit != "" && !c.loading {
			m.scrollToMessage(hit)
		} else {
			m.scrollToConversation()
		}
		return nil
	}
	m.convo[r.ID] = &conversation{loading: true}
	m.syncDetail(true)
	if hit != "" {
		return m.fetchMessagesAt(r.ID, hit)
	}
	return m.fetchMessages(r.ID, scrollHeading)
}

// startMove offers the moves the server says the caller may make, and no
// others: allowed_statuses is the server's word on role and side.
func (m *Model) startMove() {
	r := m.current()
	switch {
	case r == nil:
		return
	case r.Kind == api.KindSection:
		m.fail(fmt.Errorf("%s is a section: sections have no status", r.Number))
		return
	case len(r.AllowedStatuses) == 0:
		m.fail(fmt.Errorf("you may not move %s from %s (your role, key or the deal does not allow it)", r.Number, r.Status))
		return
	}
	row := *r
	items := make([]pickItem, len(row.AllowedStatuses))
	for i, s := range row.AllowedStatuses {
		items[i] = pickItem{label: termsafe.Line(string(s)), value: s}
	}
	number := termsafe.Line(row.Number)
	m.openPicker(fmt.Sprintf("Move %s from %s to", number, termsafe.Line(string(row.Status))), items, func(v any) tea.Cmd {
		to := v.(api.RequestStatus)
		m.say("Moving %s to %s…", number, to)
		return m.move(row, to)
	})
	m.picker.cursor = forwardMove(row.Status, row.AllowedStatuses)
}

// forwardMove is the position in allowed of the first status after from
// (open → partial → complete): enter then moves a request on, never back
// by accident. 0 when every allowed move is backward.
func forwardMove(from api.RequestStatus, allowed []api.RequestStatus) int {
	rank := func(s api.RequestStatus) int { return slices.Index(api.RequestStatuses, s) }
	for i, s := range allowed {
		if rank(s) > rank(from) {
			return i
		}
	}
	return 0
}

// startDownload fetches the one file of the request, or offers its files.
func (m *Model) startDownload() tea.Cmd {
	r := m.current()
	if r == nil {
		return nil
	}
	if m.o.Download == nil {
		m.fail(fmt.Errorf("downloads are not available here"))
		return nil
	}
	var files []api.File
	for _, f := range r.Files {
		if f.Kind == api.FileKindFile && f.Downloadable {
			files = append(files, f)
		}
	}
	row := *r
	switch len(files) {
	case 0:
		m.fail(fmt.Errorf("%s has no file ready to download", orDash(r.Number)))
		return nil
	case 1:
		m.say("Downloading %s…", termsafe.Line(display.FileName(files[0])))
		return m.download(row, files[0])
	}
	items := make([]pickItem, len(files))
	for i, f := range files {
		items[i] = pickItem{label: termsafe.Line(display.FileLine(f)), value: f}
	}
	m.openPicker("Download from "+termsafe.Line(row.Number), items, func(v any) tea.Cmd {
		f := v.(api.File)
		m.say("Downloading %s…", termsafe.Line(display.FileName(f)))
		return m.download(row, f)
	})
	return nil
}

// orDash is s made safe for the terminal, or "-" when it is blank.
func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return termsafe.Line(s)
}
