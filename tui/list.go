package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// listView draws the rows in the window [offset, offset+h): the work is
// the same for 20 rows or 2,200.
func (m *Model) listView(w, h int) string {
	if len(m.list.visible) == 0 {
		return fitBlock(m.emptyText(), w, h)
	}
	cols := m.columns(w)
	var b strings.Builder
	end := min(len(m.list.visible), m.offset+h)
	for pos := m.offset; pos < end; pos++ {
		if pos > m.offset {
			b.WriteByte('\n')
		}
		r := &m.list.all[m.list.visible[pos]]
		b.WriteString(m.rowView(r, cols, pos == m.cursor))
	}
	for n := end - m.offset; n < h; n++ {
		b.WriteString("\n" + strings.Repeat(" ", w))
	}
	return b.String()
}

// columns are the widths of a row's cells at width w. The title and the
// assignee share what the fixed columns leave, the assignee a quarter of
// it (8 to 18 cells), so both narrow together; the assignee goes first
// when the title would be shorter than 16.
type columns struct {
	w, num, title, assignee int
}

const (
	gutterW = 2
	statusW = len("complete")
	prioW   = len("medium")
	dueW    = len("!2006-01-02")
)

func (m *Model) columns(w int) columns {
	c := columns{w: w, num: max(3, m.list.numW)}
	fixed := gutterW + c.num + 1 + 1 + statusW + 1 + prioW + 1 + dueW
	shared := w - fixed - 1
	c.assignee = min(18, max(8, shared/4))
	c.title = shared - c.assignee
	if c.title < 16 {
		c.assignee = 0
		c.title = w - fixed
	}
	c.title = max(4, c.title)
	return c
}

func (m *Model) rowView(r *api.DealRequest, c columns, selected bool) string {
	gutter := "  "
	if selected {
		gutter = "▸ "
	}
	if r.Kind == api.KindSection {
		head := ansi.Truncate(termsafe.Line(r.Number+"  "+r.Title), c.w-gutterW-2, "…")
		line := gutter + head + " " + strings.Repeat("─", max(0, c.w-gutterW-ansi.StringWidth(head)-1))
		if selected {
			return m.st.cursor.Render(line)
		}
		return m.st.section.Render(line)
	}
	var b strings.Builder
	b.WriteString(gutter)
	b.WriteString(cell(r.Number, c.num))
	b.WriteByte(' ')
	b.WriteString(cell(r.Title, c.title))
	b.WriteByte(' ')
	if selected {
		// One style over the whole line: nested colours would end the
		// cursor's reverse video part-way.
		b.WriteString(cell(string(r.Status), statusW))
	} else {
		b.WriteString(m.st.badge(r.Status))
	}
	b.WriteByte(' ')
	b.WriteString(cell(string(r.Priority), prioW))
	if c.assignee > 0 {
		b.WriteByte(' ')
		b.WriteString(cell(m.person(r.AssigneeID), c.assignee))
	}
	b.WriteByte(' ')
	due := " "
	if r.DueDate != nil {
		due += termsafe.Line(*r.DueDate)
	}
	if m.overdue(r) {
		due = "!" + termsafe.Line(*r.DueDate)
		if !selected {
			due = m.st.overdue.Render(due)
		}
	}
	b.WriteString(due)
	line := b.String()
	if selected {
		return m.st.cursor.Render(padRight(line, c.w))
	}
	return padRight(line, c.w)
}

// cell is server text s, made safe for the terminal, on one line, cut or
// padded to exactly w cells.
func cell(s string, w int) string {
	if strings.ContainsAny(s, "\n\r\t") {
		s = strings.Join(strings.Fields(s), " ")
	}
	s = termsafe.Line(s)
	return padRight(ansi.Truncate(s, w, "…"), w)
}
