package termsafe

import (
	"strings"
	"unicode/utf8"
)

// OneLine is Line for text that must stay on one line wherever it is
// read, a mail subject or a line of a notification or a digest: every
// character a terminal or mail client would act on is shown visibly,
// line breaks and runs of white space fold into one space, and at most
// limit characters are kept, an ellipsis ending a cut line (limit <= 0:
// no bound).
func OneLine(s string, limit int) string {
	s = strings.Join(strings.Fields(Line(s)), " ")
	if limit <= 0 || utf8.RuneCountInString(s) <= limit {
		return s
	}
	return string([]rune(s)[:limit-1]) + "…"
}
