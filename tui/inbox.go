package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// The inbox view (i): the replies by e-mail of the caller's side that
// wait for confirmation (docs/mail.md), as `dealctl inbox` lists them;
// p posts the one under the cursor for its sender, x discards it.

// inboxState is the inbox view's state.
type inboxState struct {
	dealID  string
	held    []api.HeldReply
	cursor  int
	loading bool
	loaded  bool
	acting  bool // a post or discard in flight
	err     error
}

type inboxMsg struct {
	dealID string
	held   []api.HeldReply
	err    error
}

type inboxDoneMsg struct {
	dealID, id string
	posted     bool
	number     string
	err        error
}

// openInbox shows the view and reads the held replies.
func (m *Model) openInbox() tea.Cmd {
	if m.deal == nil {
		return nil
	}
	m.setMode(modeInbox)
	m.inboxView.GotoTop()
	if m.inbox == nil || m.inbox.dealID != m.deal.ID {
		m.inbox = nil
		if m.o.Client == nil || !m.o.Client.Supports(api.ExtHeldReplies) {
			m.syncInbox() // says why there is nothing
			return nil
		}
		m.inbox = &inboxState{dealID: m.deal.ID}
	}
	m.syncInbox()
	return m.readInbox()
}

func (m *Model) readInbox() tea.Cmd {
	in := m.inbox
	if in == nil || in.loading {
		return nil
	}
	in.loading = true
	c, ctx, dealID := m.o.Client, m.ctx, in.dealID
	return func() tea.Msg {
		held, err := c.HeldReplies(ctx, dealID)
		return inboxMsg{dealID: dealID, held: held, err: err}
	}
}

func (m *Model) onInbox(msg inboxMsg) {
	in := m.inbox
	if in == nil || in.dealID != msg.dealID {
		return
	}
	in.loading, in.loaded, in.err = false, true, msg.err
	if msg.err == nil {
		in.held = msg.held
		in.cursor = min(in.cursor, max(0, len(in.held)-1))
	} else if len(in.held) > 0 {
		m.failf("reading the inbox", msg.err)
	}
	m.syncInbox()
}

// decideHeld posts or discards the held reply under the cursor.
func (m *Model) decideHeld(post bool) tea.Cmd {
	in := m.inbox
	if in == nil || in.acting || len(in.held) == 0 {
		return nil
	}
	h := in.held[in.cursor]
	in.acting = true
	if post {
		m.say("Posting the reply of %s to %s…", termsafe.Line(heldSender(h)), termsafe.Line(h.RequestNumber))
	} else {
		m.say("Discarding the reply of %s to %s…", termsafe.Line(heldSender(h)), termsafe.Line(h.RequestNumber))
	}
	c, ctx, dealID := m.o.Client, m.ctx, in.dealID
	return func() tea.Msg {
		var err error
		if post {
			_, err = c.PostHeldReply(ctx, dealID, h.ID)
		} else {
			_, err = c.DiscardHeldReply(ctx, dealID, h.ID)
		}
		return inboxDoneMsg{dealID: dealID, id: h.ID, posted: post, number: h.RequestNumber, err: err}
	}
}

func (m *Model) onInboxDone(msg inboxDoneMsg) tea.Cmd {
	in := m.inbox
	if in == nil || in.dealID != msg.dealID {
		return nil
	}
	in.acting = false
	switch {
	case msg.err != nil:
		m.failf("confirming the reply", msg.err)
	case msg.posted:
		m.say("Posted to %s for its sender", termsafe.Line(msg.number))
	default:
		m.say("Discarded: nothing was posted")
	}
	// Decided either way (or by someone else first): read the inbox and,
	// for a post, the list it changed.
	cmds := []tea.Cmd{m.readInbox()}
	if msg.posted && msg.err == nil {
		cmds = append(cmds, m.refresh(false))
	}
	return tea.Batch(cmds...)
}

// inboxKey handles a key in the inbox view.
func (m *Model) inboxKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	in := m.inbox
	switch {
	case key.Matches(msg, k.quit):
		return m.quit(false)
	case key.Matches(msg, k.inbox), key.Matches(msg, k.back):
		m.setMode(modeBrowse)
	case key.Matches(msg, k.help):
		m.setMode(modeHelp)
	case key.Matches(msg, k.refresh):
		m.say("Reading the inbox…")
		return m.readInbox()
	case key.Matches(msg, k.heldPost):
		return m.decideHeld(true)
	case key.Matches(msg, k.heldDiscard):
		return m.decideHeld(false)
	case in != nil && key.Matches(msg, k.up):
		in.cursor = max(0, in.cursor-1)
		m.syncInbox()
	case in != nil && key.Matches(msg, k.down):
		in.cursor = min(max(0, len(in.held)-1), in.cursor+1)
		m.syncInbox()
	case key.Matches(msg, k.pgUp):
		m.inboxView.PageUp()
	case key.Matches(msg, k.pgDown):
		m.inboxView.PageDown()
	}
	return nil
}

func (m *Model) syncInbox() {
	m.inboxView.SetWidth(m.width)
	m.inboxView.SetHeight(max(1, m.height-3))
	m.inboxView.SetContent(m.inboxText())
}

// inboxText lists the held replies, the one under the cursor whole:
// exactly the text and files posting it posts. Server text goes through
// termsafe.
func (m *Model) inboxText() string {
	in := m.inbox
	switch {
	case in == nil:
		return "This server does not take replies by e-mail (it does not offer the held-replies extension)."
	case !in.loaded && in.err == nil:
		return "Reading the inbox…"
	case in.err != nil && len(in.held) == 0:
		return m.st.errText.Render("error: " + termsafe.Line(m.o.Describe(in.err)))
	case len(in.held) == 0:
		return "No replies by e-mail are waiting for your side."
	}
	var b strings.Builder
	for i, h := range in.held {
		marker := "  "
		if i == in.cursor {
			marker = "▸ "
		}
		line := marker + m.st.bold.Render(termsafe.Line(h.RequestNumber)) + " " + termsafe.Line(h.RequestTitle) +
			"  " + m.st.dim.Render("from "+termsafe.Line(heldSender(h))+", "+h.ReceivedAt.In(m.loc).Format("Jan 02 15:04"))
		b.WriteString(line + "\n")
		if i != in.cursor {
			continue
		}
		for _, l := range strings.Split(termsafe.Text(strings.TrimRight(h.Text, "\n")), "\n") {
			b.WriteString("    " + l + "\n")
		}
		for _, f := range h.Files {
			b.WriteString("    " + m.st.dim.Render(termsafe.Line(f.Name)+" ("+display.HumanSize(f.Size)+")") + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func heldSender(h api.HeldReply) string {
	if h.Sender == nil {
		return h.From
	}
	if h.Sender.Name != nil && *h.Sender.Name != "" {
		return *h.Sender.Name
	}
	return h.Sender.Email
}

func (m *Model) inboxBody(w, h int) string {
	title := "Replies by e-mail waiting for your side"
	if in := m.inbox; in != nil && len(in.held) > 0 {
		title += fmt.Sprintf(" (%d)", len(in.held))
	}
	return m.paneTitle(title, w, true) + "\n" + fitBlock(m.inboxView.View(), w, max(1, h-1))
}
