package search

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Folding makes "Société" and "societe", "ÉTÉ" and "été", "ΆΛΦΑ" and
// "αλφα" the same word. The rule, one for every script: the text's
// canonical decomposition (NFD), without its nonspacing marks (Unicode's
// Mn: accents, and the marks of other scripts), lowered letter by letter
// (Unicode's simple lowercase). Letters that do not decompose keep what
// they are (ø, ł, æ, ß, đ: lowered only).
//
// SQLite's FTS5 tokenizer folds the indexed text itself (unicode61
// remove_diacritics 2). PostgreSQL has no such built-in (unaccent is a
// contrib extension a hosted database may lack, and lower() under the C
// locale lowers ASCII only), so its migration 0010 defines
// dealctl_search_fold from the pieces FoldSQL makes here; a test checks
// the migration against them, and the function against Fold on every
// character: one rule, both stores.

// Fold lowers s and takes the accents off its letters, as the search
// index does.
func Fold(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return unicode.ToLower(r)
	}, norm.NFD.String(s))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// capitals are the letters Fold lowers that can be left in a text once
// it is decomposed (a capital that decomposes, É, is lowered as its base
// letter), other than ASCII's, each with its lowercase: what
// PostgreSQL's lower() does not do under the C locale.
var capitals = sync.OnceValue(func() [][2]rune {
	var out [][2]rune
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		l := unicode.ToLower(r)
		if l != r && norm.NFD.String(string(r)) == string(r) {
			out = append(out, [2]rune{r, l})
		}
	}
	return out
})

// FoldSQL are the pieces of PostgreSQL's dealctl_search_fold, written as
// its migration holds them: marks, a regular expression's bracket of
// the nonspacing marks Fold drops; capitalsClass, one of the capitals
// left to lower once a text is decomposed; from and to, the translate()
// table that lowers them, in code point order.
func FoldSQL() (marks, capitalsClass, from, to string) {
	var caps []rune
	var f, t strings.Builder
	for _, c := range capitals() {
		caps = append(caps, c[0])
		f.WriteRune(c[0])
		t.WriteRune(c[1])
	}
	return bracket(unicode.Mn, nil), bracket(nil, caps), f.String(), t.String()
}

// bracket writes a regular expression's bracket matching the runes of
// table, or else of list (sorted), as ranges of \u and \U escapes, so
// that no mark stands in the migration to combine with what is beside it.
func bracket(table *unicode.RangeTable, list []rune) string {
	if table != nil {
		list = nil
		for r := rune(0); r <= unicode.MaxRune; r++ {
			if unicode.Is(table, r) {
				list = append(list, r)
			}
		}
	}
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < len(list); {
		j := i
		for j+1 < len(list) && list[j+1] == list[j]+1 {
			j++
		}
		b.WriteString(escape(list[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(escape(list[j]))
		}
		i = j + 1
	}
	b.WriteByte(']')
	return b.String()
}

func escape(r rune) string {
	if r > 0xFFFF {
		return fmt.Sprintf(`\U%08X`, r)
	}
	return fmt.Sprintf(`\u%04X`, r)
}
