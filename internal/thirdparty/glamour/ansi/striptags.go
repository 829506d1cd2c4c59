package ansi

// This file is dealctl's, not upstream glamour's: see ../README.md.

import (
	"strings"

	"golang.org/x/net/html"
)

// stripTags is the text of an HTML fragment without its tags, entities
// decoded, and without the content of the elements whose text is not
// meant to be read (scripts, styles, frames…). It gives what upstream's
// bluemonday.StrictPolicy().Sanitize followed by html.UnescapeString gave
// (a fuzz test checks the two agree), with the HTML tokenizer alone:
// bluemonday compiles dozens of regular expressions at package init,
// about 3 ms of every dealctl start.
func stripTags(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	skipping := 0 // depth inside elements whose content is dropped
	for {
		switch z.Next() {
		case html.ErrorToken: // io.EOF: the tokenizer reads from a string
			return b.String()
		case html.TextToken:
			if skipping == 0 {
				b.Write(z.Text())
			}
		case html.StartTagToken:
			if name, _ := z.TagName(); dropsContent(string(name)) {
				skipping++
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); dropsContent(string(name)) && skipping > 0 {
				skipping--
			}
		}
	}
}

// dropsContent lists the elements whose content bluemonday drops with the
// element (its addDefaultSkipElementContent). TagName lower-cases names.
func dropsContent(name string) bool {
	switch name {
	case "frame", "frameset", "iframe", "noembed", "noframes", "noscript", "nostyle", "object", "script", "style", "title":
		return true
	}
	return false
}
