package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dealctl/dealctl/internal/english"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// Drafts: an answer being written is never thrown away by a key that
// only leaves the form. esc keeps it (a resumes it, with its toggles);
// ctrl+x in the form discards it; posting it ends it; quitting with
// drafts asks first. Drafts live in the program's memory only: nothing
// is written to disk unless asked.

// keepDraft leaves the answer form, keeping its text for the request
// when there is any.
func (m *Model) keepDraft() {
	a := m.answer
	m.answer = nil
	m.setMode(modeBrowse)
	if a == nil {
		return
	}
	a.text.Blur()
	if strings.TrimSpace(a.text.Value()) == "" {
		delete(m.drafts, a.row.ID)
		m.say("Nothing written: no draft kept")
		return
	}
	m.drafts[a.row.ID] = a
	m.say("Draft for %s kept: a resumes it, ^x in the form discards it", termsafe.Line(a.row.Number))
}

// discardDraft leaves the form and forgets what was written in it.
func (m *Model) discardDraft() {
	a := m.answer
	m.answer = nil
	m.setMode(modeBrowse)
	if a != nil {
		delete(m.drafts, a.row.ID)
		m.say("Draft for %s discarded", termsafe.Line(a.row.Number))
	}
}

// draftNumbers are the numbers of the requests with a draft, in list
// order as far as the list knows them.
func (m *Model) draftNumbers() []string {
	var out []string
	for _, d := range m.drafts {
		out = append(out, termsafe.Line(d.row.Number))
	}
	slices.Sort(out)
	return out
}

// quit ends the program, or, with drafts not yet posted, asks first: the
// form's text is kept as a draft, and the question is on the message
// line. A second ctrl+c quits all the same.
func (m *Model) quit(force bool) tea.Cmd {
	if m.mode == modeAnswer {
		m.keepDraft()
	}
	if len(m.drafts) == 0 || force {
		return tea.Quit
	}
	m.setMode(modeQuit)
	return nil
}

// quitPrompt is the question the message line asks in modeQuit.
func (m *Model) quitPrompt() string {
	n := len(m.drafts)
	return fmt.Sprintf("%d unsent %s (%s): y quits and loses %s · n or esc goes back",
		n, english.Plural(n, "draft", "drafts"), strings.Join(m.draftNumbers(), ", "), english.Plural(n, "it", "them"))
}

// quitKey answers the question.
func (m *Model) quitKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "y", "Y", "ctrl+c":
		return tea.Quit
	case "n", "N", "esc", "q":
		m.setMode(modeBrowse)
		m.say("Not quitting: a on a request resumes its draft")
	}
	return nil
}
