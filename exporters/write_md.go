package exporters

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// WriteMarkdown writes a checklist a person can read or paste into an
// email: one heading per section, a box per request (ticked when
// complete), its details on the same line (an overdue one marked) and
// its body as a paragraph of its own below, after a blank line: without
// it CommonMark reads the body as a lazy continuation of the details.
func WriteMarkdown(w io.Writer, e *Export) error {
	e = e.forWriting()
	bw := bufio.NewWriter(w)
	emails := e.emails()
	var counts domain.StatusCounts
	for _, r := range e.Rows {
		if r.Kind == api.KindRequest {
			counts.Add(r.Status)
		}
	}
	if e.holdsInternal() {
		// First, before anything a reader could forward.
		fmt.Fprintf(bw, "> **%s**\n\n", e.internalBanner())
	}
	fmt.Fprintf(bw, "# %s — %s\n\n", mdPlain(e.Deal.Codename), mdPlain(e.Deal.Name))
	fmt.Fprintf(bw, "%d requests: %d open, %d partial, %d complete", counts.Total, counts.Open, counts.Partial, counts.Complete)
	if !e.Now.IsZero() {
		fmt.Fprintf(bw, " (exported %s)", e.Now.UTC().Format("2006-01-02 15:04 UTC"))
	}
	bw.WriteString(".\n")

	today := e.today()
	depth := map[string]int{} // section id -> heading depth
	for _, r := range e.Rows {
		if r.Kind == api.KindSection {
			d := 0
			if r.ParentID != nil {
				d = depth[*r.ParentID] + 1
			}
			depth[r.ID] = d
			fmt.Fprintf(bw, "\n%s %s %s\n\n", strings.Repeat("#", min(2+d, 6)), mdPlain(r.Number), mdPlain(r.Title))
			continue
		}
		box := " "
		if r.Status == api.StatusComplete {
			box = "x"
		}
		// A reader reads words: human_resources as "human resources".
		category := strings.ReplaceAll(string(r.Category), "_", " ")
		details := []string{mdPlain(string(r.Status)), mdPlain(string(r.Priority)), mdPlain(category)}
		if r.DueDate != nil {
			due := "due " + mdPlain(*r.DueDate)
			if today != "" && domain.Overdue(&r, today) {
				due = "**overdue**, " + due
			}
			details = append(details, due)
		}
		if r.AssigneeID != nil {
			details = append(details, mdPlain(emails[*r.AssigneeID]))
		}
		if r.Requester != nil {
			details = append(details, "for "+mdPlain(*r.Requester))
		}
		fmt.Fprintf(bw, "- [%s] **%s** %s — %s\n", box, mdPlain(r.Number), mdPlain(r.Title), strings.Join(details, " · "))
		if body := strings.TrimSpace(r.Body); body != "" {
			bw.WriteString("\n" + indent(mdText(body), "  ") + "\n")
		}
		for _, m := range e.Messages[r.ID] {
			writeMessageMD(bw, m)
		}
	}
	return bw.Flush()
}

func writeMessageMD(w *bufio.Writer, m api.Message) {
	who := "someone"
	if m.Author != nil {
		who = m.Author.Email
	}
	when := ""
	if m.PostedAt != nil {
		when = m.PostedAt.UTC().Format(time.DateOnly) + " "
	}
	kind := string(m.Kind)
	if m.Partial {
		kind += ", partial"
	}
	if m.Internal {
		kind += ", internal"
	}
	fmt.Fprintf(w, "  - *%s%s (%s)*\n", when, mdPlain(who), mdPlain(kind))
	if t := strings.TrimSpace(m.Text); t != "" {
		w.WriteString(indent(mdText(t), "    > "))
	}
	for _, f := range m.Files {
		switch {
		case f.URL != nil:
			fmt.Fprintf(w, "    - %s\n", mdLink(f))
		case f.Name != nil:
			fmt.Fprintf(w, "    - %s\n", mdPlain(*f.Name))
		}
	}
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		b.WriteString(strings.TrimRight(prefix+l, " "))
		b.WriteByte('\n')
	}
	return b.String()
}
