package cmdutil

import "strings"

// shellSafe are the bytes a word may hold and need no quoting.
const shellSafe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=@%+,-"

// ShellQuote quotes s for a POSIX shell where it needs it, for commands
// dealctl prints for the user to paste.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, shellSafe) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
