package serve

import (
	"context"
	"log/slog"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/notify"
	"github.com/dealctl/dealctl/internal/signing"
	"github.com/dealctl/dealctl/internal/store"
)

// startNotifier runs the outbox worker beside the server. It returns the
// worker, so the server can wake it after a post, and a function that
// stops it and waits for it.
func startNotifier(ctx context.Context, st store.Outbox, o *serveOptions, key *signing.Key, logger *slog.Logger) (*notify.Worker, func(), error) {
	sender, err := notify.ParseURL(o.notifyURL, o.webhookSecret)
	if err != nil {
		return nil, nil, cmdutil.UsageErrorf("--notify-url: %v", err)
	}
	replyAddresses(sender, o, key)
	if ls, ok := sender.(*notify.LogSender); ok {
		ls.Log = logger
	}
	ctx, cancel := context.WithCancel(ctx)
	w := &notify.Worker{Store: st, Sender: sender, Log: logger}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := w.Run(ctx); err != nil && ctx.Err() == nil {
			logger.Error("notification worker stopped", "err", err)
		}
	}()
	return w, func() { cancel(); <-done }, nil
}
