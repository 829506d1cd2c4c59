package domain

import (
	"strings"
	"unicode"
)

// NumberShape is what is wrong with the shape of a request number that
// passes NumberRule's length and trimming.
type NumberShape int

// The shapes, in the order CheckNumberShape looks for them.
const (
	NumberWellFormed NumberShape = iota
	NumberHasSpace               // "A 1": white space inside
	NumberEmptyPart              // "2..3", ".2", "2.": a dot without a part on one side
)

// CheckNumberShape reports whether n is dotted parts ("2", "2.3", "A.1",
// "IV.2"): no white space inside and no empty part. It is one rule for
// every door a number comes in by (the server's create and edit, world
// files, the spreadsheet import), so that a deal whose numbers were set
// through the API imports its own export: the sheet reader reads "2." as
// 2, and would not read "2..3" or "A 1" at all.
func CheckNumberShape(n string) NumberShape {
	switch {
	case strings.ContainsFunc(n, unicode.IsSpace):
		return NumberHasSpace
	case strings.HasPrefix(n, ".") || strings.HasSuffix(n, ".") || strings.Contains(n, ".."):
		return NumberEmptyPart
	}
	return NumberWellFormed
}
