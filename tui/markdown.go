package tui

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/termmd"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// markdown renders conversations as `dealctl messages ls` does on a
// terminal, through termmd's budget. A renderer is costly to build, so
// one is kept per width; it is used from Update only, but the lock keeps
// it safe should a command ever render.
type markdown struct {
	mu    sync.Mutex
	color bool
	byW   map[int]*termmd.Renderer
}

func newMarkdown(color bool) *markdown {
	return &markdown{color: color, byW: map[int]*termmd.Renderer{}}
}

// conversationBudget is the time one conversation may take to render on
// the update loop: past it the rest of the thread is shown as plain
// text, so no message, however built, keeps the TUI from its keys.
const conversationBudget = 400 * time.Millisecond

// render is text, which came from the server, as Markdown for a terminal
// w wide; plain once ctx is done.
func (md *markdown) render(ctx context.Context, text string, w int) string {
	md.mu.Lock()
	defer md.mu.Unlock()
	r, ok := md.byW[w]
	if !ok {
		var err error
		if r, err = termmd.New(w, md.color); err != nil {
			return ansi.Wrap(termsafe.Text(text), w, "")
		}
		md.byW[w] = r
	}
	return r.Render(ctx, text)
}

// internalBar runs down the left of an internal note, so that a private
// note never reads as something the other side can see, with or without
// colour.
const internalBar = "┃ "

// conversation renders messages oldest first: a header line per message
// (author, time, kind and flags), its text, its files. Internal notes are
// marked: a tag in the header and a bar down every line.
func (md *markdown) conversation(msgs []api.Message, w int, st styles) string {
	text, _ := md.conversationLines(msgs, w, st)
	return text
}

// conversationLines is conversation, with the line each message starts
// on (a search hit scrolls to its message).
func (md *markdown) conversationLines(msgs []api.Message, w int, st styles) (string, []int) {
	ctx, cancel := context.WithTimeout(context.Background(), conversationBudget)
	defer cancel()
	var b strings.Builder
	starts := make([]int, len(msgs))
	lines := 0
	for i, m := range msgs {
		if i > 0 {
			b.WriteString("\n")
			lines++
		}
		starts[i] = lines
		internal := m.Internal || m.Kind == api.MessageInternalNote
		tw := w
		if internal {
			tw = max(10, w-ansi.StringWidth(internalBar))
		}
		var msg strings.Builder
		head := st.bold.Render(termsafe.Line(author(m.Author))) + " " + st.dim.Render(posted(m.PostedAt)+" ("+termsafe.Line(strings.Join(display.MessageTags(m), ", "))+")")
		if internal {
			head = st.internalTag.Render(" INTERNAL NOTE ") + " " + head
		}
		msg.WriteString(ansi.Wrap(head, tw, "") + "\n")
		text := strings.TrimRight(m.Text, "\n")
		if text != "" {
			if m.Format == api.FormatMarkdown {
				text = md.render(ctx, text, tw)
			} else {
				text = ansi.Wrap(termsafe.Text(text), tw, "")
			}
			msg.WriteString(text + "\n")
		}
		for _, f := range m.Files {
			msg.WriteString(ansi.Wrap("  "+termsafe.Line(display.FileLine(f)), tw, "") + "\n")
		}
		out := strings.TrimRight(msg.String(), "\n")
		if internal {
			out = barred(out, st.internal.Render(internalBar))
		}
		b.WriteString(out + "\n")
		lines += strings.Count(out, "\n") + 1
	}
	return strings.TrimRight(b.String(), "\n"), starts
}

// barred puts bar before every line of s.
func barred(s, bar string) string {
	return bar + strings.ReplaceAll(s, "\n", "\n"+bar)
}

func author(a *api.Author) string {
	if a == nil {
		return "unknown"
	}
	if a.Name != nil && *a.Name != "" {
		return *a.Name
	}
	return a.Email
}

func posted(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}
