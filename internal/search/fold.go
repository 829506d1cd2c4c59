package search

import (
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Folding makes "Société" and "societe", "ÉTÉ" and "été" the same word.
// SQLite's FTS5 tokenizer does it itself (unicode61 remove_diacritics 2:
// letters whose canonical decomposition is a base letter and marks lose
// the marks, every letter is lowered). PostgreSQL has no such built-in
// (unaccent is a contrib extension a hosted database may lack, and
// lower() under the C locale lowers ASCII only), so its migration 0007
// defines dealctl_search_fold with translate() on the table below, made
// here and checked against the migration by a test: one rule, both
// stores.

// foldedBlocks are the scripts whose letters are folded one for one:
// Latin (with its accented letters), Greek and Cyrillic. Other scripts'
// letters are kept as they are.
var foldedBlocks = [][2]rune{
	{0x00C0, 0x024F}, // Latin-1 Supplement, Latin Extended-A and -B
	{0x0370, 0x03FF}, // Greek and Coptic
	{0x0400, 0x04FF}, // Cyrillic
	{0x1E00, 0x1EFF}, // Latin Extended Additional (Vietnamese)
}

// foldTable maps each letter that folds to another to its folded form.
var foldTable = sync.OnceValue(func() map[rune]rune {
	out := map[rune]rune{}
	for _, block := range foldedBlocks {
		for r := block[0]; r <= block[1]; r++ {
			if f, ok := foldLetter(r); ok {
				out[r] = f
			}
		}
	}
	return out
})

// foldLetter is r without its marks, lowered, when that is one other
// letter.
func foldLetter(r rune) (rune, bool) {
	if !unicode.IsLetter(r) {
		return 0, false
	}
	var base []rune
	for _, d := range norm.NFD.String(string(r)) {
		if !unicode.Is(unicode.Mn, d) {
			base = append(base, d)
		}
	}
	if len(base) != 1 {
		return 0, false
	}
	f := unicode.ToLower(base[0])
	return f, f != r
}

// Fold lowers s and takes the accents off its letters, as the search
// index does.
func Fold(s string) string {
	table := foldTable()
	return strings.Map(func(r rune) rune {
		if r < 0x80 {
			return unicode.ToLower(r)
		}
		if f, ok := table[r]; ok {
			return f
		}
		if unicode.Is(unicode.Mn, r) {
			return -1 // a combining accent typed apart
		}
		return unicode.ToLower(r)
	}, s)
}

// FoldTable is the table as the two strings PostgreSQL's translate()
// takes: every letter of from becomes the letter at the same place in
// to. Letters come in code point order.
func FoldTable() (from, to string) {
	table := foldTable()
	var f, t strings.Builder
	for _, block := range foldedBlocks {
		for r := block[0]; r <= block[1]; r++ {
			if m, ok := table[r]; ok {
				f.WriteRune(r)
				t.WriteRune(m)
			}
		}
	}
	return f.String(), t.String()
}
