package ansi

// This file is dealctl's, not upstream glamour's: see ../README.md.

import (
	"html"
	"strings"
	"testing"

	"github.com/microcosm-cc/bluemonday"
)

func TestStripTagsKeepsTheReadableText(t *testing.T) {
	for in, want := range map[string]string{
		"<b>bold</b> &amp; <i>it</i>":    "bold & it",
		"<script>alert(1)</script>after": "after",
		"<style>p{}</style>x":            "x",
		"<p>a</p><p>b</p>":               "ab",
		"a < b":                          "a < b",
		"<!-- c -->d":                    "d",
		"<br/>e&lt;f":                    "e<f",
		"  <span> sp </span>  ":          "sp",
		"<div>unclosed":                  "unclosed",
		"&nbsp;x&#169;":                  "x©",
		"<img src=x alt=y>z":             "z",
		"<a href='u'>link</a>":           "link",
		"<iframe>inner</iframe>k":        "k",
		"<textarea>t</textarea>":         "t",
		"x<y":                            "x",
		"&amp;lt;":                       "&lt;",
		"<title>t</title><noscript>n</noscript>ok": "ok",
		"<frame>x</frame>y":                        "y",
		"<NoStyle>x</nostyle>y":                    "y",
	} {
		if got := strings.TrimSpace(stripTags(in)); got != want {
			t.Errorf("stripTags(%q) = %q, want %q", in, got, want)
		}
	}
}

// Upstream glamour sanitised raw HTML with bluemonday; the fork must give
// the same text for any input (trimmed, as SanitizeHTML's callers ask).
func FuzzStripTagsMatchesBluemonday(f *testing.F) {
	for _, s := range []string{"<b>bold</b> &amp; <i>it</i>", "&amp;lt;", "<script>a</script>b", "x<y", "<p>a</p>", "<object><param>x</object>y", "<frame>x</frame>y", "<nostyle>x</nostyle>y"} {
		f.Add(s)
	}
	strict := bluemonday.StrictPolicy()
	f.Fuzz(func(t *testing.T, s string) {
		want := html.UnescapeString(strings.TrimSpace(strict.Sanitize(s)))
		if got := strings.TrimSpace(stripTags(s)); got != want {
			t.Fatalf("stripTags(%q) = %q, bluemonday gave %q", s, got, want)
		}
	})
}
