package cli

import (
	"context"
	"log/slog"

	"github.com/dealctl/dealctl/internal/store"
)

// startNotifier is wired to internal/notify once it lands.
func startNotifier(ctx context.Context, st store.Outbox, o *serveOptions, logger *slog.Logger) (func(), error) {
	return func() {}, nil
}
