package tui

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/dealctl/dealctl/internal/api"
)

// styles are the program's colours. With colour off every style is
// plain, so meaning never rests on colour alone: the cursor has a marker,
// an overdue date a "!", a focused pane a heavy rule.
type styles struct {
	cursor, section, dim, bold lipgloss.Style
	overdue, errText           lipgloss.Style
	bar, focusRule, rule       lipgloss.Style
	status                     map[api.RequestStatus]lipgloss.Style
}

func newStyles(color bool) styles {
	if !color {
		plain := lipgloss.NewStyle()
		return styles{
			cursor: plain, section: plain, dim: plain, bold: plain, overdue: plain, errText: plain,
			bar: plain, focusRule: plain, rule: plain,
			status: map[api.RequestStatus]lipgloss.Style{},
		}
	}
	return styles{
		cursor:    lipgloss.NewStyle().Reverse(true),
		section:   lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("6")),
		dim:       lipgloss.NewStyle().Faint(true),
		bold:      lipgloss.NewStyle().Bold(true),
		overdue:   lipgloss.NewStyle().Foreground(lipgloss.Color("1")).Bold(true),
		errText:   lipgloss.NewStyle().Foreground(lipgloss.Color("1")).Bold(true),
		bar:       lipgloss.NewStyle().Reverse(true),
		focusRule: lipgloss.NewStyle().Foreground(lipgloss.Color("6")).Bold(true),
		rule:      lipgloss.NewStyle().Faint(true),
		status: map[api.RequestStatus]lipgloss.Style{
			api.StatusOpen:     lipgloss.NewStyle().Foreground(lipgloss.Color("3")),
			api.StatusPartial:  lipgloss.NewStyle().Foreground(lipgloss.Color("4")),
			api.StatusComplete: lipgloss.NewStyle().Foreground(lipgloss.Color("2")),
		},
	}
}

// setColorProfile makes lipgloss (and so bubbles) drop colour when the
// user asked for none; lipgloss reads the profile from the terminal
// otherwise and does not know about NO_COLOR or --no-color.
func setColorProfile(color bool) {
	if !color {
		lipgloss.SetColorProfile(termenv.Ascii)
	}
}

// badge is a status as a fixed-width word, coloured when colour is on.
func (s styles) badge(st api.RequestStatus) string {
	word := string(st)
	for len(word) < len("complete") {
		word += " "
	}
	if style, ok := s.status[st]; ok {
		return style.Render(word)
	}
	return word
}
