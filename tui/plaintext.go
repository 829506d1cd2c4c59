package tui

import (
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/dealctl/dealctl/internal/termsafe"
)

// plainText is Markdown src as the words a reader sees, on one line: no
// "**", "#" or link targets, for the one-line `Latest:` preview. It is
// made safe for the terminal.
func plainText(src string) string {
	if !strings.ContainsAny(src, "*_`#[]<>!~|&\\-+=") {
		return termsafe.Line(src)
	}
	source := []byte(src)
	doc := goldmark.DefaultParser().Parse(text.NewReader(source))
	var b strings.Builder
	space := func() {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), " ") {
			b.WriteByte(' ')
		}
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if n.Type() == ast.TypeBlock && entering {
			space()
		}
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.Write(n.Segment.Value(source))
			if n.SoftLineBreak() || n.HardLineBreak() {
				space()
			}
		case *ast.String:
			b.Write(n.Value)
		case *ast.AutoLink:
			b.Write(n.Label(source))
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML, *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				b.Write(seg.Value(source))
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return termsafe.Line(strings.Join(strings.Fields(b.String()), " "))
}
