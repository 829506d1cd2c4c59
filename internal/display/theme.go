package display

import (
	"io"

	"charm.land/lipgloss/v2"
)

// Theme colours text for a terminal; with colour off every method returns
// its input unchanged.
type Theme struct {
	on                                        bool
	bold, dim, red, green, yellow, blue, cyan lipgloss.Style
}

// NewTheme returns a theme for w, coloured only when color is true. The
// decision is made here rather than by lipgloss, so that NO_COLOR,
// --no-color and pipes are decided in one place (iostreams). The colours
// are the 16 basic ANSI ones, which every colour terminal has, so nothing
// needs to ask the terminal what it supports (lipgloss v2 never does on
// its own). w is kept in the signature for the callers.
func NewTheme(_ io.Writer, color bool) *Theme {
	return &Theme{
		on:     color,
		bold:   lipgloss.NewStyle().Bold(true),
		dim:    lipgloss.NewStyle().Faint(true),
		red:    lipgloss.NewStyle().Foreground(lipgloss.Red),
		green:  lipgloss.NewStyle().Foreground(lipgloss.Green),
		yellow: lipgloss.NewStyle().Foreground(lipgloss.Yellow),
		blue:   lipgloss.NewStyle().Foreground(lipgloss.Blue),
		cyan:   lipgloss.NewStyle().Foreground(lipgloss.Cyan),
	}
}

func (t *Theme) paint(s lipgloss.Style, text string) string {
	if t == nil || !t.on || text == "" {
		return text
	}
	return s.Render(text)
}

// Bold emphasises headers and titles.
func (t *Theme) Bold(s string) string { return t.paint(t.bold, s) }

// Dim de-emphasises secondary text.
func (t *Theme) Dim(s string) string { return t.paint(t.dim, s) }

// Red marks failures and overdue dates.
func (t *Theme) Red(s string) string { return t.paint(t.red, s) }

// Green marks success.
func (t *Theme) Green(s string) string { return t.paint(t.green, s) }

// Yellow marks warnings and partial answers.
func (t *Theme) Yellow(s string) string { return t.paint(t.yellow, s) }

// Cyan marks names and numbers.
func (t *Theme) Cyan(s string) string { return t.paint(t.cyan, s) }

// Status colours a request status as the TUI and the xlsx export do:
// open yellow (waiting), partial blue (under way), complete green (done).
func (t *Theme) Status(s string) string {
	switch s {
	case "complete":
		return t.Green(s)
	case "partial":
		return t.paint(t.blue, s)
	case "open":
		return t.Yellow(s)
	}
	return s
}

// StatusColumn is a Column.Color for status cells.
func StatusColumn(t *Theme, cell string, _ []string) string { return t.Status(cell) }

// PriorityColumn is a Column.Color that makes high priority stand out.
func PriorityColumn(t *Theme, cell string, _ []string) string {
	if cell == "high" {
		return t.Red(cell)
	}
	return cell
}

// BoldColumn is a Column.Color for names that should stand out.
func BoldColumn(t *Theme, cell string, _ []string) string { return t.Bold(cell) }

// CyanColumn is a Column.Color for numbers and codes.
func CyanColumn(t *Theme, cell string, _ []string) string { return t.Cyan(cell) }
