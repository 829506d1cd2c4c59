package sheets

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dealctl/dealctl/internal/api"
)

// headingPatterns are compiled when a sheet is first read, not at start-up,
// which every dealctl command would pay:
//   - numberLike is what a number cell holds: dotted parts of digits or a
//     few letters (1, 2.3, A.1, IV), perhaps with a trailing dot;
//   - numberedHeading is a heading written with its number:
//     "7. ENVIRONMENTAL", "7.2 - Permits", "A) Corporate", "3: Tax".
var headingPatterns = sync.OnceValue(func() (p struct{ numberLike, numberedHeading *regexp.Regexp }) {
	p.numberLike = regexp.MustCompile(`^[0-9A-Za-z]{1,5}(\.[0-9A-Za-z]{1,5})*\.?$`)
	p.numberedHeading = regexp.MustCompile(`^((?:[0-9]{1,4}|[A-Z]{1,4})(?:\.[0-9]{1,4})*)(?:[.):]\s*|\s*[-–—]\s*|\s+)(\S.*)$`)
	return p
})

// splitHeadingCell reads a number cell whose row has no title: a heading
// typed or merged into the number column. "7. ENVIRONMENTAL" is number 7
// titled ENVIRONMENTAL; "CORPORATE MATTERS" is a title without a number;
// a cell that looks like a number stays one (the row's title is then
// reported missing).
func splitHeadingCell(cell string) (number, title string) {
	cell = OneLine(cell)
	if headingPatterns().numberLike.MatchString(cell) {
		return cleanNumber(cell), ""
	}
	if m := headingPatterns().numberedHeading.FindStringSubmatch(cell); m != nil && hasDigitOrDot(m[1], m[0]) {
		return m[1], strings.TrimSpace(m[2])
	}
	return "", cell
}

// hasDigitOrDot keeps "A) Corporate" and "7 ENVIRONMENTAL" but not
// "CORPORATE MATTERS", whose first word would otherwise pass for a
// letter number.
func hasDigitOrDot(number, whole string) bool {
	if strings.ContainsAny(number, "0123456789") {
		return true
	}
	rest := whole[len(number):]
	return strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, ")")
}

// titleFromDescription reads a Description cell as a row's title, for a
// sheet whose only text column it is. A description too long for a title
// gives its first sentence (or its first words, cut with "…") as the
// title and keeps the whole text as the body, so nothing is lost.
func titleFromDescription(cell string) (title, body string) {
	full := OneLine(cell)
	if utf8.RuneCountInString(full) <= api.MaxTitleLen {
		return full, ""
	}
	body = Text(cell)
	if i := strings.Index(full, ". "); i > 0 && utf8.RuneCountInString(full[:i+1]) <= api.MaxTitleLen {
		return full[:i+1], body
	}
	cut := []rune(full)[:api.MaxTitleLen-1]
	if i := strings.LastIndex(string(cut), " "); i > api.MaxTitleLen/2 {
		return string(cut)[:i] + "…", body
	}
	return string(cut) + "…", body
}
