package exporters

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"

	"github.com/dealctl/dealctl/internal/api"
)

// hostileExport puts HTML and Markdown that a renderer would make live in
// every field the Markdown export writes, as the other side (or a hostile
// server) can.
func hostileExport() *Export {
	at := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	img := `<img src=x onerror=alert(1)>`
	js := `[click](javascript:alert(1))`
	sec := "sec-1"
	return &Export{
		Deal:   api.Deal{ID: "d", Name: "Falcon " + img, Codename: "F" + js},
		Now:    at,
		People: []api.Person{{ID: "p-1", Email: `x<script>alert(1)</script>@evil.example`}},
		Rows: []api.DealRequest{
			{ID: sec, Kind: api.KindSection, Number: "1" + img, Title: "Corporate " + js, UpdatedAt: at},
			{ID: "r-1", ParentID: &sec, Kind: api.KindRequest, Number: "1.1*" + js + "*", Title: "Accounts " + img + " **bold** `code`",
				Status: api.RequestStatus(img), Priority: api.Priority(js), Category: api.RequestCategory("&lt;img src=x onerror=alert(2)&gt;"),
				Requester: ptr2("Lex " + img), DueDate: ptr2(js), AssigneeID: ptr2("p-1"), UpdatedAt: at,
				Body: "Please send:\n\n<div onmouseover=alert(1)>hover</div>\n\n" + js},
		},
		Messages: map[string][]api.Message{"r-1": {
			{ID: "m-1", Kind: api.MessageResponse, Text: "See [the file][r] and <javascript:alert(3)> and [x](JaVa&#9;ScRiPt:alert(4)) ![pixel](https://tracker.example/p.png)",
				PostedAt: &at, Author: &api.Author{Email: img}, Source: api.SourceWeb,
				Files: []api.File{
					{Kind: api.FileKindLink, URL: ptr2("javascript:alert(5)"), Name: ptr2(js)},
					{Kind: api.FileKindLink, URL: ptr2("https://example.com/ok?a=1&b=2"), Name: ptr2(img)},
					{Kind: api.FileKindFile, Name: ptr2(img + ".pdf")},
				}},
			{ID: "m-2", Kind: api.MessageQuestion, Text: "[r]: javascript:alert(6)", PostedAt: &at, Source: api.SourceWeb},
			{ID: "m-3", Kind: api.MessageResponse, Text: "Plain **Markdown** stays, with [a link](https://example.com/doc).", PostedAt: &at, Source: api.SourceWeb},
		}},
	}
}

