package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dealctl/dealctl/internal/termsafe/termsafetest"
)

func TestTextLeavesNoControlCharacter(t *testing.T) {
	for _, h := range termsafetest.Hostile {
		for name, f := range map[string]func(string) string{"Text": Text, "Line": Line} {
			got := f(h.Text)
			if bad := firstActive(got, name == "Text"); bad >= 0 {
				t.Errorf("%s(%s) = %q: active character %U left", name, h.Name, got, bad)
			}
			if !utf8.ValidString(got) {
				t.Errorf("%s(%s) = %q is not UTF-8", name, h.Name, got)
			}
		}
	}
}

// firstActive returns the first rune a terminal would act on, or -1.
func firstActive(s string, keepNewlines bool) rune {
	for _, r := range s {
		if keepNewlines && (r == '\n' || r == '\t') {
			continue
		}
		if r < 0x20 || r == 0x7f || isC1(r) || isBidiControl(r) {
			return r
		}
	}
	return -1
}

func TestTextShowsWhatWasThere(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b[31mred\x1b[0m":  "␛[31mred␛[0m",
		"invoice_\u202egnp":   "invoice_<U+202E>gnp",
		"a\u009bb":            "a<U+009B>b",
		"a\x9bb":              "a\uFFFDb",
		"line one\r\nline 2":  "line one\nline 2",
		"approved\rREJECTED":  "approved␍REJECTED",
		"keeps\ttabs\nand NL": "keeps\ttabs\nand NL",
		"Plain – £ ünïcödé":   "Plain – £ ünïcödé",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Line("two\nlines\tand tab"); got != "two lines and tab" {
		t.Errorf("Line = %q", got)
	}
}

func TestPlainTextIsNotCopied(t *testing.T) {
	s := strings.Repeat("Provide audited accounts FY21-23\n", 100)
	if n := testing.AllocsPerRun(10, func() { _ = Text(s) }); n != 0 {
		t.Errorf("Text of plain text allocated %v times", n)
	}
}

func FuzzText(f *testing.F) {
	for _, h := range termsafetest.Hostile {
		f.Add(h.Text)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, keep := range []bool{true, false} {
			got := Line(s)
			if keep {
				got = Text(s)
			}
			if bad := firstActive(got, keep); bad >= 0 {
				t.Fatalf("%q -> %q keeps %U", s, got, bad)
			}
		}
	})
}

func BenchmarkTextPlain(b *testing.B) {
	s := strings.Repeat("Provide audited accounts FY21–23 ", 20)
	for b.Loop() {
		_ = Text(s)
	}
}
