package tui

import (
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/thirdparty/glamour"
)

// markdown renders conversations with glamour, as `dealctl messages ls`
// does on a terminal. A renderer is costly to build, so one is kept per
// width; it is used from Update only, but the lock keeps it safe should a
// command ever render.
type markdown struct {
	mu    sync.Mutex
	color bool
	byW   map[int]*glamour.TermRenderer
}

func newMarkdown(color bool) *markdown {
	return &markdown{color: color, byW: map[int]*glamour.TermRenderer{}}
}

func (md *markdown) render(text string, w int) string {
	md.mu.Lock()
	defer md.mu.Unlock()
	r, ok := md.byW[w]
	if !ok {
		var err error
		r, err = output.NewMarkdownRenderer(w, md.color)
		if err != nil {
			return ansi.Wrap(text, w, "")
		}
		md.byW[w] = r
	}
	out, err := r.Render(text)
	if err != nil {
		return ansi.Wrap(text, w, "")
	}
	// The pane has its own spacing.
	return output.TrimRendered(out)
}

// conversation renders messages oldest first: a header line per message
// (author, time, kind and flags), its text, its files.
func (md *markdown) conversation(msgs []api.Message, w int, st styles) string {
	var b strings.Builder
	for i, m := range msgs {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(ansi.Wrap(st.bold.Render(author(m.Author))+" "+st.dim.Render(posted(m.PostedAt)+" ("+strings.Join(output.MessageTags(m), ", ")+")"), w, "") + "\n")
		text := strings.TrimRight(m.Text, "\n")
		if text != "" {
			if m.Format == api.FormatMarkdown {
				text = md.render(text, w)
			} else {
				text = ansi.Wrap(text, w, "")
			}
			b.WriteString(text + "\n")
		}
		for _, f := range m.Files {
			b.WriteString(ansi.Wrap("  "+output.FileLine(f), w, "") + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
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
