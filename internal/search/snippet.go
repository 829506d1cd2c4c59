package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dealctl/dealctl/internal/api"
)

// SnippetWidth is how many characters a hit's snippet shows at most.
const SnippetWidth = 160

// Snippet cuts text to at most width characters around the first place
// q's words are, and marks them. The database decided that the text
// matches; which words to mark is decided here, the same way on both
// stores: a word is marked when it is a query word folded, starts with a
// prefix term, or shares its stem by the rule of sameStem (an
// approximation of the stemmers, so a mark may be missing or extra, never
// a hit). Control and format characters are dropped and white space is
// one space, so a snippet is one line of plain text.
func Snippet(text string, q Query, width int) []api.SnippetPiece {
	runes := []rune(oneLine(text))
	words := wordSpans(runes)
	folded := make([]string, len(words))
	for i, w := range words {
		folded[i] = Fold(string(runes[w[0]:w[1]]))
	}
	marked := make([]bool, len(runes))
	first := -1
	for _, t := range q {
		toks := Words(t.Text)
		if len(toks) == 0 {
			continue
		}
		for i := 0; i+len(toks) <= len(words); i++ {
			if !matchesAt(folded[i:i+len(toks)], toks, t.Prefix) {
				continue
			}
			from, to := words[i][0], words[i+len(toks)-1][1]
			for k := from; k < to; k++ {
				marked[k] = true
			}
			if first < 0 || from < first {
				first = from
			}
		}
	}
	start, end := window(runes, first, width)
	var out []api.SnippetPiece
	add := func(s string, match bool) {
		if s == "" {
			return
		}
		if n := len(out); n > 0 && out[n-1].Match == match {
			out[n-1].Text += s
			return
		}
		out = append(out, api.SnippetPiece{Text: s, Match: match})
	}
	if start > 0 {
		add("…", false)
	}
	for i := start; i < end; {
		j := i
		for j < end && marked[j] == marked[i] {
			j++
		}
		add(string(runes[i:j]), marked[i])
		i = j
	}
	if end < len(runes) {
		add("…", false)
	}
	if out == nil {
		out = []api.SnippetPiece{}
	}
	return out
}

// Marked reports whether any piece of a snippet is a matched word.
func Marked(pieces []api.SnippetPiece) bool {
	for _, p := range pieces {
		if p.Match {
			return true
		}
	}
	return false
}

// oneLine drops control and format characters (bidi overrides among
// them) and makes every run of white space one space.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == utf8.RuneError:
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// wordSpans are the [start, end) rune offsets of the words of runes.
func wordSpans(runes []rune) [][2]int {
	var out [][2]int
	for i := 0; i < len(runes); {
		if !isWordRune(runes[i]) {
			i++
			continue
		}
		j := i
		for j < len(runes) && isWordRune(runes[j]) {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// matchesAt: the words in a row are the term's tokens (the last as a
// prefix for a prefix term).
func matchesAt(words, toks []string, prefix bool) bool {
	for k, tok := range toks {
		last := k == len(toks)-1
		if !(words[k] == tok || (last && prefix && strings.HasPrefix(words[k], tok)) || (!(last && prefix) && sameStem(words[k], tok))) {
			return false
		}
	}
	return true
}

// sameStem is the marking rule's stand-in for the stemmers: two words of
// letters that share their first three letters and all but at most two
// of the shorter's ("account" and "accounts", "audit" and "auditing").
// Numbers match only as typed.
func sameStem(a, b string) bool {
	if strings.IndexFunc(a+b, unicode.IsDigit) >= 0 {
		return false
	}
	ra, rb := []rune(a), []rune(b)
	common := 0
	for common < len(ra) && common < len(rb) && ra[common] == rb[common] {
		common++
	}
	return common >= 3 && common >= min(len(ra), len(rb))-2
}

// window is the [start, end) of at most width runes to show: from a
// little before the first match (at a word's start), or from the
// beginning.
func window(runes []rune, first, width int) (int, int) {
	if len(runes) <= width {
		return 0, len(runes)
	}
	start := 0
	if first > width/3 {
		start = first - width/3
		for start < first && runes[start-1] != ' ' {
			start++
		}
	}
	end := min(len(runes), start+width)
	if end < len(runes) {
		// End at a word's end where one is near.
		for k := end; k > start+width/2; k-- {
			if runes[k] == ' ' {
				end = k
				break
			}
		}
	}
	return start, end
}
