package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// View is the screen, full-screen (the alternate screen, left on quit).
func (m *Model) View() tea.View {
	v := tea.NewView(m.screen())
	v.AltScreen = true
	return v
}

// screen composes the screen from parts kept ready by Update. Only the
// rows in the window are drawn, so its cost does not grow with the list.
func (m *Model) screen() string {
	if m.width < MinWidth || m.height < MinHeight {
		return m.tooSmall()
	}
	l := m.layout()
	var body string
	if m.mode == modeHelp {
		body = m.helpView(m.width, m.height-2)
	} else if m.mode == modeActivity {
		body = m.activityBody(m.width, m.height-2)
	} else if m.mode == modeInbox {
		body = m.inboxBody(m.width, m.height-2)
	} else {
		// A form or menu in the detail pane has the keys, whatever the
		// focus was.
		inDetail := m.focus == paneDetail || m.mode == modeAnswer || m.mode == modePick
		list := m.paneTitle(m.listTitle(), l.listW, !inDetail) + "\n" + m.listView(l.listW, l.listH)
		detail := m.paneTitle(m.detailTitle(), l.detailW, inDetail) + "\n" + m.detailView(l.detailW, l.detailH)
		if l.wide {
			sep := strings.TrimSuffix(strings.Repeat("│\n", l.listH+1), "\n")
			body = lipgloss.JoinHorizontal(lipgloss.Top, list, m.st.rule.Render(sep), detail)
		} else {
			body = list + "\n" + detail
		}
	}
	return body + "\n" + m.statusBar() + "\n" + m.messageLine()
}

// paneTitle is a rule with the pane's name; the focused pane's is heavy,
// which shows focus without colour.
func (m *Model) paneTitle(title string, w int, focused bool) string {
	ch, style := "─", m.st.rule
	if focused {
		ch, style = "━", m.st.focusRule
	}
	title = ansi.Truncate(title, max(0, w-4), "…")
	rest := max(0, w-ansi.StringWidth(title)-3)
	return style.Render(ch + " " + title + " " + strings.Repeat(ch, rest))
}

func (m *Model) listTitle() string {
	if m.deal == nil {
		return "Requests"
	}
	return fmt.Sprintf("Requests %d of %d", m.list.shown, m.countAll())
}

func (m *Model) countAll() int {
	n := 0
	for _, c := range m.list.counts {
		n += c
	}
	return n
}

// tooSmall is the note shown on a terminal below the minimum size, cut to
// fit the terminal it is shown on: the longest wording that fits.
func (m *Model) tooSmall() string {
	w, h := max(1, m.width), max(1, m.height)
	for _, note := range []string{
		fmt.Sprintf("dealctl tui needs a terminal of at least %d×%d; this one is %d×%d. Enlarge it, or press q to quit.", MinWidth, MinHeight, m.width, m.height),
		fmt.Sprintf("Needs %d×%d, this is %d×%d. Enlarge it, or q quits.", MinWidth, MinHeight, m.width, m.height),
		fmt.Sprintf("Needs %d×%d. q quits.", MinWidth, MinHeight),
		"Too small. q quits.",
	} {
		lines := strings.Split(ansi.Wrap(note, w, ""), "\n")
		if len(lines) <= h {
			return fitBlock(strings.Join(lines, "\n"), w, h)
		}
	}
	return fitBlock("q quits", w, h)
}

func (m *Model) detailTitle() string {
	switch m.mode {
	case modeAnswer:
		return termsafe.Line("Answer " + m.answer.row.Number + "  " + m.answer.row.Title)
	case modePick:
		return "Choose"
	}
	if r := m.current(); r != nil {
		return termsafe.Line(r.Number + "  " + r.Title)
	}
	return "Detail"
}

func (m *Model) detailView(w, h int) string {
	var s string
	switch m.mode {
	case modeAnswer:
		s = m.answer.view(m.st, w)
	case modePick:
		s = m.picker.view(m.st, w, h)
	default:
		s = m.detail.View()
	}
	return fitBlock(s, w, h)
}

// fitBlock makes s exactly h lines of at most w cells, so that panes
// never push each other about.
func fitBlock(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = padRight(ansi.Truncate(l, w, ""), w)
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return strings.Join(lines, "\n")
}

