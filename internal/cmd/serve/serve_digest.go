package serve

import (
	"context"
	"log/slog"
	"strings"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/digest"
)

// digestSchedule reads --digest-at (given as name: the flag, or the
// variable it came from): a time of day, or "off". Empty is the default,
// 07:00.
func digestSchedule(name, s string) (at digest.TimeOfDay, on bool, err error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return digest.DefaultAt, true, nil
	case "off", "none", "false":
		return digest.TimeOfDay{}, false, nil
	}
	at, err = digest.ParseTimeOfDay(s)
	if err != nil {
		return at, false, cmdutil.UsageErrorf("%s: %v, or off for no digests", name, err)
	}
	return at, true, nil
}

// startDigests runs the daily digest scheduler beside the server; queued
// digests wake the notification worker (poke). It returns a function that
// stops the scheduler and waits for it.
func startDigests(ctx context.Context, st digest.Store, at digest.TimeOfDay, poke func(), logger *slog.Logger) func() {
	ctx, cancel := context.WithCancel(ctx)
	s := &digest.Scheduler{Store: st, At: at, Log: logger, Queued: poke}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := s.Run(ctx); err != nil && ctx.Err() == nil {
			logger.Error("digest scheduler stopped", "err", err)
		}
	}()
	return func() { cancel(); <-done }
}
