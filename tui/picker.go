package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// picker is a short menu shown in the detail pane: status moves, files
// to download, deals to switch to.
type picker struct {
	title  string
	items  []pickItem
	cursor int
	choose func(v any) tea.Cmd
}

type pickItem struct {
	label string
	value any
}

func (m *Model) openPicker(title string, items []pickItem, choose func(v any) tea.Cmd) {
	m.picker = &picker{title: title, items: items, choose: choose}
	m.setMode(modePick)
}

// key moves the picker's cursor; enter or the item's digit chooses.
func (p *picker) key(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	s := msg.String()
	switch {
	case s == "esc" || key.Matches(msg, k.quit):
		m.picker = nil
		m.setMode(modeBrowse)
		return nil
	case s == "enter":
		return p.pick(m, p.cursor)
	case len(s) == 1 && s[0] >= '1' && s[0] <= '9':
		if i := int(s[0] - '1'); i < len(p.items) {
			return p.pick(m, i)
		}
	case key.Matches(msg, k.up):
		p.cursor = max(0, p.cursor-1)
	case key.Matches(msg, k.down):
		p.cursor = min(len(p.items)-1, p.cursor+1)
	case key.Matches(msg, k.top):
		p.cursor = 0
	case key.Matches(msg, k.bottom):
		p.cursor = len(p.items) - 1
	}
	return nil
}

func (p *picker) pick(m *Model, i int) tea.Cmd {
	m.picker = nil
	m.setMode(modeBrowse)
	return p.choose(p.items[i].value)
}

// view draws the menu in w×h, scrolled to keep the cursor shown.
func (p *picker) view(st styles, w, h int) string {
	var b strings.Builder
	b.WriteString(st.bold.Render(ansi.Truncate(p.title+":", w, "…")))
	rows := max(1, h-2)
	offset := max(0, p.cursor-rows+1)
	for i := offset; i < len(p.items) && i < offset+rows; i++ {
		mark := "  "
		if i == p.cursor {
			mark = "▸ "
		}
		num := "   "
		if i < 9 {
			num = fmt.Sprintf("%d. ", i+1)
		}
		line := ansi.Truncate(mark+num+p.items[i].label, w, "…")
		if i == p.cursor {
			line = st.cursor.Render(padRight(line, w))
		}
		b.WriteString("\n" + line)
	}
	b.WriteString("\n" + st.dim.Render(ansi.Truncate("enter or 1-9 choose · esc cancel", w, "…")))
	return b.String()
}
