package notify

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// unrecorded holds deliveries a Worker made but could not record (the
// database was away). They are recorded again before the Worker claims
// anything, and retried every recordRetry meanwhile, so that the database
// has them long before their claims lapse and another Worker could send
// them again.
type unrecorded struct {
	mu sync.Mutex
	at map[string]time.Time // notification id → delivered at
}

// recordRetry is how often a Worker with unrecorded deliveries tries to
// record them.
const recordRetry = 250 * time.Millisecond

func (u *unrecorded) add(id string, at time.Time) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.at == nil {
		u.at = map[string]time.Time{}
	}
	u.at[id] = at
}

func (u *unrecorded) pending() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.at) > 0
}

// recordPending records every unrecorded delivery, stopping at the first
// failure: the database is still away.
func (w *Worker) recordPending(ctx context.Context) error {
	w.unrecorded.mu.Lock()
	defer w.unrecorded.mu.Unlock()
	byTime := map[time.Time][]string{}
	for id, at := range w.unrecorded.at {
		byTime[at] = append(byTime[at], id)
	}
	for at, ids := range byTime {
		if err := w.Store.MarkDelivered(ctx, at, ids...); err != nil {
			return errors.Join(errUnrecorded, fmt.Errorf("notify: recording %d deliveries: %w", len(ids), err))
		}
		for _, id := range ids {
			delete(w.unrecorded.at, id)
		}
	}
	return nil
}

// errUnrecorded marks a RunOnce error that left a delivery unrecorded, for
// Run to retry the record soon rather than at the next interval.
var errUnrecorded = errors.New("notify: a delivery is not recorded yet")
