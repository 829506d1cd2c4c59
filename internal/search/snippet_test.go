package search

import (
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// render writes pieces with matches in brackets, for comparing.
func render(pieces []api.SnippetPiece) string {
	var b strings.Builder
	for _, p := range pieces {
		if p.Match {
			b.WriteString("[" + p.Text + "]")
		} else {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

func mustParse(t *testing.T, q string) Query {
	t.Helper()
	parsed, err := Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	return parsed
}

func TestSnippetMarksWordsStemsPrefixesPhrasesAndNumbers(t *testing.T) {
	for _, tc := range []struct{ text, q, want string }{
		{"Provide the accounts for FY2023", "account", "Provide the [accounts] for FY2023"},
		{"Provide the accounts for FY2023", "fy2023", "Provide the accounts for [FY2023]"},
		{"Auditing reports, see section 2.3.", "audit* 2.3", "[Auditing] reports, see section [2.3]."},
		{"Section 12.3 and 2.3", "2.3", "Section 12.3 and [2.3]"},
		{"the société générale deal", `"societe generale"`, "the [société générale] deal"},
		{"a\x1b[31m red\u202e line\nnext", "red", "a[31m [red] line next"},
		{"nothing here", "absent", "nothing here"},
	} {
		if got := render(Snippet(tc.text, mustParse(t, tc.q), SnippetWidth)); got != tc.want {
			t.Errorf("Snippet(%q, %q) = %q, want %q", tc.text, tc.q, got, tc.want)
		}
	}
}

func TestSnippetCutsAroundTheFirstMatch(t *testing.T) {
	text := strings.Repeat("filler words here ", 30) + "the indemnity clause " + strings.Repeat("more words ", 30)
	got := render(Snippet(text, mustParse(t, "indemnity"), 60))
	if !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") || !strings.Contains(got, "[indemnity]") || len([]rune(got)) > 64 {
		t.Fatalf("snippet %q", got)
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct{ q, want string }{
		{`  tax   "due diligence"  audit*  `, `tax "due diligence" audit*`},
		{`"open ended`, `"open ended"`},
		{`2.3* -- FY2023`, `2.3 FY2023`}, // 2.3 is no plain word: no prefix; -- has no word
	} {
		got, err := Parse(tc.q)
		if err != nil || got.String() != tc.want {
			t.Errorf("Parse(%q) = %q, %v; want %q", tc.q, got.String(), err, tc.want)
		}
	}
	for q, want := range map[string]error{"": ErrQueryEmpty, `"" --`: ErrQueryEmpty, strings.Repeat("a ", 17): ErrQueryTooMany, strings.Repeat("a", 501): ErrQueryTooLong} {
		if _, err := Parse(q); err != want {
			t.Errorf("Parse(%q) = %v, want %v", q, err, want)
		}
	}
}
