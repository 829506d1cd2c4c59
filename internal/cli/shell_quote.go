package cli

import "strings"

// shellSafe are the bytes a word may hold and need no quoting.
const shellSafe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=@%+,-"

// shellQuote quotes s for a POSIX shell where it needs it, for commands
// dealctl prints for the user to paste.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, shellSafe) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
