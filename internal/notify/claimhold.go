package notify

import (
	"context"
	"sync"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// claimHold keeps a batch's claims alive while a Worker works through it:
// every lease/3 it pushes each unsettled row's next attempt a lease ahead,
// so that leases can be short (a dead instance's rows come back within a
// lease) while a slow send never outlives its claim.
type claimHold struct {
	w    *Worker
	mu   sync.Mutex
	open map[string]store.Notification // claimed, not yet settled
	lost map[string]bool               // claimed again by another Worker
	// broken is set when a renewal could not be written: the claims may
	// lapse, so no further send starts.
	broken bool
	stop   context.CancelFunc
	done   chan struct{}
}

// hold starts renewing rows' claims until release is called.
func (w *Worker) hold(ctx context.Context, rows []store.Notification) *claimHold {
	h := &claimHold{w: w, open: map[string]store.Notification{}, lost: map[string]bool{}, done: make(chan struct{})}
	for _, n := range rows {
		h.open[n.ID] = n
	}
	ctx, h.stop = context.WithCancel(context.WithoutCancel(ctx))
	go h.renewEvery(ctx, w.lease()/3)
	return h
}

func (h *claimHold) renewEvery(ctx context.Context, every time.Duration) {
	defer close(h.done)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		h.renewAll(ctx)
	}
}

func (h *claimHold) renewAll(ctx context.Context) {
	h.mu.Lock()
	rows := make([]store.Notification, 0, len(h.open))
	for _, n := range h.open {
		rows = append(rows, n)
	}
	h.mu.Unlock()
	// A renewal waits no longer than a third of the lease: by then the
	// next one is due.
	rctx, cancel := context.WithTimeout(ctx, h.w.lease()/3)
	lost, err := h.w.Store.RenewClaims(rctx, rows, h.w.now().Add(h.w.lease()))
	cancel()
	h.mu.Lock()
	defer h.mu.Unlock()
	if err != nil && ctx.Err() == nil {
		h.broken = true
	}
	for _, id := range lost {
		h.lost[id] = true
	}
}

// mayStart reports whether n may be sent now: its claim is still held
// and renewals are being written.
func (h *claimHold) mayStart(n store.Notification) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return !h.broken && !h.lost[n.ID]
}

// settle stops renewing n's claim: it was delivered, failed or released.
func (h *claimHold) settle(n store.Notification) {
	h.mu.Lock()
	delete(h.open, n.ID)
	h.mu.Unlock()
}

// release stops the renewals and waits for the one under way.
func (h *claimHold) release() {
	h.stop()
	<-h.done
}
