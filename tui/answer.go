package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// answerForm is the answer being written: the text and the three toggles
// of `dealctl answer` (--partial, --kind, --internal).
type answerForm struct {
	row      api.DealRequest
	text     textarea.Model
	partial  bool
	kind     api.MessageKind
	internal bool
	owner    bool // only the owning side has internal notes
	sending  bool
}

func (m *Model) startAnswer() tea.Cmd {
	r := m.current()
	switch {
	case r == nil:
		return nil
	case r.Kind == api.KindSection:
		m.fail(fmt.Errorf("%s is a section: answer one of its requests", r.Number))
		return nil
	case !r.Can.Answer:
		m.fail(fmt.Errorf("you may not answer %s (your role, key or the deal does not allow it)", r.Number))
		return nil
	}
	if d, ok := m.drafts[r.ID]; ok {
		d.row = *r
		m.answer = d
		m.setMode(modeAnswer)
		m.say("Your draft for %s, as you left it", termsafe.Line(r.Number))
		return d.text.Focus()
	}
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.Placeholder = "Write the answer (Markdown)…"
	ta.CharLimit = 0
	inputStyles(m.o.Color, nil, &ta)
	// The form's own toggles take these keys; the arrows still move.
	ta.KeyMap.LinePrevious = key.NewBinding(key.WithKeys("up"))
	ta.KeyMap.DeleteAfterCursor = key.NewBinding(key.WithKeys())
	ta.KeyMap.TransposeCharacterBackward = key.NewBinding(key.WithKeys())
	m.answer = &answerForm{row: *r, text: ta, kind: api.MessageResponse, owner: m.owner}
	m.setMode(modeAnswer)
	return m.answer.text.Focus()
}

// answerKey handles the form's keys; everything else is text.
func (m *Model) answerKey(msg tea.KeyPressMsg) tea.Cmd {
	a, k := m.answer, m.keys
	switch {
	case msg.String() == "esc":
		m.keepDraft()
		return nil
	case key.Matches(msg, k.discard):
		m.discardDraft()
		return nil
	case a.sending:
		return nil
	case key.Matches(msg, k.send):
		return m.sendAnswer()
	case key.Matches(msg, k.partial):
		a.partial = !a.partial
		return nil
	case key.Matches(msg, k.kind):
		a.kind = a.nextKind()
		return nil
	case key.Matches(msg, k.internal):
		if a.owner {
			a.internal = !a.internal
		}
		return nil
	}
	return a.update(msg)
}

func (a *answerForm) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	a.text, cmd = a.text.Update(msg)
	return cmd
}

// nextKind cycles the message kinds the caller may post.
func (a *answerForm) nextKind() api.MessageKind {
	kinds := []api.MessageKind{api.MessageResponse, api.MessageQuestion, api.MessageReference}
	if a.owner {
		kinds = append(kinds, api.MessageInternalNote)
	}
	for i, k := range kinds {
		if k == a.kind {
			return kinds[(i+1)%len(kinds)]
		}
	}
	return kinds[0]
}

func (m *Model) sendAnswer() tea.Cmd {
	a := m.answer
	text := a.text.Value()
	if strings.TrimSpace(text) == "" {
		m.fail(fmt.Errorf("the answer is empty: nothing was sent"))
		return nil
	}
	in := api.MessageCreate{Text: api.Some(text), Kind: api.Some(a.kind)}
	if a.partial {
		in.Partial = api.Some(true)
	}
	if a.internal {
		in.Internal = api.Some(true)
	}
	a.sending = true
	m.say("Sending the answer on %s…", termsafe.Line(a.row.Number))
	return m.post(a.row, in)
}

// view draws the form in w×h: a line of toggles, the text, the keys.
func (a *answerForm) view(st styles, w int) string {
	box := func(on bool) string {
		if on {
			return "[x]"
		}
		return "[ ]"
	}
	parts := []string{
		box(a.partial) + " partial ^P",
		"kind: " + string(a.kind) + " ^K",
	}
	if a.owner {
		parts = append(parts, box(a.internal)+" internal ^T")
	}
	parts = append(parts, "^S send")
	toggles := ansi.Truncate(strings.Join(parts, " · "), w, "…")
	return st.bold.Render(toggles) + "\n" + a.text.View()
}
