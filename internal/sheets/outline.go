package sheets

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/dealctl/dealctl/internal/domain"
)

// qualifyOutline reads an outline numbered the way US counsel write
// them: headings of one style (I, II) over headings or items of another
// (A, B; then 1, 2) whose numbers restart, or run on, under each heading
// without its number. The rows are read under their headings, as people
// read them: I.1, I.2, II.1, or I.A.1. It applies only when every number
// is one part, the numbers are of at least two styles (digits, capitals,
// small letters; Roman numerals apart from letters where the sheet has
// both), and every row of a style but the last met is a heading (a title
// alone); rows above the first heading stay as they are. It returns a
// note, or "".
func qualifyOutline(rows []Row) string {
	styles := outlineStyles(rows)
	if styles == nil {
		return ""
	}
	level := map[string]int{} // style → depth, in the order first met
	for _, st := range styles {
		if _, seen := level[st]; !seen {
			level[st] = len(level)
		}
	}
	if len(level) < 2 {
		return ""
	}
	deepest := len(level) - 1
	k := 0
	for _, r := range rows {
		if r.Number == "" {
			continue
		}
		if level[styles[k]] < deepest && !isHeadingOnly(r) {
			return ""
		}
		k++
	}
	var stack []string
	var eg []string
	more := ""
	k = 0
	for i := range rows {
		n := rows[i].Number
		if n == "" {
			continue
		}
		d := level[styles[k]]
		k++
		stack = append(stack[:min(d, len(stack))], n)
		if len(stack) == 1 {
			continue
		}
		rows[i].Number = strings.Join(stack, ".")
		if len(eg) < 3 {
			eg = append(eg, fmt.Sprintf("%s under %s is %s", n, strings.Join(stack[:len(stack)-1], "."), rows[i].Number))
		} else {
			more = ", …"
		}
	}
	if len(eg) == 0 {
		return ""
	}
	return fmt.Sprintf("the numbers under each heading leave out the heading's own: read under their headings (%s%s)", strings.Join(eg, ", "), more)
}

// outlineStyles returns the style of each numbered row's number, in row
// order ("digit", "upper", "roman", "lower"), or nil when a number is
// not one part of one style. Capitals are Roman numerals where the sheet
// counts in both (I, II over A, B): a numeral that follows the last
// numeral (II after I), or I at the start, is Roman; any other capital a
// letter.
func outlineStyles(rows []Row) []string {
	var tokens []string
	romanToo, lettersToo := false, false
	for _, r := range rows {
		n := r.Number
		if n == "" {
			continue
		}
		if !(isAllDigits(n) || isAllLetters(n)) {
			return nil
		}
		tokens = append(tokens, n)
		if isAllLetters(n) && strings.ToUpper(n) == n {
			if v := domain.RomanValue(n); v > 0 && len(n) > 1 {
				romanToo = true
			} else if v == 0 {
				lettersToo = true
			}
		}
	}
	styles := make([]string, len(tokens))
	lastRoman := 0
	for i, n := range tokens {
		switch {
		case isAllDigits(n):
			styles[i] = "digit"
		case strings.ToUpper(n) != n:
			styles[i] = "lower"
		case romanToo && lettersToo && domain.RomanValue(n) == lastRoman+1:
			styles[i] = "roman"
			lastRoman++
		default:
			styles[i] = "upper"
		}
	}
	return styles
}

func isAllDigits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

func isAllLetters(s string) bool {
	return s != "" && strings.Trim(strings.ToUpper(s), "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
}

// subItemPattern is a sub-item's mark: (a), a), (iv), iv), or a small
// letter alone (a, b).
var subItemPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\(?([a-z]{1,2}|[ivx]{1,5})\)$|^([a-z])$`)
})

// qualifySubItems reads the sub-items counsel mark (a), (b) or (i), (ii)
// under a numbered request as that request's rows: (a) below 1.1 is
// 1.1.a. Without it each would be a row numbered "(a)" at the top of the
// list, and the second such mark a duplicate. Marks above the first
// number stay as they are. It returns a note, or "".
func qualifySubItems(rows []Row) string {
	parent := ""
	var eg []string
	count := 0
	for i := range rows {
		n := rows[i].Number
		if n == "" {
			continue
		}
		m := subItemPattern().FindStringSubmatch(n)
		if m == nil {
			parent = n
			continue
		}
		if parent == "" {
			continue
		}
		mark := m[1] + m[2]
		rows[i].Number = parent + "." + mark
		count++
		if len(eg) < 3 {
			eg = append(eg, fmt.Sprintf("%s below %s is %s", n, parent, rows[i].Number))
		}
	}
	if count == 0 {
		return ""
	}
	more := ""
	if count > len(eg) {
		more = ", …"
	}
	return fmt.Sprintf("sub-items marked (a), (i) are read under the row above them (%s%s)", strings.Join(eg, ", "), more)
}
