// Package termmd renders Markdown that other people wrote for a terminal,
// within a budget. A message is written by the other side of a deal (or
// sent by a hostile server): 300 nested quotes in 301 bytes once froze
// `dealctl messages ls` and the TUI for minutes, using gigabytes, deaf to
// Ctrl-C. Here every render is bounded before it starts (the text's size
// and nesting) and while it runs (a time budget, the caller's context, an
// output budget); past any bound the message is shown as plain text,
// wrapped, which is always cheap and always safe.
//
// The CLI (`messages ls`) and the TUI's thread both render through here.
package termmd

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"

	"github.com/dealctl/dealctl/internal/termsafe"
	"github.com/dealctl/dealctl/internal/thirdparty/glamour"
)

// The bounds. Messages of deal teams stay far inside them: e-mail reply
// chains quote five or six deep, lists nest two or three.
const (
	// MaxQuoteDepth is the deepest a quote is shown nested; deeper
	// quote markers on a line are dropped (the text stays).
	MaxQuoteDepth = 6
	// MaxNesting is the deepest nesting of quotes and lists rendered as
	// Markdown at all; deeper text is shown plain.
	MaxNesting = 8
	// MaxTableColumns is the widest table rendered as a table.
	MaxTableColumns = 12
	// MaxSourceBytes is the longest text rendered as Markdown.
	MaxSourceBytes = 64 << 10
	// Budget is the time one message may take to render.
	Budget = 250 * time.Millisecond
	// MinWidth is the narrowest wrap width: a terminal narrower than this
	// still gets text wrapped at it rather than a column of characters.
	MinWidth = 20
)

// maxOutputBytes bounds what one message may render to: styling makes
// text longer (colour sequences, padding to the width), but not without
// limit.
func maxOutputBytes(src int) int { return 64<<10 + 32*src }

// Renderer renders messages at one width, coloured or not. It is costly
// to build (glamour's styles): keep one for a conversation. It is not
// safe for concurrent use.
type Renderer struct {
	width int
	color bool
	tr    *glamour.TermRenderer // nil after a render ran over its budget
}

// New returns a renderer wrapping at width (at least MinWidth).
func New(width int, color bool) (*Renderer, error) {
	r := &Renderer{width: max(width, MinWidth), color: color}
	return r, r.build()
}

func (r *Renderer) build() error {
	style := "notty"
	if r.color {
		style = "dark"
	}
	tr, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(r.width))
	r.tr = tr
	return err
}

// Render returns text, which came from the server, rendered for the
// terminal and trimmed of glamour's framing (TrimRendered), or, when it
// is over a bound or ctx ends first, the text plain and wrapped. The text
// is made terminal-safe either way.
func (r *Renderer) Render(ctx context.Context, text string) string {
	safe := termsafe.Markdown(text)
	if len(safe) > MaxSourceBytes || ctx.Err() != nil {
		return r.Plain(safe)
	}
	if r.tr == nil {
		if err := r.build(); err != nil {
			return r.Plain(safe)
		}
	}
	src := []byte(flattenQuotes(safe, MaxQuoteDepth))
	out, err := r.renderWithin(ctx, src)
	if err != nil || len(out) > maxOutputBytes(len(src)) {
		return r.Plain(safe)
	}
	// glamour decodes character references (&#27;) into the very
	// characters termsafe took out: check its output again, keeping
	// only its colours.
	return termsafe.Styled(TrimRendered(string(out)), r.color)
}

var (
	errTooComplex = errors.New("nested too deep, or a table too wide")
	errOverBudget = errors.New("over termmd.Budget")
)

// renderWithin parses and renders src unless Budget or ctx runs out
// first. A render that runs over is left to finish on its own (the bounds
// above keep it finite) with the renderer it holds; this one builds a new
// one next.
func (r *Renderer) renderWithin(ctx context.Context, src []byte) ([]byte, error) {
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	tr := r.tr
	go func() {
		doc := tr.Parse(src)
		if tooComplex(doc) {
			done <- result{nil, errTooComplex}
			return
		}
		out, err := tr.RenderNode(src, doc)
		done <- result{out, err}
	}()
	timer := time.NewTimer(Budget)
	defer timer.Stop()
	select {
	case res := <-done:
		return res.out, res.err
	case <-timer.C:
	case <-ctx.Done():
	}
	r.tr = nil
	return nil, errOverBudget
}

// Plain is safe text wrapped at the renderer's width: what a message
// looks like when it is not rendered.
func (r *Renderer) Plain(safe string) string {
	return ansi.Wrap(safe, r.width, "")
}

// flattenQuotes drops the quote markers of a line beyond the first
// depth: "> > > > > > > > x" is shown as a quote depth deep.
func flattenQuotes(text string, depth int) string {
	if !strings.Contains(text, ">") {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		lines[i] = flattenQuoteLine(line, depth)
	}
	return strings.Join(lines, "\n")
}

func flattenQuoteLine(line string, depth int) string {
	// CommonMark: up to three spaces, then '>' and one optional space,
	// repeated.
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	markers, keepEnd := 0, 0
	for i < len(line) && line[i] == '>' {
		i++
		if i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		markers++
		if markers == depth {
			keepEnd = i
		}
		for i < len(line) && line[i] == ' ' {
			i++
		}
	}
	if markers <= depth {
		return line
	}
	return line[:keepEnd] + line[i:]
}

// tooComplex reports whether doc is not worth rendering for a terminal:
// quotes and lists nested deeper than MaxNesting, or a table of more
// columns than MaxTableColumns (squeezed to the width, its cells would
// show nothing). Such text is shown plain.
func tooComplex(doc ast.Node) bool {
	var walk func(n ast.Node, depth int) bool
	walk = func(n ast.Node, depth int) bool {
		switch n.Kind() {
		case ast.KindBlockquote, ast.KindList:
			depth++
		case extast.KindTableHeader, extast.KindTableRow:
			if n.ChildCount() > MaxTableColumns {
				return true
			}
		}
		if depth > MaxNesting {
			return true
		}
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if walk(c, depth) {
				return true
			}
		}
		return false
	}
	return walk(doc, 0)
}

// TrimRendered drops what glamour adds around rendered text: the blank
// lines framing it and the spaces padding every line to the wrap width.
// The caller spaces messages itself.
func TrimRendered(out string) string {
	lines := strings.Split(strings.Trim(out, "\n"), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.Join(lines, "\n")
}
