package api

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// The rules below are how the limits of docs/api.md#limits are counted. The server
// applies them to API bodies and world files apply them to seeded rows, so
// that a seeded deal reads back exactly like one built through the API.

// TextLen is a text's length as the limits count it: in characters
// (Unicode code points), not bytes.
func TextLen(s string) int { return utf8.RuneCountInString(s) }

// HasNUL reports a NUL character, which no text field takes: PostgreSQL
// cannot store one, so both backends refuse it alike.
func HasNUL(s string) bool { return strings.IndexByte(s, 0) >= 0 }

// LinkURLProblem checks a link's url: present, at most MaxLinkURLLen
// characters, and an absolute https URL with a host. It returns the
// FieldError code of what is wrong (FieldRequired, FieldTooLong,
// FieldInvalid or FieldNotHTTPS), or "" when the URL is acceptable.
func LinkURLProblem(raw string) string {
	switch {
	case raw == "":
		return FieldRequired
	case TextLen(raw) > MaxLinkURLLen:
		return FieldTooLong
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "" || u.Scheme == "":
		return FieldInvalid
	case !strings.EqualFold(u.Scheme, "https"):
		return FieldNotHTTPS
	}
	return ""
}