// TestMarkdownExportHasNothingLive: a CommonMark renderer (goldmark, HTML
// allowed as permissive viewers do) finds in the Markdown export no HTML
// element, no image, and no link but to http or https; the plain-text
// fields render as the text they are, and ordinary Markdown in a message
// stays Markdown.
func TestMarkdownExportHasNothingLive(t *testing.T) {
	var out bytes.Buffer
	if err := WriteMarkdown(&out, hostileExport()); err != nil {
		t.Fatal(err)
	}
	src := out.Bytes()
	pc := parser.NewContext()
	doc := goldmark.DefaultParser().Parse(text.NewReader(src), parser.WithContext(pc))
	for _, ref := range pc.References() {
		t.Errorf("a link reference definition is live: %s → %s", ref.Label(), ref.Destination())
	}
	links := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest string
		switch n := n.(type) {
		case *ast.RawHTML, *ast.HTMLBlock, *ast.Image:
			t.Errorf("a live %s in the export:\n%s", n.Kind(), src)
			return ast.WalkContinue, nil
		case *ast.Link:
			dest = string(n.Destination)
		case *ast.AutoLink:
			dest = string(n.URL(src))
		default:
			return ast.WalkContinue, nil
		}
		links++
		if !strings.HasPrefix(dest, "https://") && !strings.HasPrefix(dest, "http://") {
			t.Errorf("a live link to %q", dest)
		}
		return ast.WalkContinue, nil
	})
	if links != 2 {
		t.Errorf("%d live links, want the 2 to https (a message's link and its file's)", links)
	}

	var rendered bytes.Buffer
	md := goldmark.New(goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := md.Convert(src, &rendered); err != nil {
		t.Fatal(err)
	}
	got := rendered.String()
	for _, bad := range []string{"<img", "<script", "<div", `href="javascript`, `href="java`} {
		if strings.Contains(strings.ToLower(got), bad) {
			t.Errorf("the rendered export holds %q:\n%s\n\nfrom:\n%s", bad, got, src)
		}
	}
	for _, want := range []string{
		"Accounts &lt;img src=x onerror=alert(1)&gt; **bold** `code`", // a title renders as its text
		"for Lex &lt;img src=x onerror=alert(1)&gt;",
		"&amp;lt;img src=x onerror=alert(2)&amp;gt;", // an entity stays the text it is
		"Plain <strong>Markdown</strong> stays",
		`<a href="https://example.com/doc">a link</a>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the rendered export lacks %q:\n%s", want, got)
		}
	}
}

// FuzzMarkdownPlainIsText: whatever a plain-text field holds, written
// with mdPlain into a list item it parses as text alone: no emphasis,
// code span, link, image or HTML.
func FuzzMarkdownPlainIsText(f *testing.F) {
	for _, s := range []string{"<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "**b** `c` _i_", "&lt;&#60;&#x3c;", "a\\", "<https://x.example>", "![i](https://x/p.png)", "~~s~~ | t |"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src := []byte("- **1.1** " + mdPlain(s) + "\n")
		doc := goldmark.DefaultParser().Parse(text.NewReader(src))
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			switch n.Kind() {
			case ast.KindDocument, ast.KindList, ast.KindListItem, ast.KindParagraph, ast.KindTextBlock, ast.KindText, ast.KindString:
			case ast.KindEmphasis:
				if n.Parent().Kind() != ast.KindParagraph && n.Parent().Kind() != ast.KindTextBlock || n.PreviousSibling() != nil {
					t.Errorf("%q: emphasis beyond the number's: %q", s, src)
				}
			default:
				t.Errorf("%q: a %s in %q", s, n.Kind(), src)
			}
			return ast.WalkContinue, nil
		})
	})
}

// TestXLSXLinksOnlyToTheWeb: a Links cell is a hyperlink only to an http
// or https URL; another URL a server sends stays text.
func TestXLSXLinksOnlyToTheWeb(t *testing.T) {
	e := sampleExport()
	e.Rows[1].Files = []api.File{{Kind: api.FileKindLink, URL: ptr2("javascript:alert(1)")}, {Kind: api.FileKindLink, URL: ptr2("file:///etc/passwd")}}
	f, _ := writeAndOpen(t, e)
	if ok, link, _ := f.GetCellHyperLink(RequestsSheet, sheetLetter(colLinks)+"3"); ok {
		t.Errorf("the Links cell links to %q", link)
	}
	if v, _ := f.GetCellValue(RequestsSheet, sheetLetter(colLinks)+"3"); !strings.Contains(v, "javascript:alert(1)") {
		t.Errorf("the Links cell = %q, want the URLs as text", v)
	}
	e.Rows[1].Files = []api.File{{Kind: api.FileKindLink, URL: ptr2("https://example.com/doc")}}
	f, _ = writeAndOpen(t, e)
	if ok, link, _ := f.GetCellHyperLink(RequestsSheet, sheetLetter(colLinks)+"3"); !ok || link != "https://example.com/doc" {
		t.Errorf("the Links cell links to %q (%v), want the https one", link, ok)
	}
}

// TestMarkdownDeepTextIsVerbatim: a message nested far beyond prose (a
// quote 300 levels deep, with a link in it) is written verbatim, without
// the parse whose time grows with the square of the depth.
func TestMarkdownDeepTextIsVerbatim(t *testing.T) {
	deep := strings.Repeat(">", 300) + " [x](javascript:alert(1))"
	if got := mdText(deep); !strings.HasPrefix(got, "```text\n") {
		t.Errorf("mdText(deep) = %.60q…, want a code block", got)
	}
	if plain := strings.Repeat(">", 300) + " no link"; mdText(plain) != plain {
		t.Error("deep text with nothing that could be live was changed")
	}
}

// FuzzMarkdownTextHasNothingLive: whatever a body or message holds, as
// the Markdown export quotes it, a CommonMark parser finds nothing live.
func FuzzMarkdownTextHasNothingLive(f *testing.F) {
	for _, s := range []string{"<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "[r]: javascript:x\n\n[a][r]",
		"a\r```\r<img src=x>", "a\r<img src=x>", "``` \n<b>", "![p](https://x/p.png)", "<javascript:x>", "**ok** [a](https://x.example)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src := []byte("- [ ] **1.1** T\n  - *who (response)*\n" + indent(mdText(strings.TrimSpace(s)), "    > ") + "  - *next*\n")
		pc := parser.NewContext()
		doc := goldmark.DefaultParser().Parse(text.NewReader(src), parser.WithContext(pc))
		for _, ref := range pc.References() {
			if !safeTarget(ref.Destination()) {
				t.Errorf("%q: a live reference to %q in %q", s, ref.Destination(), src)
			}
		}
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch n := n.(type) {
			case *ast.RawHTML, *ast.HTMLBlock, *ast.Image:
				t.Errorf("%q: a live %s in %q", s, n.Kind(), src)
			case *ast.Link:
				if !safeTarget(n.Destination) {
					t.Errorf("%q: a live link to %q in %q", s, n.Destination, src)
				}
			case *ast.AutoLink:
				if !safeTarget(n.URL(src)) {
					t.Errorf("%q: a live autolink to %q in %q", s, n.URL(src), src)
				}
			}
			return ast.WalkContinue, nil
		})
	})
}
