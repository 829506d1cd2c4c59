package tui

// layout is how the screen is divided. Wide terminals put the detail
// pane beside the list; others stack it below, so that 80×24 still shows
// a dozen rows and the start of the detail.
type layout struct {
	wide             bool
	listW, listH     int // rows of the list, without its title line
	detailW, detailH int // lines of the detail pane, without its title line
}

// wideFrom is the width from which the panes sit side by side.
const wideFrom = 150

func (m *Model) layout() layout {
	body := max(4, m.height-2) // the status bar and the message line
	if m.width >= wideFrom {
		listW := m.width * 55 / 100
		return layout{wide: true, listW: listW, listH: body - 1, detailW: m.width - listW - 1, detailH: body - 1}
	}
	listH := (body - 2) * 55 / 100
	if m.mode == modeAnswer {
		// Writing needs the room more than the list does.
		listH = max(3, (body-2)/3)
	}
	return layout{listW: m.width, listH: listH, detailW: m.width, detailH: body - 2 - listH}
}

// resize fits the panes to the terminal after a size or mode change. A
// reader at the end of the detail pane stays at the end: that is where
// the newest message is.
func (m *Model) resize() {
	atEnd := m.detail.AtBottom() && m.detail.TotalLineCount() > 0
	l := m.layout()
	m.detail.SetWidth(l.detailW)
	m.detail.SetHeight(l.detailH)
	if m.answer != nil {
		m.answer.text.SetWidth(l.detailW)
		m.answer.text.SetHeight(max(1, l.detailH-1))
	}
	m.search.SetWidth(max(10, m.width-4))
	if m.mode == modeActivity {
		m.syncActivity()
	}
	if m.mode == modeInbox {
		m.syncInbox()
	}
	m.clampCursor()
	m.syncDetail(true)
	if atEnd {
		m.detail.GotoBottom()
	}
}
