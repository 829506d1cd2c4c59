package mailin

import (
	"io"
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// blockElements start and end a line of text.
var blockElements = map[string]bool{
	"p": true, "div": true, "br": true, "li": true, "tr": true, "h1": true, "h2": true, "h3": true,
	"h4": true, "h5": true, "h6": true, "pre": true, "table": true, "ul": true, "ol": true, "hr": true,
}

// skippedElements hold no text a reader sees.
var skippedElements = map[string]bool{"head": true, "script": true, "style": true, "title": true, "template": true}

// HTMLText is an HTML-only mail's text: the words a reader sees, a line
// per block, a link's target after its words when they differ; the
// history mail clients quote (blockquote, Gmail's gmail_quote, Outlook's
// divRplyFwdMsg and what follows it) is left out. No markup survives:
// the result is plain text, posted with format text.
func HTMLText(r io.Reader) string {
	z := html.NewTokenizer(r)
	var b strings.Builder
	skip := 0 // depth inside elements left out
	var stack []string
	type link struct {
		target string
		start  int // where its words start in b
	}
	var links []link
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return strings.TrimSpace(collapseBlank(b.String()))
		case html.TextToken:
			if skip == 0 {
				b.WriteString(collapseSpace(string(z.Text())))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			tag := string(name)
			attrs := map[string]string{}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				attrs[string(k)] = string(v)
			}
			if tt == html.StartTagToken && !voidElement(tag) {
				quoted := tag == "blockquote" || strings.Contains(attrs["class"], "gmail_quote") || attrs["id"] == "divRplyFwdMsg" || attrs["id"] == "appendonsend"
				if skip > 0 || skippedElements[tag] || quoted {
					skip++
				}
				stack = append(stack, tag)
				if tag == "a" {
					links = append(links, link{attrs["href"], b.Len()})
				}
			}
			if skip == 0 && blockElements[tag] {
				b.WriteString("\n")
			}
			// Outlook puts the quoted message after an empty marker: the
			// rest of the body is history.
			if attrs["id"] == "appendonsend" || attrs["id"] == "divRplyFwdMsg" {
				if tt == html.SelfClosingTagToken || voidElement(tag) {
					return strings.TrimSpace(collapseBlank(b.String()))
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			for len(stack) > 0 {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if skip > 0 {
					skip--
				}
				if top == "a" && len(links) > 0 {
					l := links[len(links)-1]
					links = links[:len(links)-1]
					words := strings.TrimSpace(b.String()[l.start:])
					if skip == 0 && (strings.HasPrefix(l.target, "https://") || strings.HasPrefix(l.target, "http://")) && words != l.target {
						b.WriteString(" <" + l.target + ">")
					}
				}
				if top == tag {
					break
				}
			}
			if skip == 0 && blockElements[tag] {
				b.WriteString("\n")
			}
		}
	}
}

// collapseSpace makes each run of white space in a text node one space,
// as a browser shows it (spaces at its ends included: they part words
// from the elements around).
func collapseSpace(text string) string {
	var b strings.Builder
	space := false
	for _, r := range text {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

func voidElement(tag string) bool {
	switch tag {
	case "br", "hr", "img", "meta", "link", "input", "area", "base", "col", "embed", "source", "track", "wbr":
		return true
	}
	return false
}

// collapseBlank trims each line and keeps at most one blank line in a row.
func collapseBlank(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	blank := 0
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			blank++
			if blank > 1 {
				continue
			}
		} else {
			blank = 0
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
