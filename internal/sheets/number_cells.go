package sheets

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/xuri/excelize/v2"

	"github.com/dealctl/dealctl/internal/domain"
)

// maxNumberPart is the largest part of a request number read without a
// question: no list holds a thousand sections, or a thousand requests
// under one, so a larger part is a mistake (most often a date's day count,
// below) unless the sheet's numbering runs there (1199, 1200, 1201).
const maxNumberPart = 999

// serialYears are the years whose Excel day counts a number column may
// hold by mistake: 2000-01-01 is day 36526, 2099-12-31 day 73050.
const firstSerial, lastSerial = 36526, 73050

// numberAsDatePatterns are the ways a date reads once Excel has turned a
// typed number into one and a tool wrote it as text: 13.01.2026,
// 13/01/26, 2026-01-13, 13-Jan, 13. Jan, Jan 13.
var numberAsDatePatterns = sync.OnceValue(func() (p struct{ dotted, monthName *regexp.Regexp }) {
	p.dotted = regexp.MustCompile(`^(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})(?:[ T]00:00(?::00)?)?$`)
	p.monthName = regexp.MustCompile(`^(?i)(?:(\d{1,2})[.\- ]+(jan|feb|m[aä]r|apr|ma[iy]|jun|jul|aug|sep|o[ck]t|nov|de[cz])[a-zä]*\.?|(jan|feb|m[aä]r|apr|ma[iy]|jun|jul|aug|sep|o[ck]t|nov|de[cz])[a-zä]*\.?[\- ]+(\d{1,2}))$`)
	return p
})

var monthAbbrev = map[string]time.Month{"jan": 1, "feb": 2, "mar": 3, "mär": 3, "apr": 4, "mai": 5, "may": 5, "jun": 6, "jul": 7,
	"aug": 8, "sep": 9, "oct": 10, "okt": 10, "nov": 11, "dec": 12, "dez": 12}

// numberCellProblems finds the number cells that are not numbers a list
// holds: dates Excel made of typed numbers (German Excel reads "13.1" in a
// General cell as 13 January), their day counts (46035), and parts too
// large for any list. dateCell reports whether a row's number cell is
// formatted as a date (a workbook knows; a csv does not); date1904 is the
// workbook's date system.
func numberCellProblems(rows []Row, column string, dateCell func(line int) bool, date1904 bool) []Problem {
	var problems []Problem
	bad := func(r Row, format string, a ...any) {
		problems = append(problems, Problem{Line: r.Line, Column: column, Field: FieldNumber, Message: fmt.Sprintf(format, a...)})
	}
	numbered := make([]int, 0, len(rows))
	for i := range rows {
		if rows[i].Number != "" {
			numbered = append(numbered, i)
		}
	}
	for k, i := range numbered {
		r := rows[i]
		if day, ok := dateText(r.Number); ok {
			bad(r, "%s", turnedIntoDate(day, r.Number, column))
			continue
		}
		big, ok := bigPart(r.Number)
		if !ok {
			continue
		}
		var neighbours []string
		if k > 0 {
			neighbours = append(neighbours, rows[numbered[k-1]].Number)
		}
		if k+1 < len(numbered) {
			neighbours = append(neighbours, rows[numbered[k+1]].Number)
		}
		serial, isInt := strconv.Atoi(r.Number)
		isDate := isInt == nil && dateCell(r.Line)
		switch {
		case isInt == nil && serial >= firstSerial && serial <= lastSerial:
			// No list runs to 36,526 rows: a day count, whatever its
			// neighbours (13.1 and 14.1 typed one below the other are
			// 46035 and 46036).
			t, _ := excelize.ExcelDateToTime(float64(serial), date1904)
			bad(r, "%s", turnedIntoDate(t, fmt.Sprintf("the day count %s", r.Number), column))
		case isDate:
			bad(r, "the cell is formatted as a date, so %s is a day count, not a number: format the %s column as Text, type the numbers again and import again", r.Number, column)
		case !numberingRuns(r.Number, neighbours):
			bad(r, "%s in %s is larger than any list's numbers (at most %d unless the rows around it run there): check the cell; if it is meant, number the rows around it in sequence",
				big, r.Number, maxNumberPart)
		}
	}
	return problems
}

// turnedIntoDate says what Excel did to a typed number, from the day it
// made of it: 13 January is "13.1" typed where dates are written day
// first (Germany, most of Europe), which is where this happens.
func turnedIntoDate(day time.Time, held, column string) string {
	typed := fmt.Sprintf("%d.%d", day.Day(), int(day.Month()))
	return fmt.Sprintf("Excel turned %s into a date (%s; the cell holds %s): format the %s column as Text, type the numbers again (or type '%s) and import again",
		typed, day.Format("2 January 2006"), held, column, typed)
}

// dateText reads a number cell written as a date: the day it names.
func dateText(s string) (time.Time, bool) {
	p := numberAsDatePatterns()
	if strings.Count(s, ".")+strings.Count(s, "/")+strings.Count(s, "-") < 2 && !hasLetterIn(s) {
		return time.Time{}, false // 1, 2.3: no date has fewer parts
	}
	if m := p.dotted.FindStringSubmatch(s); m != nil {
		d, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		y, _ := strconv.Atoi(m[3])
		// A two-digit year on a dotted cell reads as a date only when
		// zero-padded as dates are (13.01.26), not as 1.2.3 is.
		if len(m[3]) == 2 {
			if !strings.HasPrefix(m[2], "0") && !strings.HasPrefix(m[1], "0") {
				return time.Time{}, false
			}
			y += 2000
		}
		return validDay(y, mo, d)
	}
	if len(s) >= 10 && s[4] == '-' {
		if t, err := time.Parse(time.DateOnly, strings.TrimSuffix(strings.TrimSuffix(s, " 00:00:00"), "T00:00:00")); err == nil {
			return t, true
		}
	}
	if !hasLetterIn(s) {
		return time.Time{}, false
	}
	if m := p.monthName.FindStringSubmatch(s); m != nil {
		day, month := m[1], m[2]
		if day == "" {
			day, month = m[4], m[3]
		}
		d, _ := strconv.Atoi(day)
		return validDay(time.Now().Year(), int(monthAbbrev[strings.ToLower(month)[:3]]), d)
	}
	return time.Time{}, false
}

func hasLetterIn(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

func validDay(y, m, d int) (time.Time, bool) {
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	return t, m >= 1 && m <= 12 && t.Day() == d
}

// bigPart returns the first part of a dotted number above maxNumberPart.
func bigPart(n string) (string, bool) {
	for _, part := range strings.Split(n, ".") {
		if v, err := strconv.Atoi(part); err == nil && v > maxNumberPart {
			return part, true
		}
	}
	return "", false
}

// numberingRuns reports whether a neighbouring row's number continues
// n's sequence: a sibling one above or below (1199, 1200), or n's parent
// or child (1200 above 1200.1).
func numberingRuns(n string, neighbours []string) bool {
	last := lastPart(n)
	for _, o := range neighbours {
		if domain.ParentNumber(o) == n || domain.ParentNumber(n) == o {
			return true
		}
		if domain.ParentNumber(o) != domain.ParentNumber(n) {
			continue
		}
		if v := lastPart(o); v >= 0 && last >= 0 && (v == last-1 || v == last+1) {
			return true
		}
	}
	return false
}

func lastPart(n string) int {
	if i := strings.LastIndexByte(n, '.'); i >= 0 {
		n = n[i+1:]
	}
	v, err := strconv.Atoi(n)
	if err != nil {
		return -1
	}
	return v
}
