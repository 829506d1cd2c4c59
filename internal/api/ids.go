package api

import "strings"

// IsID reports whether s has the shape of an id the server hands out: a
// UUID in its 36-character form, in either case. Whatever is not (a
// request number, a foreign sheet's own reference such as "DD-001", an
// email) is looked up another way; the server answers 404 to a path id
// of another shape without a look.
func IsID(s string) bool {
	return len(s) == 36 && IsIDStart(s)
}

// IsIDStart reports whether s could be the start of an id (IsID): at
// most 36 characters, each the one an id has in its place (hex digits,
// and the hyphens of a UUID). "" is the start of every id. Commands that
// take the first characters of an id refuse, without a call, what can
// start none.
func IsIDStart(s string) bool {
	if len(s) > 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f', 'A' <= c && c <= 'F':
		default:
			return false
		}
	}
	return true
}

// CanonicalID is an id as stored: UUIDs are kept in lower case, and an
// upper-case spelling of the same UUID names the same thing. Ids are
// checked with IsID first, and compared after CanonicalID.
func CanonicalID(s string) string { return strings.ToLower(s) }
