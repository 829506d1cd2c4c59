package server

import (
	"context"
	"time"
)

// releaseRetry is how often a claim that could not be released is tried
// again, until staleClaim has passed and a retry may take it anyway.
const releaseRetry = 250 * time.Millisecond

// releaseClaim drops the claim of a call that wrote nothing, so that a
// retry proceeds at once. When the database is away (the call most likely
// failed for that reason) the release is retried in the background, so a
// retry proceeds within moments of the database coming back instead of
// getting idempotency_in_progress until the claim goes stale.
func (s *Server) releaseClaim(ctx context.Context, keyID, idemKey string) {
	ctx = context.WithoutCancel(ctx)
	release := func() error {
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		return s.store.ReleaseResponse(rctx, keyID, idemKey)
	}
	err := release()
	if err == nil {
		return
	}
	s.log.Warn("cannot release an idempotency key; retrying", "err", err, "request_id", requestID(ctx))
	go func() {
		giveUp := time.Now().Add(staleClaim)
		for time.Now().Before(giveUp) {
			time.Sleep(releaseRetry)
			if release() == nil {
				return
			}
		}
	}()
}
