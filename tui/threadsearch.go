package tui

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// The list's / matches rows as the user types (number, title, body,
// requester). Enter then asks the server's search (the search extension,
// where it is offered) for the words in the conversations: the requests
// whose threads hold them join the list, and opening one shows the
// matched message. Where no row matched by its own fields, the cursor
// goes to the first such request and its conversation opens at the
// message.

// threadSearchLimit is how many messages one search brings back.
const threadSearchLimit = 100

type threadHitsMsg struct {
	dealID, query string
	hits          []api.SearchHit
	err           error
}

// searchThreads asks the server for the search's words in messages,
// links and files; nil where there is nothing to ask or no one to ask.
func (m *Model) searchThreads() tea.Cmd {
	query := strings.TrimSpace(m.search.Value())
	if query == "" || m.deal == nil || m.o.Client == nil || !m.o.Client.SupportsSearch() {
		return nil
	}
	c, ctx, dealID := m.o.Client, m.ctx, m.deal.ID
	m.say("Searching the conversations…")
	return func() tea.Msg {
		res, err := c.Search(ctx, dealID, client.SearchQuery{Q: query, In: api.SearchInMessages, Limit: threadSearchLimit})
		out := threadHitsMsg{dealID: dealID, query: query, err: err}
		if err == nil {
			out.hits = res.Hits
		}
		return out
	}
}

// onThreadHits shows an answer that is still about the search on screen.
func (m *Model) onThreadHits(msg threadHitsMsg) tea.Cmd {
	if m.deal == nil || msg.dealID != m.deal.ID || msg.query != strings.TrimSpace(m.search.Value()) {
		return nil
	}
	var refused *api.ErrorResponse
	switch {
	case errors.As(msg.err, &refused) && refused.Code == api.CodeValidationFailed:
		msg.hits = nil // words the search does not take (punctuation alone): none found
	case msg.err != nil:
		m.failf("searching the conversations", msg.err)
		return nil
	}
	localOnly := m.list.shown
	hits := map[string]string{}
	rows := map[string]bool{}
	var first string
	for _, h := range msg.hits {
		if _, ok := hits[h.RequestID]; ok || h.MessageID == nil {
			continue
		}
		hits[h.RequestID], rows[h.RequestID] = *h.MessageID, true
		if first == "" {
			first = h.RequestID
		}
	}
	if len(hits) == 0 {
		m.say("No message holds %s", termsafe.Line(msg.query))
		return nil
	}
	m.threadHits = hits
	m.list.threadHit = rows
	m.setFilter(m.list.filter)
	if len(hits) == 1 {
		m.say("1 request holds %s in its conversation: enter opens it at the message", termsafe.Line(msg.query))
	} else {
		m.say("%d requests hold %s in their conversations: enter opens one at the message", len(hits), termsafe.Line(msg.query))
	}
	if localOnly > 0 {
		return nil
	}
	// Nothing matched by its own fields: go to the first message found.
	m.placeCursor(first)
	m.syncDetail(false)
	return m.openConversation()
}

// clearThreadHits forgets the last thread search: the words changed.
func (m *Model) clearThreadHits() {
	m.threadHits = nil
	m.list.threadHit = nil
}

// fetchMessagesAt reads a conversation and shows it at message id.
func (m *Model) fetchMessagesAt(requestID, messageID string) tea.Cmd {
	c, ctx, dealID := m.o.Client, m.ctx, m.deal.ID
	return func() tea.Msg {
		msgs, err := c.Messages(ctx, dealID, requestID)
		return messagesMsg{dealID: dealID, requestID: requestID, msgs: msgs, scroll: scrollMessage, messageID: messageID, err: err}
	}
}

// scrollToMessage puts message id's first line at the top of the detail
// pane, or the conversation's heading where it is not in the thread.
func (m *Model) scrollToMessage(id string) {
	r := m.current()
	if r == nil {
		return
	}
	c := m.convo[r.ID]
	if c == nil {
		return
	}
	m.detailContent() // renders the thread, which sets c.starts
	for k, msg := range c.msgs {
		if msg.ID != id || k >= len(c.starts) {
			continue
		}
		for i, l := range strings.Split(m.detailContent(), "\n") {
			if strings.HasPrefix(ansi.Strip(l), convoMarker) {
				m.detail.SetYOffset(i + 1 + c.starts[k])
				return
			}
		}
	}
	m.scrollToConversation()
}
