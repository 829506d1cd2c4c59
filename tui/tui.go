// Package tui is `dealctl tui`: a full-screen bubbletea program to work a
// deal's request list from the keyboard. It talks to the server only
// through internal/client (its retries, rate-limit waits and validators);
// the command in internal/cli resolves the deal and builds the client.
package tui

import (
	"context"
	"errors"
	"io"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
)

// Options configure the program.
type Options struct {
	Client *client.Client
	// Deal is the deal to open; nil opens the deal picker first.
	Deal *api.Deal
	// Seat is the caller's seat on Deal when the caller has read it
	// already (GET /deals/{id}): the first load then does not read the
	// deal again. nil reads it.
	Seat *api.Seat
	// Color is false for NO_COLOR, --no-color or a dumb terminal.
	Color bool
	// RefreshEvery is the background refresh period (0: none, for tests).
	RefreshEvery time.Duration
	// Rate reports the rate budget left; nil hides it.
	Rate *RateMeter
	// Now is the clock that decides which due dates are past.
	Now func() time.Time
	// Describe turns an error into one line for the status bar.
	Describe func(error) string
	// Download saves one file of a request and returns where; nil
	// disables d.
	Download func(ctx context.Context, deal api.Deal, request string, f api.File) (string, error)
}

// RefreshPeriod is how often the list is read again in the background.
const RefreshPeriod = 30 * time.Second

// Minimum terminal size the layout is designed for.
const (
	MinWidth  = 80
	MinHeight = 24
)

// Run runs the program on in and out until the user quits or ctx ends.
// It is the only place dealctl talks to the terminal as a terminal (raw
// mode, the alternate screen): no package does at init, so every other
// command runs without waiting on it.
func Run(ctx context.Context, o Options, in io.Reader, out io.Writer) error {
	m := New(ctx, o)
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out)}
	if !o.Color {
		// NO_COLOR, --no-color, a dumb terminal: no colour from bubbles'
		// own styles either.
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	p := tea.NewProgram(m, opts...)
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
