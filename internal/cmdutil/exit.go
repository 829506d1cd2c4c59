package cmdutil

import (
	"errors"
	"fmt"
)

// Exit codes users and scripts rely on (docs/client.md#exit-codes).
const (
	ExitOK          = 0
	ExitFailure     = 1
	ExitUsage       = 2
	ExitNotFound    = 3
	ExitAuth        = 4
	ExitConflict    = 5
	ExitValidation  = 6
	ExitRateLimited = 7
	// ExitMatched is `requests ls --exit-code` finding rows: a code of
	// its own, so a CI gate tells "overdue items exist" from a failure.
	ExitMatched = 8
)

// exitError carries an exit code with the message printed to stderr.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// WithExit wraps err so that the command exits with code (one of the
// Exit constants).
func WithExit(code int, err error) error { return &exitError{code: code, err: err} }

// UsageErrorf reports a usage mistake (exit 2).
func UsageErrorf(format string, a ...any) error {
	return WithExit(ExitUsage, fmt.Errorf(format, a...))
}

// NotFoundErrorf reports something the user named that does not exist
// (exit 3).
func NotFoundErrorf(format string, a ...any) error {
	return WithExit(ExitNotFound, fmt.Errorf(format, a...))
}

// silentExit ends the command with code and prints nothing (e.g. `requests
// ls --exit-code` when rows matched).
type silentExit struct{ code int }

func (e *silentExit) Error() string { return fmt.Sprintf("exit %d", e.code) }

// SilentExit ends the command with code without a message.
func SilentExit(code int) error { return &silentExit{code: code} }

// IsSilent reports whether err is to end the command without a message.
func IsSilent(err error) bool {
	var se *silentExit
	return errors.As(err, &se)
}

// ChosenExitCode is the exit code a command chose for err with WithExit,
// UsageErrorf, NotFoundErrorf or SilentExit; ok is false when it chose
// none and the caller maps the error by its kind.
func ChosenExitCode(err error) (code int, ok bool) {
	var se *silentExit
	if errors.As(err, &se) {
		return se.code, true
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code, true
	}
	return 0, false
}

// ExitCode is the exit code for err of a command that talks to no
// server (serve, admin): ExitOK for nil, the chosen code (usage mistakes
// are chosen where they are found, RefuseUsageMistakes), else
// ExitFailure. The client commands map the server's answers on top of
// this (internal/cli's exitCode).
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	if code, ok := ChosenExitCode(err); ok {
		return code
	}
	return ExitFailure
}
