package cmdutil

import "strings"

// IsFlagError tells cobra's argument-count and unknown-command errors,
// which are usage mistakes but arrive as plain errors.
func IsFlagError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "requires at most", "invalid argument", "unknown flag", "unknown shorthand flag", "flag needs an argument", "required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
