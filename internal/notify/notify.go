// Package notify delivers the outbox rows that posting a message writes
// (store.Notification): a Sender hands one row to the outside world (a log
// line, an e-mail, a signed webhook) and a Worker drains the outbox through
// it, retrying failures with backoff. Rows are claimed with a lease, so
// several server instances on one database can run Workers side by side.
package notify

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// Sender delivers one notification. A nil error means delivered; an error
// wrapped with Permanent means retrying cannot help.
type Sender interface {
	Send(ctx context.Context, n store.Notification) error
}

// accepted names every form ParseURL takes, for its error messages.
const accepted = `"log" (the default), smtp://[user:pass@]host[:port]?from=ADDR[&starttls=true], smtps://… or an http(s):// webhook URL`

// ParseURL builds the Sender a --notify-url names: "" or "log" logs,
// smtp:// and smtps:// send mail, http:// and https:// post a webhook
// signed with webhookSecret (which a webhook requires).
func ParseURL(raw, webhookSecret string) (Sender, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" || strings.EqualFold(raw, "log") {
		return &LogSender{}, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("notify url: %v; want %s", withoutURL(err), accepted)
	}
	switch strings.ToLower(u.Scheme) {
	case "smtp", "smtps":
		return NewSMTPSender(u)
	case "http", "https":
		return NewWebhookSender(u.String(), webhookSecret)
	default:
		return nil, fmt.Errorf("notify url %q: unknown scheme %q; want %s", u.Redacted(), u.Scheme, accepted)
	}
}

// withoutURL unwraps a *url.Error to the error it carries. A url.Error
// quotes the whole URL, and notify URLs carry secrets (an SMTP password, a
// webhook token in the query) that must not reach logs or last_error.
func withoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// cleaned is n as a mail or webhook delivers it: the subject on one line
// and the body with every control and bidi character shown visibly, as
// the terminal view shows them (termsafe). The server stores rows clean
// already (and the digest builds its own so); rows an older release
// queued are cleaned here. Clean text passes unchanged.
func cleaned(n store.Notification) store.Notification {
	n.Subject = termsafe.OneLine(n.Subject, 0)
	n.Body = termsafe.Text(n.Body)
	return n
}

// PermanentError marks a failure that retrying cannot fix (a rejected
// recipient, a webhook answering 4xx): the Worker gives the row up at once
// instead of spending its remaining attempts.
type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

// Permanent wraps err as a PermanentError; nil stays nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &PermanentError{Err: err}
}

// IsPermanent reports whether err, or an error it wraps, is permanent.
func IsPermanent(err error) bool {
	var p *PermanentError
	return errors.As(err, &p)
}

// kindOf is n's kind as receivers and logs name it; rows queued before
// kinds existed are message notifications.
func kindOf(n store.Notification) string {
	if n.Kind == "" {
		return store.NotifyMessage
	}
	return n.Kind
}
