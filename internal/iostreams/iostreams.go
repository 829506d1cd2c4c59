// Package iostreams holds the standard streams of a command together with
// what is known about them: whether each is a terminal, and whether colour
// is wanted. Commands decide between tables for people and stable columns
// for scripts from here, never by probing os.Stdout themselves.
package iostreams

import (
	"bytes"
	"io"
	"os"
	"strconv"

	"golang.org/x/term"
)

// IOStreams are a command's stdin, stdout and stderr.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	stdinTTY, stdoutTTY, stderrTTY bool
	colorEnabled                   bool
	width                          int
}

// System returns the process's streams with terminal detection and the
// NO_COLOR / CLICOLOR / CLICOLOR_FORCE conventions applied.
func System() *IOStreams {
	s := &IOStreams{
		In:        os.Stdin,
		Out:       os.Stdout,
		ErrOut:    os.Stderr,
		stdinTTY:  isTerminal(os.Stdin),
		stdoutTTY: isTerminal(os.Stdout),
		stderrTTY: isTerminal(os.Stderr),
	}
	if s.stdoutTTY {
		if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil {
			s.width = w
		}
	}
	// DEALCTL_FORCE_TTY=1 (or a width) formats for a terminal though stdout
	// is a pipe: for `dealctl ... | less -R` and for end-to-end tests.
	if v := os.Getenv("DEALCTL_FORCE_TTY"); v != "" && v != "0" {
		s.stdoutTTY = true
		if w, err := strconv.Atoi(v); err == nil && w > 1 {
			s.width = w
		}
	}
	s.colorEnabled = colorWanted(s.stdoutTTY, os.Getenv)
	return s
}

// colorWanted applies https://no-color.org and the CLICOLOR conventions.
func colorWanted(tty bool, getenv func(string) string) bool {
	if getenv("NO_COLOR") != "" {
		return false
	}
	if v := getenv("CLICOLOR_FORCE"); v != "" && v != "0" {
		return true
	}
	if getenv("CLICOLOR") == "0" || getenv("TERM") == "dumb" {
		return false
	}
	return tty
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// Test returns streams over buffers, none of them a terminal.
func Test() (s *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// IsStdoutTTY reports whether stdout is a terminal: tables with headers
// and colour rather than tab-separated columns.
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// IsStderrTTY reports whether stderr is a terminal (progress bars).
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }

// CanPrompt reports whether the user can be asked something: never without
// a terminal on both ends, so scripts fail fast instead of hanging.
func (s *IOStreams) CanPrompt() bool { return s.stdinTTY && s.stdoutTTY }

// ColorEnabled reports whether output may carry ANSI colours.
func (s *IOStreams) ColorEnabled() bool { return s.colorEnabled }

// SetColorEnabled overrides colour (for --no-color, and tests).
func (s *IOStreams) SetColorEnabled(v bool) { s.colorEnabled = v }

// SetStdoutTTY marks stdout as a terminal or not (tests).
func (s *IOStreams) SetStdoutTTY(v bool) { s.stdoutTTY = v }

// SetStdinTTY marks stdin as a terminal or not (tests of what only a
// terminal gets, such as $EDITOR for an answer).
func (s *IOStreams) SetStdinTTY(v bool) { s.stdinTTY = v }

// SetTerminalWidth sets the width TerminalWidth reports (tests).
func (s *IOStreams) SetTerminalWidth(w int) { s.width = w }

// TerminalWidth is the width of the stdout terminal, or 80.
func (s *IOStreams) TerminalWidth() int {
	if s.width > 0 {
		return s.width
	}
	return 80
}

// ReadPassword reads a line from the terminal without echo.
func (s *IOStreams) ReadPassword() (string, error) {
	f, ok := s.In.(*os.File)
	if !ok || !s.stdinTTY {
		return "", io.ErrUnexpectedEOF
	}
	b, err := term.ReadPassword(int(f.Fd()))
	return string(b), err
}
