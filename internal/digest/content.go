package digest

import (
	"sort"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

// maxWindow bounds how far back "new since the last digest" reaches
// after a long gap (a server down for days, a deal unarchived).
const maxWindow = 7 * 24 * time.Hour

// dueItem is a request in the overdue or due-soon list.
type dueItem struct {
	req  store.Request
	days int // from the digest's date to the due date; negative when overdue
}

// newItem is a message in the "new since" list.
type newItem struct {
	req store.Request
	msg store.Message
}

// content is what one person's digest says.
type content struct {
	overdue []dueItem
	dueSoon []dueItem
	fresh   []newItem
	since   time.Time // where "new" starts
}

func (c content) empty() bool {
	return len(c.overdue) == 0 && len(c.dueSoon) == 0 && len(c.fresh) == 0
}

// dealData is what the digests of one deal are built from, read once.
type dealData struct {
	deal     store.Deal
	loc      *time.Location
	slot     slot
	requests []store.Request
	byID     map[string]store.Request
	people   map[string]store.Person
	messages []store.Message // posted in the widest window any recipient needs
}

// windowStart is where a recipient's "new since" starts: their last
// slot, or a day before this one for a first digest, and never more than
// maxWindow back.
func windowStart(r store.DigestRecipient, at time.Time) time.Time {
	start := at.Add(-24 * time.Hour)
	if r.LastWindowEnd != nil {
		start = *r.LastWindowEnd
	}
	return maxTime(start, at.Add(-maxWindow))
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// contentFor builds who's digest: requests assigned to them that are not
// complete and are overdue or due this week (domain.DueThisWeek), and the answers and
// questions posted on those assigned to them after since that they may
// see (never the other side's internal notes, never their own posts).
func (d *dealData) contentFor(who store.Person, since time.Time) content {
	c := content{since: since}
	mine := map[string]bool{}
	for _, r := range d.requests {
		if r.Kind != api.KindRequest || r.AssigneeID == nil || *r.AssigneeID != who.ID {
			continue
		}
		mine[r.ID] = true
		if r.Status == api.StatusComplete || r.DueDate == nil {
			continue
		}
		days, ok := domain.DaysBetween(d.slot.day, *r.DueDate)
		row := &api.DealRequest{Kind: r.Kind, Status: r.Status, DueDate: r.DueDate}
		switch {
		case !ok:
		case domain.Overdue(row, d.slot.day):
			// The rules `requests ls --overdue`, `progress` and the TUI apply.
			c.overdue = append(c.overdue, dueItem{req: r, days: days})
		case domain.DueThisWeek(row, d.slot.day):
			c.dueSoon = append(c.dueSoon, dueItem{req: r, days: days})
		}
	}
	// Most overdue first; soonest due first; by number within a date.
	byDue := func(items []dueItem) func(i, j int) bool {
		return func(i, j int) bool {
			if items[i].days != items[j].days {
				return items[i].days < items[j].days
			}
			return domain.CompareNumbers(items[i].req.Number, items[j].req.Number) < 0
		}
	}
	sort.Slice(c.overdue, byDue(c.overdue))
	sort.Slice(c.dueSoon, byDue(c.dueSoon))
	for _, m := range d.messages {
		if !mine[m.RequestID] || !m.PostedAt.After(since) {
			continue
		}
		if m.Kind != api.MessageResponse && m.Kind != api.MessageQuestion {
			continue
		}
		if m.AuthorID != nil && *m.AuthorID == who.ID {
			continue
		}
		if !domain.MessageVisibleTo(m.PartyID, m.Internal, who.PartyID) {
			continue
		}
		c.fresh = append(c.fresh, newItem{req: d.byID[m.RequestID], msg: m})
	}
	return c
}
