package tui

import (
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/dealctl/dealctl/internal/api"
)

// styles are the program's colours. With colour off every style is
// plain, so meaning never rests on colour alone: the cursor has a marker,
// an overdue date a "!", a focused pane a heavy rule, an internal note a
// bar down its left side. The colours are the basic ANSI ones, which
// follow the terminal's own palette on dark and light backgrounds alike,
// so nothing needs to ask the terminal for its background.
type styles struct {
	cursor, section, dim, bold lipgloss.Style
	overdue, errText           lipgloss.Style
	bar, focusRule, rule       lipgloss.Style
	internal, internalTag      lipgloss.Style
	status                     map[api.RequestStatus]lipgloss.Style
}

func newStyles(color bool) styles {
	if !color {
		plain := lipgloss.NewStyle()
		return styles{
			cursor: plain, section: plain, dim: plain, bold: plain, overdue: plain, errText: plain,
			bar: plain, focusRule: plain, rule: plain, internal: plain, internalTag: plain,
			status: map[api.RequestStatus]lipgloss.Style{},
		}
	}
	return styles{
		cursor:      lipgloss.NewStyle().Reverse(true),
		section:     lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Cyan),
		dim:         lipgloss.NewStyle().Faint(true),
		bold:        lipgloss.NewStyle().Bold(true),
		overdue:     lipgloss.NewStyle().Foreground(lipgloss.Red).Bold(true),
		errText:     lipgloss.NewStyle().Foreground(lipgloss.Red).Bold(true),
		bar:         lipgloss.NewStyle().Reverse(true),
		focusRule:   lipgloss.NewStyle().Foreground(lipgloss.Cyan).Bold(true),
		rule:        lipgloss.NewStyle().Faint(true),
		internal:    lipgloss.NewStyle().Foreground(lipgloss.Magenta).Bold(true),
		internalTag: lipgloss.NewStyle().Foreground(lipgloss.Magenta).Reverse(true).Bold(true),
		status: map[api.RequestStatus]lipgloss.Style{
			api.StatusOpen:     lipgloss.NewStyle().Foreground(lipgloss.Yellow),
			api.StatusPartial:  lipgloss.NewStyle().Foreground(lipgloss.Blue),
			api.StatusComplete: lipgloss.NewStyle().Foreground(lipgloss.Green),
		},
	}
}

// badge is a status as a fixed-width word, coloured when colour is on.
func (s styles) badge(st api.RequestStatus) string {
	word := cell(string(st), statusW)
	if style, ok := s.status[st]; ok {
		return style.Render(word)
	}
	return word
}

// inputStyles gives the search field and the answer form styles that
// read on dark and light terminals alike. bubbles' defaults are made for
// one background (the answer box's cursor line is palette black, its
// cursor light grey: dark text on black on a light terminal), and asking
// the terminal for its background is what the TUI avoids (docs/tui.md).
// So the text is the terminal's own colour, the placeholder and a
// blurred field are faint, a selection is reverse video, and the cursor
// takes the terminal's own cursor colour. With colour off nothing is
// faint either; the cursor keeps its reverse video, which is not colour.
func inputStyles(color bool, ti *textinput.Model, ta *textarea.Model) {
	faint := lipgloss.NewStyle()
	if color {
		faint = faint.Faint(true)
	}
	plain := lipgloss.NewStyle()
	if ti != nil {
		st := ti.Styles()
		st.Focused = textinput.StyleState{Text: plain, Placeholder: faint, Suggestion: faint, Prompt: plain}
		st.Blurred = textinput.StyleState{Text: faint, Placeholder: faint, Suggestion: faint, Prompt: faint}
		st.Cursor.Color = nil
		ti.SetStyles(st)
	}
	if ta != nil {
		st := ta.Styles()
		state := func(text lipgloss.Style) textarea.StyleState {
			return textarea.StyleState{
				Base: plain, Text: text, CursorLine: plain, EndOfBuffer: plain, LineNumber: faint,
				CursorLineNumber: faint, Placeholder: faint, Prompt: plain, Selection: plain.Reverse(true),
			}
		}
		st.Focused, st.Blurred = state(plain), state(faint)
		st.Cursor.Color = nil
		ta.SetStyles(st)
	}
}
