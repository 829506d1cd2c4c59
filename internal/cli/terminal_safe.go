package cli

import (
	"io"
	"strconv"
	"strings"

	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// terminalSafeWriter passes each write through output.TerminalSafe, for
// the views written line by line rather than through Printer.Print (watch).
// A write is one whole line, so no sequence is split between writes.
type terminalSafeWriter struct {
	w     io.Writer
	color bool
}

func (t terminalSafeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(t.w, output.TerminalSafe(string(p), t.color)); err != nil {
		return 0, err
	}
	return len(p), nil
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
	if safe := termsafe.Line(ch); safe != ch {
		return safe
	}
	return ref
}
