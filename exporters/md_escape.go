package exporters

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/sheets"
)

// Plain-text fields (titles, numbers, names, emails, labels, file names)
// come from people on either side of a deal, and a Markdown file is read
// through a renderer: each is written so that any CommonMark renderer
// shows the text it is, never an HTML element (<img onerror=…>), a link
// ([x](javascript:…)), emphasis or a code span.

// mdSpecial are the characters that can start Markdown or HTML inside a
// line; CommonMark lets a backslash escape any ASCII punctuation. The
// others (. - + ( ) :) only act at the start of a line, where no plain
// field is written, or after one of these.
const mdSpecial = "\\`*_[]<>#!|~"

// mdEntity is the start of an HTML entity or character reference, which a
// renderer would decode (&lt; shows as <).
var mdEntity = regexp.MustCompile(`^&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});`)

// mdPlain writes a plain-text field on one line, with every character
// that could start Markdown or HTML escaped.
func mdPlain(s string) string {
	s = sheets.OneLine(s)
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if strings.IndexByte(mdSpecial, c) >= 0 || c == '&' && mdEntity.MatchString(s[i:]) {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// mdLink writes a link given with a message: its label as plain text and
// its URL as an autolink when it is http or https, and as plain text
// otherwise (a javascript: or data: URL must never be one click away).
func mdLink(f api.File) string {
	target := *f.URL
	label := ""
	if f.Name != nil && *f.Name != target {
		label = mdPlain(*f.Name) + " "
	}
	if !webURL(target) {
		return label + mdPlain(target)
	}
	return label + "<" + target + ">"
}

// webURL reports whether u is an http or https URL that an autolink
// (<…>) holds as it is: no space, control character or angle bracket.
func webURL(u string) bool {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return false
	}
	return !strings.ContainsFunc(u, func(r rune) bool { return r <= ' ' || r == '<' || r == '>' || r == 0x7f })
}

// mdText writes Markdown text (a request's body, a message) as the
// Markdown it is, unless a renderer would make something live of it: raw
// HTML, an image (it loads on sight), or a link whose target is neither
// http, https, mailto nor relative, also by a reference definition that
// text elsewhere in the file could use. Such text is written verbatim in a
// fenced code block instead, where nothing is live.
func mdText(s string) string {
	// CommonMark ends a line at a lone CR too (goldmark does not, other
	// renderers do): one would start a line that the writer's quote or
	// indentation does not prefix, outside the code block.
	s = sheets.Text(s)
	// Nothing is live without a < (HTML, an autolink) or a [ (a link, an
	// image, a reference definition): most text is not parsed at all. A
	// deeply nested one goes verbatim unparsed, since the parse's time
	// grows with the square of the nesting.
	if !strings.ContainsAny(s, "<[") || !mdDeep(s) && !mdLive(s) {
		return s
	}
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + "text\n" + s + "\n" + fence
}

// mdMaxPrefix bounds the run of block markers and indentation a line of
// parsed text may start with: about a dozen levels of quotes or lists,
// beyond any prose.
const mdMaxPrefix = 32

// mdDeep reports whether a line of s starts with more than mdMaxPrefix
// characters of quote and list markers and indentation.
func mdDeep(s string) bool {
	for line := range strings.Lines(s) {
		if len(line)-len(strings.TrimLeft(line, " \t>-*+.)0123456789")) > mdMaxPrefix {
			return true
		}
	}
	return false
}

// mdLive reports whether CommonMark makes anything live of s.
func mdLive(s string) bool {
	pc := parser.NewContext()
	doc := goldmark.DefaultParser().Parse(text.NewReader([]byte(s)), parser.WithContext(pc))
	for _, ref := range pc.References() {
		if !safeTarget(ref.Destination()) {
			return true
		}
	}
	live := false
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.RawHTML, *ast.HTMLBlock, *ast.Image:
			live = true
		case *ast.Link:
			live = !safeTarget(n.Destination)
		case *ast.AutoLink:
			live = !safeTarget(n.URL([]byte(s)))
		}
		if live {
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return live
}

// linkScheme is a URL's scheme, as browsers read it.
var linkScheme = regexp.MustCompile(`^[a-z][a-z0-9+.-]*:`)

// safeTarget reports whether a link target (entities and escapes already
// decoded) is http, https, mailto or relative. Browsers drop white space
// and controls inside a scheme ("java\tscript:"), so they are dropped
// before looking.
func safeTarget(dest []byte) bool {
	d := strings.ToLower(strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return -1
		}
		return r
	}, string(dest)))
	scheme := linkScheme.FindString(d)
	return scheme == "" || scheme == "http:" || scheme == "https:" || scheme == "mailto:"
}
