package exporters

import (
	"fmt"
	"strings"
)

// qualifyOutline reads an outline numbered the way US counsel write
// them: headings of one style (I, II or A, B) over items of another (1,
// 2) whose numbers restart, or run on, under each heading without its
// number. The items are read under their heading, as people read them:
// I.1, I.2, II.1. It applies only when every number is one part, the
// numbers are of two styles (letters and digits), and every row of the
// first row's style is a heading (a title alone); items above the first
// heading stay as they are. It returns a note, or "".
func qualifyOutline(rows []Row) string {
	numbered := 0
	var headingDigits, seenOther bool
	for _, r := range rows {
		n := r.Number
		if n == "" {
			continue
		}
		if strings.Contains(n, ".") || !(isAllDigits(n) || isAllLetters(n)) {
			return ""
		}
		if numbered == 0 {
			headingDigits = isAllDigits(n)
		} else if isAllDigits(n) != headingDigits {
			seenOther = true
		}
		if isAllDigits(n) == headingDigits && !isHeadingOnly(r) {
			return ""
		}
		numbered++
	}
	if !seenOther {
		return ""
	}
	heading := ""
	var eg []string
	more := ""
	for i := range rows {
		n := rows[i].Number
		switch {
		case n == "":
		case isAllDigits(n) == headingDigits:
			heading = n
		case heading != "":
			rows[i].Number = heading + "." + n
			if len(eg) < 3 {
				eg = append(eg, fmt.Sprintf("%s under %s is %s", n, heading, rows[i].Number))
			} else {
				more = ", …"
			}
		}
	}
	return fmt.Sprintf("the numbers under each heading leave out the heading's own: read under their headings (%s%s)", strings.Join(eg, ", "), more)
}

func isAllDigits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

func isAllLetters(s string) bool {
	return s != "" && strings.Trim(strings.ToUpper(s), "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
}
