// Package termsafe makes text that came from the server safe to print on
// a terminal. Titles, bodies, messages and names are written by people on
// either side of a deal; a control sequence in them (a clipboard write via
// OSC 52, a window title, a hidden OSC 8 link, a cursor move that hides a
// line) must reach the reader as visible characters, never as an
// instruction to their terminal. Every printer of the CLI and the TUI goes
// through this package; JSON output does not (it is escaped already and
// scripts need the exact text).
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Text returns s with every character a terminal acts on shown visibly:
// ESC and the other C0 controls as their Unicode control pictures (ESC
// becomes ␛, so no escape sequence can start), DEL as ␡, C1 controls and
// bidirectional overrides as <U+XXXX>, bytes that are not UTF-8 as U+FFFD.
// Newlines and tabs are kept, and a carriage return before a newline is
// dropped (text written on Windows); any other carriage return is shown,
// since it would let a line overwrite itself.
func Text(s string) string {
	if plain(s, false) {
		return s
	}
	return rewrite(s, false)
}

// Line is Text for a single line of output (a table cell, a status bar):
// newlines and tabs become spaces as well.
func Line(s string) string {
	if plain(s, true) {
		return s
	}
	return rewrite(s, true)
}

// plain reports whether s is printable ASCII (with newlines and tabs
// unless oneLine), the common case, which needs no copy.
func plain(s string, oneLine bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if !oneLine && (c == '\n' || c == '\t') {
			continue
		}
		return false
	}
	return true
}

func rewrite(s string, oneLine bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\n' || r == '\t':
			if oneLine {
				b.WriteByte(' ')
			} else {
				b.WriteRune(r)
			}
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CRLF: the newline that follows is handled on its own.
		case r < 0x20:
			b.WriteRune(0x2400 + r) // ␀ … ␟, ␛ for ESC
		case r == 0x7f:
			b.WriteRune('␡')
		case isC1(r) || isBidiControl(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Acts reports whether a terminal acts on r or displays text around it
// out of order: the C0 and C1 controls, DEL and the bidirectional
// controls. Text and Line show each of them visibly; other places that
// take other people's text (file names) replace them.
func Acts(r rune) bool { return r < 0x20 || r == 0x7f || isC1(r) || isBidiControl(r) }

// isC1 reports the C1 controls (U+0080–U+009F): CSI (U+009B) and OSC
// (U+009D) start sequences on terminals that honour 8-bit controls.
func isC1(r rune) bool { return r >= 0x80 && r <= 0x9f }

// isBidiControl reports the characters that reorder text on display
// (Trojan Source, CVE-2021-42574): a title could read differently from
// what it says.
func isBidiControl(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, // LRE, RLE, PDF, LRO, RLO
		r >= 0x2066 && r <= 0x2069,            // LRI, RLI, FSI, PDI
		r == 0x200e, r == 0x200f, r == 0x061c: // LRM, RLM, ALM
		return true
	}
	return false
}

// Styled makes a rendered human view safe as a whole, for whatever
// server text a view printed without SafeCopy: with colour on it keeps
// the colouring dealctl and its Markdown renderer add (SGR sequences, ESC
// [ … m, which change colours and nothing else) and shows every other
// control visibly; with colour off it keeps none.
func Styled(out string, color bool) string {
	if !color {
		return Text(out)
	}
	var b strings.Builder
	b.Grow(len(out))
	for out != "" {
		i := strings.IndexByte(out, 0x1b)
		if i < 0 {
			b.WriteString(Text(out))
			break
		}
		b.WriteString(Text(out[:i]))
		n := sgrLen(out[i:])
		if n == 0 {
			b.WriteString(Text(out[i : i+1]))
			n = 1
		} else {
			b.WriteString(out[i : i+n])
		}
		out = out[i+n:]
	}
	return b.String()
}

// sgrLen is the length of the SGR sequence s starts with, or 0.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for j := 2; j < len(s); j++ {
		switch c := s[j]; {
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c == 'm':
			return j + 1
		default:
			return 0
		}
	}
	return 0
}
