package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dealctl/dealctl/internal/activity"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// activityKeep is how many of the deal's latest events the view holds:
// the view is for "what moved lately"; `dealctl activity --since` reads
// further back.
const activityKeep = 500

// activityFeed is the activity view's state: a cursor over the deal's
// events (the events extension) and the latest of them. Only one read is
// in flight at a time, so the cursor is never used by two goroutines.
type activityFeed struct {
	dealID  string
	cursor  *client.EventsCursor
	events  []client.Event // oldest first, at most activityKeep
	loading bool
	loaded  bool // the first read came back
	err     error
}

type activityMsg struct {
	dealID string
	events []client.Event
	err    error
}

// openActivity shows the activity view, starting its feed on first use.
func (m *Model) openActivity() tea.Cmd {
	if m.deal == nil {
		return nil
	}
	m.setMode(modeActivity)
	m.activityView.GotoTop()
	if m.activity == nil || m.activity.dealID != m.deal.ID {
		m.activity = nil
		if m.o.Client == nil || !m.o.Client.Supports(api.ExtEvents) {
			m.syncActivity() // says there is nothing to show, and why
			return nil
		}
		m.activity = &activityFeed{dealID: m.deal.ID, cursor: m.o.Client.NewEventsCursor(m.deal.ID)}
	}
	m.syncActivity()
	return m.readActivity()
}

// readActivity asks for the events after the last one seen: a 304 while
// nothing is new. Nothing is asked while a read is in flight.
func (m *Model) readActivity() tea.Cmd {
	a := m.activity
	if a == nil || a.loading || a.cursor == nil {
		return nil
	}
	a.loading = true
	cur, ctx, dealID := a.cursor, m.ctx, a.dealID
	return func() tea.Msg {
		var got []client.Event
		_, err := cur.Next(ctx, func(page []client.Event) error {
			got = append(got, page...)
			if len(got) > activityKeep {
				got = got[len(got)-activityKeep:]
			}
			return nil
		})
		return activityMsg{dealID: dealID, events: got, err: err}
	}
}

func (m *Model) onActivity(msg activityMsg) {
	a := m.activity
	if a == nil || a.dealID != msg.dealID {
		return // a read for a deal left since
	}
	a.loading, a.loaded, a.err = false, true, msg.err
	if len(msg.events) > 0 {
		a.events = append(a.events, msg.events...)
		if len(a.events) > activityKeep {
			a.events = append([]client.Event(nil), a.events[len(a.events)-activityKeep:]...)
		}
	}
	if msg.err != nil && len(a.events) > 0 {
		// The events shown stay; the status line says the read failed.
		m.failf("reading the activity", msg.err)
	}
	m.syncActivity()
}

// activityKey handles a key in the activity view: scroll, refresh, leave.
func (m *Model) activityKey(msg tea.KeyPressMsg) tea.Cmd {
	k, v := m.keys, &m.activityView
	switch {
	case key.Matches(msg, k.quit):
		return m.quit(false)
	case key.Matches(msg, k.activity), key.Matches(msg, k.back):
		m.setMode(modeBrowse)
	case key.Matches(msg, k.help):
		m.setMode(modeHelp)
	case key.Matches(msg, k.refresh):
		m.say("Reading new events…")
		return m.readActivity()
	case key.Matches(msg, k.up):
		v.ScrollUp(1)
	case key.Matches(msg, k.down):
		v.ScrollDown(1)
	case key.Matches(msg, k.pgUp):
		v.PageUp()
	case key.Matches(msg, k.pgDown):
		v.PageDown()
	case key.Matches(msg, k.top):
		v.GotoTop()
	case key.Matches(msg, k.bottom):
		v.GotoBottom()
	}
	return nil
}

// syncActivity fills the view with the events, newest first, each on
// one line: when, who, which request, what. Every piece of server text
// goes through termsafe.
func (m *Model) syncActivity() {
	w := m.width
	m.activityView.SetWidth(w)
	m.activityView.SetHeight(max(1, m.height-3))
	m.activityView.SetContent(m.activityText())
}

func (m *Model) activityText() string {
	a := m.activity
	switch {
	case a == nil:
		return "This server does not offer the events extension, so there is no activity to show.\n" +
			"The list still refreshes every 30 seconds; dealctl serve offers events."
	case !a.loaded && a.err == nil:
		return "Reading the deal's events…"
	case a.err != nil && len(a.events) == 0:
		return m.st.errText.Render("error: " + termsafe.Line(m.o.Describe(a.err)))
	case len(a.events) == 0:
		return "Nothing has happened on this deal yet that you can see."
	}
	names := activity.Names{
		Request: func(id string) (string, string, bool) {
			i, ok := m.list.byID[id]
			if !ok {
				return "", "", false
			}
			r := m.list.all[i]
			return r.Number, r.Title, true
		},
		Person: func(id string) (string, bool) {
			name, ok := m.people[id]
			return name, ok
		},
	}
	var b strings.Builder
	for i := len(a.events) - 1; i >= 0; i-- {
		e := activity.Describe(a.events[i], names)
		at := a.events[i].At.In(m.loc).Format("Jan 02 15:04")
		b.WriteString(m.st.dim.Render(at) + "  " + m.st.bold.Render(termsafe.Line(e.Actor)) + "  ")
		if e.Number != "" {
			b.WriteString(termsafe.Line(e.Number))
			if e.Title != "" {
				b.WriteString(" " + termsafe.Line(e.Title))
			}
			b.WriteString(": ")
		}
		b.WriteString(termsafe.Line(e.What))
		if i > 0 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// activityTitle is the view's title line.
func (m *Model) activityTitle() string {
	title := "Activity, newest first"
	if m.deal != nil {
		title += " — " + termsafe.Line(m.deal.Codename)
	}
	if a := m.activity; a != nil && len(a.events) > 0 {
		title += fmt.Sprintf(" (%d)", len(a.events))
	}
	return title
}

// activityBody is the view: its title and the events, filling the body.
func (m *Model) activityBody(w, h int) string {
	return m.paneTitle(m.activityTitle(), w, true) + "\n" + fitBlock(m.activityView.View(), w, max(1, h-1))
}
