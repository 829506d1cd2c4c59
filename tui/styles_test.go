package tui

import (
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/display"
)

// TestStatusColoursMatchTheCLI: a status has one colour wherever a person
// reads it: the TUI's badges and the CLI's tables (and the xlsx export's
// fills, which exporters/xlsx_styles.go keeps to the same hues).
func TestStatusColoursMatchTheCLI(t *testing.T) {
	st := newStyles(true)
	th := display.NewTheme(nil, true)
	for _, s := range api.RequestStatuses {
		tui := st.status[s].Render(string(s))
		cli := th.Status(string(s))
		if tui != cli {
			t.Errorf("%s: the TUI writes %q, the CLI %q", s, tui, cli)
		}
	}
}
