package search

import (
	"errors"
	"strings"
	"unicode"
)

// Term is one thing a query asks for: a word (which may be a number such
// as 2.3 or a name such as FY2023, found as typed), a phrase in quotes,
// or a word's prefix (audit*).
type Term struct {
	Text   string // as the user typed it, quotes and the star removed
	Phrase bool   // it came in quotes
	Prefix bool   // a bare word ending in *: words starting with it
}

// Query is a parsed query: every term must match (or, in a match=any
// search, as many as can).
type Query []Term

// Limits on a query, which the server checks (docs/api.md, "Search").
const (
	MaxQueryLen = 500 // characters
	MaxTerms    = 16
)

// Why a query cannot be searched.
var (
	ErrQueryEmpty   = errors.New("the query has no word to search for")
	ErrQueryTooLong = errors.New("the query is too long")
	ErrQueryTooMany = errors.New("the query has too many words")
)

// Parse reads q: words separated by spaces, "phrases in quotes" (an
// unclosed quote runs to the end), and word* for a prefix. A term with no
// letter or digit in it (punctuation alone) is dropped.
func Parse(q string) (Query, error) {
	if len([]rune(q)) > MaxQueryLen {
		return nil, ErrQueryTooLong
	}
	var out Query
	add := func(t Term) {
		if hasWord(t.Text) {
			out = append(out, t)
		}
	}
	rest := strings.TrimSpace(q)
	for rest != "" {
		if rest[0] == '"' {
			body, after, _ := strings.Cut(rest[1:], `"`)
			add(Term{Text: strings.Join(strings.Fields(body), " "), Phrase: true})
			rest = strings.TrimSpace(after)
			continue
		}
		end := strings.IndexFunc(rest, func(r rune) bool { return unicode.IsSpace(r) || r == '"' })
		if end < 0 {
			end = len(rest)
		}
		word := rest[:end]
		rest = strings.TrimSpace(rest[end:])
		t := Term{Text: strings.TrimRight(word, "*")}
		// A prefix is of one plain word: the databases take it as the
		// start of one token.
		t.Prefix = strings.HasSuffix(word, "*") && isPlainWord(t.Text)
		add(t)
	}
	if len(out) == 0 {
		return nil, ErrQueryEmpty
	}
	if len(out) > MaxTerms {
		return nil, ErrQueryTooMany
	}
	return out, nil
}

// String writes q back in the query language, the same however it was
// spelt (a canonical form for ETags and logs).
func (q Query) String() string {
	parts := make([]string, len(q))
	for i, t := range q {
		switch {
		case t.Phrase:
			parts[i] = `"` + t.Text + `"`
		case t.Prefix:
			parts[i] = t.Text + "*"
		default:
			parts[i] = t.Text
		}
	}
	return strings.Join(parts, " ")
}

func hasWord(s string) bool {
	return strings.IndexFunc(s, isWordRune) >= 0
}

// isPlainWord: letters and digits only.
func isPlainWord(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !isWordRune(r) }) < 0
}

// isWordRune is what both databases' tokenizers keep in a word.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// Words splits s into its words (runs of letters and digits), folded.
func Words(s string) []string {
	return strings.FieldsFunc(Fold(s), func(r rune) bool { return !isWordRune(r) })
}
