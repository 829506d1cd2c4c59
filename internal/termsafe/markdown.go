package termsafe

import (
	"strconv"
	"strings"
)

// Markdown is Text for text a Markdown renderer will read: besides the
// characters Text shows visibly, an HTML character reference that would
// decode to one of them (&#27; is ESC) is shown as that character made
// visible, since the renderer would otherwise turn it back into the
// very byte Text took out. Every caller that renders server text as
// Markdown (the CLI's messages, the TUI's thread) goes through it.
func Markdown(text string) string {
	return neutralizeControlRefs(Text(text))
}

// neutralizeControlRefs replaces the HTML numeric character references
// (&#27;, &#x1b;) that Markdown would decode into a character a terminal
// acts on, after termsafe has run, with that character shown visibly; the
// others (&#8212; for a dash) are left to the renderer.
func neutralizeControlRefs(text string) string {
	if !strings.Contains(text, "&#") {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(text, "&#")
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		text = text[i:]
		end := strings.IndexByte(text, ';')
		if end < 0 || end > 12 {
			b.WriteString("&#")
			text = text[2:]
			continue
		}
		ref := text[:end+1]
		b.WriteString(visibleRef(ref))
		text = text[end+1:]
	}
}

// visibleRef is ref ("&#…;") as written, or, when it names a control, that
// control shown visibly.
func visibleRef(ref string) string {
	digits, base := ref[2:len(ref)-1], 10
	if digits != "" && (digits[0] == 'x' || digits[0] == 'X') {
		digits, base = digits[1:], 16
	}
	n, err := strconv.ParseUint(digits, base, 32)
	if err != nil || n > 0x10ffff {
		return ref
	}
	ch := string(rune(n))
	if safe := Line(ch); safe != ch {
		return safe
	}
	return ref
}
