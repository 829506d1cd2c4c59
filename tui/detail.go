package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// conversation is a request's messages once read.
type conversation struct {
	loading  bool
	msgs     []api.Message
	rendered string // for renderedW
	renderW  int
	starts   []int // the line of rendered each message starts on
}

// convoMarker starts the conversation in the detail pane; enter scrolls
// to it.
const convoMarker = "Conversation"

// syncDetail rebuilds the detail pane for the row under the cursor. It
// runs in Update, never in View, so that View stays a cheap composition:
// Markdown is rendered once per request and width. Another row starts at
// the top; the same row rebuilt (a resize, a refresh) keeps the reader's
// place, and a reader at the end stays at the end, where new messages
// come.
func (m *Model) syncDetail(force bool) {
	r := m.current()
	id := ""
	if r != nil {
		id = r.ID
	}
	if !force && id == m.detailFor {
		return
	}
	same := id == m.detailFor
	atEnd := same && m.detail.AtBottom()
	m.detailFor = id
	if r == nil {
		m.detail.SetContent(m.emptyText())
		return
	}
	m.detail.SetContent(m.detailText(r))
	switch {
	case !same:
		m.detail.GotoTop()
	case atEnd:
		m.detail.GotoBottom()
	default:
		// SetContent leaves the offset; past a shorter text it would show
		// blank lines.
		m.detail.SetYOffset(m.detail.YOffset())
	}
}

func (m *Model) emptyText() string {
	switch {
	case m.deal == nil:
		return "Choose a deal (D)."
	case m.loading:
		return "Loading " + m.deal.Codename + "…"
	case len(m.list.all) == 0:
		return "No requests on " + m.deal.Codename + " yet."
	}
	return "Nothing matches: esc clears the search, f cycles the filter."
}

// detailText is the body, metadata, files and conversation of r, wrapped
// to the pane.
func (m *Model) detailText(r *api.DealRequest) string {
	w := max(20, m.detail.Width())
	var b strings.Builder
	line := func(s string) { b.WriteString(ansi.Wrap(s, w, "") + "\n") }
	if r.Kind == api.KindSection {
		line(m.st.section.Render(termsafe.Line(r.Number + "  " + r.Title)))
		n := 0
		for _, i := range m.list.visible {
			if p := m.list.parent[i]; p >= 0 && m.list.all[p].ID == r.ID {
				n++
			}
		}
		line(fmt.Sprintf("Section with %d rows shown.", n))
		return b.String()
	}
	line(m.st.bold.Render(termsafe.Line(r.Number + "  " + r.Title)))
	meta := []string{
		"Status: " + m.st.badge(r.Status),
		"Priority: " + termsafe.Line(string(r.Priority)),
		"Category: " + termsafe.Line(string(r.Category)),
	}
	line(strings.Join(meta, "   "))
	due := "none"
	if r.DueDate != nil {
		due = termsafe.Line(*r.DueDate)
		if m.overdue(r) {
			due = m.st.overdue.Render(due + " (overdue)")
		}
	}
	line(fmt.Sprintf("Assignee: %s   Due: %s", orDash(m.person(r.AssigneeID)), due))
	if r.Requester != nil {
		line("Requester: " + termsafe.Line(*r.Requester))
	}
	if len(r.AllowedStatuses) > 0 {
		moves := make([]string, len(r.AllowedStatuses))
		for i, s := range r.AllowedStatuses {
			moves[i] = string(s)
		}
		line(m.st.dim.Render(termsafe.Line("Moves (s): " + strings.Join(moves, ", "))))
	}
	if body := strings.TrimSpace(r.Body); body != "" {
		b.WriteString("\n")
		line(termsafe.Text(body))
	}
	if len(r.Files) > 0 {
		b.WriteString("\n")
		line(m.st.bold.Render("Files (d)"))
		for _, f := range r.Files {
			line("  " + termsafe.Line(display.FileLine(f)))
		}
	}
	b.WriteString("\n")
	b.WriteString(m.conversationText(r, w))
	return strings.TrimRight(b.String(), "\n")
}

func (m *Model) conversationText(r *api.DealRequest, w int) string {
	c, ok := m.convo[r.ID]
	head := m.st.bold.Render(convoMarker)
	switch {
	case !ok:
		if r.LatestAnswer != nil {
			return head + "\n" + ansi.Wrap("Latest: "+plainText(r.LatestAnswer.Preview), w, "") + "\n" + m.st.dim.Render("enter reads it all")
		}
		return head + m.st.dim.Render(" (enter to read)")
	case c.loading:
		return head + "\nLoading…"
	case len(c.msgs) == 0:
		return head + "\nNo messages yet. a answers."
	}
	if c.renderW != w || c.rendered == "" {
		c.rendered, c.starts = m.md.conversationLines(c.msgs, w, m.st)
		c.renderW = w
	}
	return head + "\n" + c.rendered
}

// scrollToConversation puts the conversation's heading at the top of the
// detail pane.
func (m *Model) scrollToConversation() {
	lines := strings.Split(m.detailContent(), "\n")
	for i, l := range lines {
		if strings.HasPrefix(ansi.Strip(l), convoMarker) {
			m.detail.SetYOffset(i)
			return
		}
	}
}

func (m *Model) detailContent() string {
	if r := m.current(); r != nil {
		return m.detailText(r)
	}
	return ""
}

// overdue is a due date before today in the deal's time zone: due dates
// are calendar days where the deal is, not instants.
func (m *Model) overdue(r *api.DealRequest) bool {
	return domain.Overdue(r, m.today())
}

func (m *Model) today() string {
	return domain.DealToday(m.o.Now(), m.loc)
}

func (m *Model) person(id *string) string {
	if id == nil {
		return ""
	}
	if name, ok := m.people[*id]; ok {
		return name
	}
	return *id
}
