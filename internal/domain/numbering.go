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
// "2.1"; capitals as a lettered list counts them, so "Z" < "AA" (one or
// two capitals by length, then alphabetically; other letters and words
// alphabetically, after them). Numbers that compare equal that way ("2."
// and "2") fall back to byte order, so the order is total. It returns -1,
// 0 or 1. Roman numerals need the whole list to be told from letters (is
// "C" a third section or a hundredth?): NumberOrder reads them.
func CompareNumbers(a, b string) int { return NumberOrder{}.Compare(a, b) }

// NumberOrder orders the numbers of one list as its readers read them:
// where every component at a depth that holds letters is a Roman numeral
// and one of them has two letters or more (I, II, … IX, X), that depth
// counts in Roman numerals, so "IX" < "X"; elsewhere as CompareNumbers.
// The zero value reads no Roman numerals.
type NumberOrder struct {
	roman map[int]bool // depth (0 for the first component) → Roman
}

// NewNumberOrder decides, from a list's numbers, which depths count in
// Roman numerals.
func NewNumberOrder(numbers []string) NumberOrder {
	lettered := map[int]bool{}    // a depth with letters that are not a numeral
	multiLetter := map[int]bool{} // a depth with a numeral of two letters or more
	for _, n := range numbers {
		for d, c := range strings.Split(n, ".") {
			if !hasLetter(c) {
				continue
			}
			if romanValue(c) == 0 {
				lettered[d] = true
			} else if len(c) > 1 {
				multiLetter[d] = true
			}
		}
	}
	o := NumberOrder{roman: map[int]bool{}}
	for d := range multiLetter {
		if !lettered[d] {
			o.roman[d] = true
		}
	}
	return o
}

// Compare orders two numbers of the list: -1, 0 or 1.
func (o NumberOrder) Compare(a, b string) int {
	if c := o.compareNatural(a, b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func (o NumberOrder) compareNatural(a, b string) int {
	for d := 0; a != "" || b != ""; d++ {
		if a == "" {
			return -1
		}
		if b == "" {
			return 1
		}
		ca, ra, _ := strings.Cut(a, ".")
		cb, rb, _ := strings.Cut(b, ".")
		c := 0
		if o.roman[d] {
			c = compareRoman(ca, cb)
		}
		if c == 0 {
			c = compareComponent(ca, cb)
		}
		if c != 0 {
			return c
		}
		a, b = ra, rb
	}
	return 0
}

// compareRoman orders components at a Roman depth: those that start
// with a digit (or are empty) first, then the numerals by value, then
// anything else; 0 when both are in the same class and not both
// numerals (or are equal numerals), for compareComponent to decide.
func compareRoman(a, b string) int {
	ca, cb := romanClass(a), romanClass(b)
	switch {
	case ca != cb && ca < cb:
		return -1
	case ca != cb:
		return 1
	case ca != 1:
		return 0
	}
	va, vb := romanValue(a), romanValue(b)
	switch {
	case va == vb:
		return 0
	case va < vb:
		return -1
	}
	return 1
}

// romanClass is 0 for a component that starts with a digit (or is
// empty), 1 for a Roman numeral, 2 for anything else.
func romanClass(c string) int {
	switch {
	case c == "" || isDigit(c[0]):
		return 0
	case romanValue(c) > 0:
		return 1
	}
	return 2
}

// RomanValue is the value of a Roman numeral written the usual way, all
// capitals or all small letters (IV, xii), up to 3999; 0 for anything
// else.
func RomanValue(s string) int { return romanValue(s) }

func romanValue(s string) int {
	if s == "" || (strings.ToUpper(s) != s && strings.ToLower(s) != s) {
		return 0
	}
	u := strings.ToUpper(s)
	total := 0
	for i := 0; i < len(u); i++ {
		v, ok := romanDigits[u[i]]
		if !ok {
			return 0
		}
		if i+1 < len(u) && romanDigits[u[i+1]] > v {
			total -= v
		} else {
			total += v
		}
	}
	// Only the usual spelling counts: IIII or VX are words, not numerals.
	if total <= 0 || total > 3999 || toRoman(total) != u {
		return 0
	}
	return total
}

var romanDigits = map[byte]int{'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100, 'D': 500, 'M': 1000}

func toRoman(n int) string {
	vals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var b strings.Builder
	for i, v := range vals {
		for n >= v {
			b.WriteString(syms[i])
			n -= v
		}
	}
	return b.String()
}

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}

// compareComponent compares one dotted component by alternating runs of
// digits (by value) and other characters (compareLetters).
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
			c = compareLetters(ra, rb)
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

// letterCount is the longest run of capitals compared as a lettered
// list counts (A … Z, AA, AB …): by length first.
const letterCount = 2

// isLetterCounter reports a run that counts as a lettered list does:
// one or two capitals. Anything else (a word, a name, small letters)
// sorts alphabetically, after the counters.
func isLetterCounter(s string) bool {
	if len(s) > letterCount {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// compareLetters compares two runs of other characters than digits:
// letter counters (isLetterCounter) by length, then alphabet, before
// everything else, which compares case-insensitively, then exactly.
func compareLetters(a, b string) int {
	ca, cb := isLetterCounter(a), isLetterCounter(b)
	switch {
	case ca != cb && ca:
		return -1
	case ca != cb:
		return 1
	case ca && len(a) != len(b):
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
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
