package search

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestFoldTakesAccentsOffAndLowers(t *testing.T) {
	for in, want := range map[string]string{
		"Société":    "societe",
		"ÉTÉ":        "ete",
		"Łódź":       "łodz", // ł has no decomposition: SQLite keeps it too
		"ØRSTED":     "ørsted",
		"ÆSIR":       "æsir",
		"Straße":     "straße",
		"ẞ":          "ß",
		"ĐAKOVO":     "đakovo",
		"ΆΛΦΑ":       "αλφα",
		"ἈΘΗΝΑΙ":     "αθηναι", // polytonic Greek: breathings and accents are marks too
		"Дом":        "дом",
		"ЁЛКА Йод":   "елка иод",
		"FY2023":     "fy2023",
		"naïve":      "naive",
		"Nguyễn":     "nguyen",
		"e\u0301t":   "et", // an accent typed apart
		"ＡＢＣ":        "ａｂｃ",
		"ガ":          "カ", // the voicing mark is a combining mark
		"report.pdf": "report.pdf",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFoldIsIdempotent: a folded text folds to itself, character by
// character over all of Unicode, so a query folded twice (by the client's
// and the database's rule) is the query folded once.
func TestFoldIsIdempotent(t *testing.T) {
	for r := rune(1); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		once := Fold(string(r) + "é")
		if twice := Fold(once); twice != once {
			t.Errorf("Fold(%+q) = %+q, folded again %+q", string(r), once, twice)
		}
	}
}

// TestFoldSQLLowersEachCapitalOnce: the translate() table's two sides
// are the same length, what a capital lowers to is not a capital again,
// the class holds the capitals that do not decompose (Й is И and a
// mark), and the marks are Mn.
func TestFoldSQLLowersEachCapitalOnce(t *testing.T) {
	marks, capitals, from, to := FoldSQL()
	f, l := []rune(from), []rune(to)
	if len(f) != len(l) || len(f) < 900 {
		t.Fatalf("table of %d capitals to %d letters", len(f), len(l))
	}
	for i, c := range f {
		if strings.ContainsRune(from, l[i]) || unicode.ToLower(c) != l[i] {
			t.Errorf("%+q lowers to %+q", c, l[i])
		}
	}
	for _, class := range []string{marks, capitals} {
		if !strings.HasPrefix(class, `[\u`) || !strings.HasSuffix(class, "]") || !isASCII(class) {
			t.Errorf("not a bracket of escapes: %.40s…", class)
		}
	}
	for r, capital := range map[rune]bool{'И': true, 'Ø': true, 'Ǆ': true, 'Й': false, 'Ǿ': false, 'É': false, 'A': false, 'ø': false, 'и': false} {
		if inBracket(t, capitals, r) != capital {
			t.Errorf("%c is a capital left to lower: %v, want %v", r, !capital, capital)
		}
	}
	if !inBracket(t, marks, 0x0301) || !inBracket(t, marks, 0x3099) || inBracket(t, marks, 'a') {
		t.Error("the marks are not Mn")
	}
}

// inBracket reads a bracket of FoldSQL's and says whether r is in it.
func inBracket(t *testing.T, class string, r rune) bool {
	t.Helper()
	body := strings.TrimSuffix(strings.TrimPrefix(class, "["), "]")
	read := func() rune {
		n := 4
		if strings.HasPrefix(body, `\U`) {
			n = 8
		}
		v, err := strconv.ParseUint(body[2:2+n], 16, 32)
		if err != nil {
			t.Fatalf("%.20s: %v", body, err)
		}
		body = body[2+n:]
		return rune(v)
	}
	for body != "" {
		lo := read()
		hi := lo
		if strings.HasPrefix(body, "-") {
			body = body[1:]
			hi = read()
		}
		if lo <= r && r <= hi {
			return true
		}
	}
	return false
}
