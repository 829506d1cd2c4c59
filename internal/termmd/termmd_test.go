package termmd

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/dealctl/dealctl/internal/termsafe/termsafetest"
)

func nestedList(depth int) string {
	var b strings.Builder
	for i := 0; i < depth; i++ {
		b.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	return b.String()
}

// TestHostileMessagesRenderWithinBounds: each render bomb comes back
// within the budget (plus scheduling slack), at a bounded size, with its
// text still readable.
func TestHostileMessagesRenderWithinBounds(t *testing.T) {
	for _, bomb := range termsafetest.RenderBombs {
		text := bomb.Text
		t.Run(bomb.Name, func(t *testing.T) {
			r, err := New(80, true)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			out := r.Render(context.Background(), text)
			if took := time.Since(start); took > Budget+2*time.Second {
				t.Errorf("took %v: the budget is %v", took, Budget)
			}
			if len(out) > maxOutputBytes(len(text)) {
				t.Errorf("%d bytes of output for %d of text", len(out), len(text))
			}
			if !strings.Contains(ansi.Strip(out), "x") && !strings.Contains(ansi.Strip(out), "a") {
				t.Errorf("the text is lost: %.200q", out)
			}
		})
	}
}

// TestDeepQuotesFlattened: quotes deeper than MaxQuoteDepth are shown
// MaxQuoteDepth deep, as Markdown, rather than nested to the width.
func TestDeepQuotesFlattened(t *testing.T) {
	r, err := New(80, false)
	if err != nil {
		t.Fatal(err)
	}
	out := r.Render(context.Background(), strings.Repeat("> ", 40)+"deep")
	lines := strings.Split(out, "\n")
	last := lines[len(lines)-1]
	if len(lines) > MaxQuoteDepth+1 || !strings.HasSuffix(last, "deep") || strings.Count(last, "|") != MaxQuoteDepth {
		t.Errorf("got %q, want the text quoted %d deep", out, MaxQuoteDepth)
	}
	if got := flattenQuoteLine("  > > > > > > > > x", 2); got != "  > > x" {
		t.Errorf("flattenQuoteLine = %q", got)
	}
	if got := flattenQuoteLine("> a > b", 6); got != "> a > b" {
		t.Errorf("a '>' inside the text was dropped: %q", got)
	}
}

// TestDeepNestingShownPlain: nesting beyond MaxNesting (lists in quotes
// in lists) is shown as the plain text, wrapped, not rendered.
func TestDeepNestingShownPlain(t *testing.T) {
	r, err := New(60, false)
	if err != nil {
		t.Fatal(err)
	}
	text := nestedList(MaxNesting + 2)
	out := r.Render(context.Background(), text)
	if out != r.Plain(text) {
		t.Errorf("got %q, want the plain text", out)
	}
	if shallow := r.Render(context.Background(), "- a\n  - b"); shallow == r.Plain("- a\n  - b") {
		t.Errorf("a two-level list was not rendered: %q", shallow)
	}
}

// TestCancelledRenderIsPlain: a render whose context is done (Ctrl-C, the
// TUI's conversation budget spent) returns the plain text at once.
func TestCancelledRenderIsPlain(t *testing.T) {
	r, err := New(80, false)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	text := "- a\n  - b"
	if out := r.Render(ctx, text); out != r.Plain(text) {
		t.Errorf("cancelled: %q, want the plain text", out)
	}
	if out := r.Render(context.Background(), text); out == r.Plain(text) || !strings.Contains(out, "• b") {
		t.Errorf("after a cancelled render: %q, want it rendered", out)
	}
}

// TestControlsStayVisible: the text is made terminal-safe, rendered or
// not, and a character reference does not bring ESC back.
func TestControlsStayVisible(t *testing.T) {
	r, err := New(80, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"a\x1b]52;c;aGk=\x07b", "&#27;[8mhidden", strings.Repeat(">", 300) + "\x1b[2J"} {
		out := ansi.Strip(r.Render(context.Background(), text))
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("%q rendered with a control: %q", text, out)
		}
	}
}

// FuzzRender: whatever the other side writes, a render ends within its
// budget, allocates a bounded amount and returns a bounded output.
func FuzzRender(f *testing.F) {
	for _, bomb := range termsafetest.RenderBombs {
		f.Add(bomb.Text)
	}
	f.Add("# title\n\n- a\n  - b\n\n> quoted\n\n```\ncode\n```")
	r, err := New(80, true)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		out := r.Render(context.Background(), text)
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		if took > Budget+2*time.Second {
			t.Errorf("took %v for %d bytes", took, len(text))
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 512<<20 {
			t.Errorf("allocated %d MiB for %d bytes", alloc>>20, len(text))
		}
		if len(out) > maxOutputBytes(len(text))+len(text)*8 {
			t.Errorf("%d bytes of output for %d of text", len(out), len(text))
		}
	})
}
