package tui

import (
	"strings"
	"unicode/utf8"

	"github.com/dealctl/dealctl/internal/termsafe"
)

// keepOnlyStyling returns s with its SGR sequences (colour, bold: what
// glamour and lipgloss write) kept and anything else a terminal would act
// on shown visibly by termsafe. It is the last pass over rendered
// Markdown, whose input was made safe already but whose renderer decodes
// character references.
func keepOnlyStyling(s string) string {
	for i := 0; i < len(s); {
		if n := sgrLen(s[i:]); n > 0 {
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r < 0x20 && r != '\n' && r != '\t') || r >= 0x7f && (r == utf8.RuneError || termsafe.Line(string(r)) != string(r)) {
			return rewriteActive(s)
		}
		i += size
	}
	return s
}

// rewriteActive is keepOnlyStyling's slow path, for text known to hold
// something a terminal would act on.
func rewriteActive(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		if n := sgrLen(s[i:]); n > 0 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		b.WriteString(termsafe.Text(s[i : i+size]))
		i += size
	}
	return b.String()
}

// sgrLen is the length of the SGR sequence (ESC [ digits ; : m) at the
// start of s, or 0.
func sgrLen(s string) int {
	if !strings.HasPrefix(s, "\x1b[") {
		return 0
	}
	for i := 2; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c == ';', c == ':':
			continue
		case c == 'm':
			return i + 1
		}
		return 0
	}
	return 0
}
