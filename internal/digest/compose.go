package digest

import (
	"fmt"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// Bounds on what one digest shows, so that a person with hundreds of
// requests (or a week of traffic) gets a readable message of bounded size.
const (
	maxItems   = 50  // per list; the rest are counted
	maxTitle   = 120 // characters of a title
	maxPreview = 200 // characters of a message
)

// subjectFor is the digest's subject. It holds no text written by
// either side of the deal: the codename is the administrator's.
func subjectFor(d store.Deal, c content) string {
	var parts []string
	if n := len(c.overdue); n > 0 {
		parts = append(parts, fmt.Sprintf("%d overdue", n))
	}
	if n := len(c.dueSoon); n > 0 {
		parts = append(parts, fmt.Sprintf("%d due this week", n))
	}
	if n := len(c.fresh); n > 0 {
		parts = append(parts, fmt.Sprintf("%d new %s", n, plural(n, "message", "messages")))
	}
	return fmt.Sprintf("[%s] Daily digest: %s", termsafe.OneLine(d.Codename, maxTitle), strings.Join(parts, ", "))
}

// bodyFor is the digest's plain-text body. Titles, names and message
// text come from people on both sides of the deal: each is cut to one
// line with termsafe.OneLine (a control character, an escape sequence or a
// bidirectional override shows as visible text, never acts on whatever
// displays the mail or the webhook's payload) and bounded in length.
func (d *dealData) bodyFor(c content) string {
	var b strings.Builder
	date := d.slot.at.In(d.loc)
	fmt.Fprintf(&b, "Your daily digest for %s, %s (%s).\n", termsafe.OneLine(d.deal.Name, maxTitle), date.Format("Monday 2 January 2006"), d.loc)
	if len(c.overdue) > 0 {
		fmt.Fprintf(&b, "\nOverdue (%d):\n", len(c.overdue))
		d.writeDue(&b, c.overdue)
	}
	if len(c.dueSoon) > 0 {
		fmt.Fprintf(&b, "\nDue in the next %d days (%d):\n", domain.DueSoonDays, len(c.dueSoon))
		d.writeDue(&b, c.dueSoon)
	}
	if len(c.fresh) > 0 {
		fmt.Fprintf(&b, "\nNew answers and questions since %s (%d):\n", c.since.In(d.loc).Format("Mon 2 Jan 15:04"), len(c.fresh))
		for i, it := range c.fresh {
			if i == maxItems {
				fmt.Fprintf(&b, "  … and %d more\n", len(c.fresh)-maxItems)
				break
			}
			fmt.Fprintf(&b, "  %s  %s\n", termsafe.OneLine(it.req.Number, maxTitle), termsafe.OneLine(it.req.Title, maxTitle))
			fmt.Fprintf(&b, "      %s by %s, %s:\n", kindLabel(it.msg), d.author(it.msg), it.msg.PostedAt.In(d.loc).Format("Mon 2 Jan 15:04"))
			fmt.Fprintf(&b, "      > %s\n", termsafe.OneLine(it.msg.Text, maxPreview))
		}
	}
	fmt.Fprintf(&b, "\nYour requests on this deal: dealctl requests ls --deal %s --assignee me\n", d.deal.ID)
	b.WriteString("You get this digest because requests on this deal are assigned to you;\n" +
		"the server's administrator can turn it off for you (dealctl admin digest off).\n")
	return b.String()
}

func (d *dealData) writeDue(b *strings.Builder, items []dueItem) {
	for i, it := range items {
		if i == maxItems {
			fmt.Fprintf(b, "  … and %d more\n", len(items)-maxItems)
			return
		}
		due := *it.req.DueDate
		if t, err := time.Parse(time.DateOnly, due); err == nil {
			due = t.Format("Mon 2 Jan")
		}
		fmt.Fprintf(b, "  %s  %s\n      due %s (%s), %s\n", termsafe.OneLine(it.req.Number, maxTitle), termsafe.OneLine(it.req.Title, maxTitle),
			due, relativeDays(it.days), it.req.Status)
	}
}

// author names a message's author as the API shows them: by name, else
// email; a message without a known author (seeded, emailed in) by side.
func (d *dealData) author(m store.Message) string {
	if m.AuthorID != nil {
		if p, ok := d.people[*m.AuthorID]; ok {
			if p.Name != nil && strings.TrimSpace(*p.Name) != "" {
				return termsafe.OneLine(*p.Name, maxTitle)
			}
			if p.Email != "" {
				return termsafe.OneLine(p.Email, maxTitle)
			}
		}
	}
	return "someone on the deal"
}

func kindLabel(m store.Message) string {
	label := "question"
	if m.Kind == api.MessageResponse {
		label = "answer"
		if m.Partial {
			label = "partial answer"
		}
	}
	if m.Internal {
		label = "internal " + label
	}
	return label
}

func relativeDays(days int) string {
	switch {
	case days == 0:
		return "today"
	case days == 1:
		return "tomorrow"
	case days == -1:
		return "yesterday"
	case days < 0:
		return fmt.Sprintf("%d days ago", -days)
	}
	return fmt.Sprintf("in %d days", days)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