func padRight(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// statusBar is the deal, the counts by status, the filter, the search and
// the rate budget left.
func (m *Model) statusBar() string {
	parts := []string{"no deal"}
	if m.deal != nil {
		parts[0] = termsafe.Line(m.deal.Codename)
	}
	counts := make([]string, len(api.RequestStatuses))
	for i, s := range api.RequestStatuses {
		counts[i] = fmt.Sprintf("%s %d", s, m.list.counts[s])
	}
	parts = append(parts, strings.Join(counts, " · "))
	parts = append(parts, "filter: "+m.list.filter.describe())
	if o := m.list.filter.order; o != orderList {
		parts = append(parts, "sort: "+o.String())
	}
	if q := m.search.Value(); q != "" && m.mode != modeSearch {
		parts = append(parts, "search: "+termsafe.Line(q))
	}
	if rem, lim, ok := m.o.Rate.Budget(); ok {
		parts = append(parts, fmt.Sprintf("rate %d/%d", rem, lim))
	}
	if m.loading || m.refreshing {
		parts = append(parts, "⟳")
	}
	line := " " + strings.Join(parts, " │ ")
	return m.st.bar.Render(padRight(ansi.Truncate(line, m.width, "…"), m.width))
}

// messageLine is the search being typed, the last thing that happened (an
// error in red), or the main keys.
func (m *Model) messageLine() string {
	var s string
	switch {
	case m.mode == modeSearch:
		s = m.search.View()
	case m.mode == modeQuit:
		s = m.st.bold.Render(m.quitPrompt())
	case m.note != "" && m.noteErr:
		s = m.st.errText.Render(ansi.Truncate("error: "+m.note, m.width, "…"))
	case m.note != "":
		s = m.note
	case m.mode == modeHelp:
		s = "any key closes the help"
	case m.mode == modeActivity:
		s = m.st.dim.Render("j/k scroll · g/G newest/oldest · r refresh · e esc back · ? help · q quit")
	case m.mode == modeInbox:
		s = m.st.dim.Render("j/k move · p post for its sender · x discard · r refresh · i esc back · ? help · q quit")
	default:
		s = m.st.dim.Render(m.keyHint())
	}
	return ansi.Truncate(s, m.width, "…")
}

// keyHint is the current mode's main keys in the width, most important
// first, always ending with how to quit: keys are dropped from the end
// of the list, never the quit key. Keys the caller may not use on the
// row under the cursor (a viewer's a and s) are not offered.
func (m *Model) keyHint() string {
	var keys []string
	tail := "? help · q quit"
	switch m.mode {
	case modeAnswer:
		keys = []string{"^s send", "^p partial", "^k kind"}
		if m.answer != nil && m.answer.owner {
			keys = append(keys, "^t internal")
		}
		keys = append(keys, "esc keep draft", "^x discard")
		tail = "^c quit"
	case modePick:
		keys = []string{"enter or 1-9 choose", "↑/↓ move", "esc cancel"}
		tail = "^c quit"
	default:
		keys = append(keys, "enter talk")
		if r := m.current(); r == nil || r.Kind == api.KindSection || r.Can.Answer {
			keys = append(keys, "a answer")
		}
		if r := m.current(); r == nil || r.Kind == api.KindSection || len(r.AllowedStatuses) > 0 {
			keys = append(keys, "s status")
		}
		keys = append(keys, "/ search", "j/k move", "d download", "tab pane", "f m ! p c filter", "o sort", "e activity", "D deal", "r refresh", "i inbox")
	}
	for n := len(keys); n > 0; n-- {
		if s := strings.Join(keys[:n], " · ") + " · " + tail; ansi.StringWidth(s) <= m.width {
			return s
		}
	}
	return tail
}

// helpView lists the keys in two columns, which fit 80×24.
func (m *Model) helpView(w, h int) string {
	secs := m.keys.helpSections()
	colW := w / 2
	column := func(from, to int) string {
		var b strings.Builder
		for _, sec := range secs[from:to] {
			if sec.title != "" {
				b.WriteString(m.st.bold.Render(sec.title) + "\n")
			}
			for _, k := range sec.keys {
				b.WriteString(ansi.Truncate(fmt.Sprintf("  %-8s %s", k.Help().Key, k.Help().Desc), colW-1, "…") + "\n")
			}
			b.WriteString("\n")
		}
		return fitBlock(strings.TrimRight(b.String(), "\n"), colW, h-2)
	}
	title := m.st.bold.Render("dealctl tui — keys") + "\n\n"
	return fitBlock(title+lipgloss.JoinHorizontal(lipgloss.Top, column(0, helpLeft), column(helpLeft, len(secs))), w, h)
}
