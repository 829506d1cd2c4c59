package cli

// What the serve and admin commands (internal/cmd/serve,
// internal/cmd/admin) share with the client commands: the same exit codes
// and the same wording of commands to paste. They live in packages of their
// own so that the client commands do not link the server and the database
// drivers; these wrappers are their way in.

// WithExit wraps err so that Main exits with code (one of the Exit
// constants).
func WithExit(code int, err error) error { return withExit(code, err) }

// UsageErrorf reports a usage mistake (exit 2).
func UsageErrorf(format string, a ...any) error { return usageErrorf(format, a...) }

// ShellQuote quotes s for a POSIX shell where it needs it, for commands
// dealctl prints for the user to paste.
func ShellQuote(s string) string { return shellQuote(s) }

// ExitCode is the exit code Main gives for err (ExitOK for nil).
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	return exitCode(err)
}
