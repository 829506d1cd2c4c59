package ansi

import (
	"io"
)

// A CodeBlockElement is used to render code blocks.
//
// dealctl fork: code blocks are never syntax-highlighted. Upstream's chroma
// branch is removed, so every block takes upstream's fallback rendering (the
// code block's own style, no per-token colours) and Language, the style's
// Theme and Chroma settings and Options.ChromaFormatter are ignored. See
// ../README.md.
type CodeBlockElement struct {
	Code     string
	Language string
}

// Render renders a CodeBlockElement.
func (e *CodeBlockElement) Render(w io.Writer, ctx RenderContext) error {
	bs := ctx.blockStack

	var indentation uint
	var margin uint
	rules := ctx.options.Styles.CodeBlock
	if rules.Indent != nil {
		indentation = *rules.Indent
	}
	if rules.Margin != nil {
		margin = *rules.Margin
	}
	iw := NewIndentWriter(w, int(indentation+margin), func(_ io.Writer) {
		_, _ = renderText(w, bs.Current().Style.StylePrimitive, " ")
	})
	defer iw.Close() //nolint:errcheck

	// fallback rendering
	el := &BaseElement{
		Token: e.Code,
		Style: rules.StylePrimitive,
	}

	return el.Render(iw, ctx)
}
