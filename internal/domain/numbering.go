// Package domain holds dealctl's pure rules, each written once and
// called by the server, world files, the spreadsheet import, the CLI and
// the TUI: who may do what, which statuses a caller may move a request
// to, what an answer does to the status, request numbering and parents,
// list order, the list filter and the text fields' limits. Nothing here
// touches storage or HTTP.
package domain

import (
	"math"
	"strconv"
	"strings"
)

// CompareNumbers orders request numbers naturally: dotted components are
// compared one by one, digit runs by value, so "2.9" < "2.10" and "2" <
// "2.1". Numbers that compare equal that way ("2." and "2") fall back to
// byte order, so the order is total. It returns -1, 0 or 1.
func CompareNumbers(a, b string) int {
	if c := compareNatural(a, b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func compareNatural(a, b string) int {
	for a != "" || b != "" {
		if a == "" {
			return -1
		}
		if b == "" {
			return 1
		}
		ca, ra, _ := strings.Cut(a, ".")
		cb, rb, _ := strings.Cut(b, ".")
		if c := compareComponent(ca, cb); c != 0 {
			return c
		}
		a, b = ra, rb
	}
	return 0
}

// compareComponent compares one dotted component by alternating runs of
// digits (by value) and other characters (case-insensitively, then
// exactly).
func compareComponent(a, b string) int {
	for a != "" && b != "" {
		da, db := isDigit(a[0]), isDigit(b[0])
		if da != db {
			if da { // digits sort before letters: "2" < "A"
				return -1
			}
			return 1
		}
		ra, restA := run(a, da)
		rb, restB := run(b, db)
		var c int
		if da {
			c = compareDigits(ra, rb)
		} else {
			c = strings.Compare(strings.ToLower(ra), strings.ToLower(rb))
			if c == 0 {
				c = strings.Compare(ra, rb)
			}
		}
		if c != 0 {
			return c
		}
		a, b = restA, restB
	}
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return -1
	default:
		return 1
	}
}

// compareDigits compares two digit strings by value without overflow,
// then by length so "01" sorts after "1".
func compareDigits(a, b string) int {
	ta, tb := strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(ta) != len(tb) {
		if len(ta) < len(tb) {
			return -1
		}
		return 1
	}
	if c := strings.Compare(ta, tb); c != 0 {
		return c
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

func run(s string, digits bool) (string, string) {
	i := 0
	for i < len(s) && isDigit(s[i]) == digits && s[i] != '.' {
		i++
	}
	return s[:i], s[i:]
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ParentNumber is the number a dotted number sits under: "2.3" → "2",
// "2.3.1" → "2.3"; "" for a top-level number ("2", or ".2", whose part
// before the dot is empty).
func ParentNumber(n string) string {
	if i := strings.LastIndexByte(n, '.'); i > 0 {
		return n[:i]
	}
	return ""
}

// NextNumber is the number a new row gets when none is given: the
// parent's number, a dot, and one more than the largest numeric last
// component among its siblings; at the top level (parent "") the next
// integer. Siblings whose last component is not a number are ignored.
func NextNumber(parent string, siblings []string) string {
	largest := 0
	for _, s := range siblings {
		largest = max(largest, lastValue(s))
	}
	return childNumber(parent, largest+1)
}

// lastValue is the value of a number's last dotted component, or 0 when
// it is not a number. A component too large to grow (past int range) is
// 0 too, rather than wrapped round to a negative number.
func lastValue(number string) int {
	last := number
	if i := strings.LastIndexByte(number, '.'); i >= 0 {
		last = number[i+1:]
	}
	if n, err := strconv.Atoi(last); err == nil && n > 0 && n < math.MaxInt {
		return n
	}
	return 0
}

func childNumber(parent string, n int) string {
	next := strconv.Itoa(n)
	if parent == "" {
		return next
	}
	return parent + "." + next
}

// Numbering hands out NextNumber's numbers for many rows at once (an
// import numbering the rows a sheet left unnumbered): it keeps the
// largest child of each parent, so that each number costs the same
// however many rows there are, where NextNumber reads every sibling.
// The zero value is not usable; make one with NewNumbering.
type Numbering struct {
	largest map[string]int // parent number → largest numeric last component
}

// NewNumbering starts a numbering in which no number is taken yet.
func NewNumbering() *Numbering { return &Numbering{largest: map[string]int{}} }

// Take marks number as used, so that Next never hands it out.
func (b *Numbering) Take(number string) {
	parent := ParentNumber(number)
	b.largest[parent] = max(b.largest[parent], lastValue(number))
}

// Next is NextNumber(parent, every number taken under parent). It does
// not take the number: Take it once it is used.
func (b *Numbering) Next(parent string) string {
	return childNumber(parent, b.largest[parent]+1)
}
