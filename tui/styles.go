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

// plainInputs takes the colour out of the search field's and the answer
// form's own styles when colour is off; the cursor keeps its reverse
// video, which is not colour. (The program also downsamples its output
// to no colour; this keeps the screen the model composes colourless too.)
func plainInputs(color bool, ti *textinput.Model, ta *textarea.Model) {
	if color {
		return
	}
	if ti != nil {
		st := textinput.Styles{Cursor: ti.Styles().Cursor}
		st.Cursor.Color = nil
		ti.SetStyles(st)
	}
	if ta != nil {
		st := textarea.Styles{Cursor: ta.Styles().Cursor}
		st.Cursor.Color = nil
		ta.SetStyles(st)
	}
}
