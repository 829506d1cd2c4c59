package service

import (
	"fmt"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// notificationsFor writes one outbox row per joined person of the other
// side(s) of the deal. who is the address the message is told to be from.
func notificationsFor(a Actor, who *string, req store.Request, m store.Message, now time.Time) []store.Notification {
	var out []store.Notification
	for _, p := range a.People {
		if p.PartyID == a.Seat.PartyID || !p.Joined || p.Email == "" {
			continue
		}
		out = append(out, store.Notification{
			PersonID: p.ID, Email: p.Email,
			Subject:       notificationSubject(a.Deal, req, m),
			Body:          notificationBody(a.Deal, req, m, who),
			NextAttemptAt: now, CreatedAt: now,
		})
	}
	return out
}

// claimed makes rows, queued for m, whole (their ids, deal and message:
// they are handed over as written) and marks them claimed until until,
// their first attempt, as a worker's claim marks them
// (store.Outbox.ClaimNotifications).
func claimed(rows []store.Notification, m store.Message, until time.Time) {
	for i := range rows {
		n := &rows[i]
		n.ID, n.DealID, n.MessageID = store.NewID(), m.DealID, m.ID
		n.Attempts, n.NextAttemptAt = 1, until
	}
}

// notifiedTitleLen bounds a title in a notification, as the digest does.
const notifiedTitleLen = 120

// notificationSubject and notificationBody are what the other side's
// mail or webhook says. Titles, numbers, names and text come from people
// on the deal: each one-line field is cleaned as the digest cleans its
// lines (termsafe.OneLine: no CR or LF, controls and bidi overrides shown
// visibly) and the message's text as the terminal view shows it, before
// the outbox stores them, so every notifier gets clean text.
func notificationSubject(deal store.Deal, req store.Request, m store.Message) string {
	return fmt.Sprintf("[%s] %s %s: new %s", termsafe.OneLine(deal.Codename, notifiedTitleLen), termsafe.OneLine(req.Number, 0),
		termsafe.OneLine(req.Title, notifiedTitleLen), m.Kind)
}

func notificationBody(deal store.Deal, req store.Request, m store.Message, who *string) string {
	author := "someone"
	if who != nil {
		author = termsafe.OneLine(*who, 0)
	}
	return fmt.Sprintf("%s posted a %s (%s) on %s %s in %s:\n\n%s\n", author, m.Kind, sourceWords(m), termsafe.OneLine(req.Number, 0),
		termsafe.OneLine(req.Title, notifiedTitleLen), termsafe.OneLine(deal.Name, notifiedTitleLen), termsafe.Text(domain.Preview(m.Text)))
}

// sourceWords says how a message came in, as a notification tells it.
func sourceWords(m store.Message) string {
	switch m.Source {
	case api.SourceEmail:
		if m.OnBehalf {
			return "by e-mail, confirmed by a colleague"
		}
		return "by e-mail"
	case api.SourceImport:
		return "imported from a spreadsheet"
	case api.SourceWeb:
		return "on the web"
	}
	return "via API"
}
