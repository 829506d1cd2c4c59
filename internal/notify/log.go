package notify

import (
	"context"
	"log/slog"

	"github.com/dealctl/dealctl/internal/store"
)

// LogSender "delivers" by logging, the default when no notifier is
// configured, so that a demo or a test server shows what it would send.
// The subject and body carry deal content, so they go out at debug level
// only; the info line names who would be told about which message.
type LogSender struct {
	Log *slog.Logger // nil: slog.Default()
}

// Send logs n; it never fails.
func (s *LogSender) Send(ctx context.Context, n store.Notification) error {
	log := s.Log
	if log == nil {
		log = slog.Default()
	}
	attrs := []slog.Attr{
		slog.String("notification_id", n.ID),
		slog.String("kind", kindOf(n)),
		slog.String("deal_id", n.DealID),
		slog.String("message_id", n.MessageID),
		slog.String("person_id", n.PersonID),
		slog.String("email", n.Email),
		slog.Int("attempt", n.Attempts),
	}
	log.LogAttrs(ctx, slog.LevelInfo, "notification", attrs...)
	if log.Enabled(ctx, slog.LevelDebug) {
		log.LogAttrs(ctx, slog.LevelDebug, "notification content",
			slog.String("notification_id", n.ID), slog.String("subject", n.Subject), slog.String("body", n.Body))
	}
	return nil
}
