package notify

import (
	"sync"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// A post in this process hands its notifications to the Worker claimed
// (service.WithHandoff): written with their first attempt counted and a
// lease, as a claim would leave them. The Worker sends them without a
// claim, so a post's rows are written twice (sent, delivered) instead of
// three times; it claims beside them once an interval has passed since
// its last claim, so that due rows (retries, rows another instance let
// lapse) never wait behind a steady stream of posts. Rows it cannot take, or takes too late, are
// never sent from memory: their lease lapses and a claim, of this
// instance or another, picks them up as it would any due row, so no row
// is sent twice for it and none is lost if the process dies.

// maxHanded bounds the rows waiting in memory; past it a post's rows wait
// for their lease to lapse (a delay of one lease, under a backlog that
// long).
const maxHanded = 1000

// ClaimLease is how long a claim lasts unless renewed (service.Handoff).
func (w *Worker) ClaimLease() time.Duration { return w.lease() }

// Take queues rows a post wrote claimed for this Worker, and wakes it
// (service.Handoff).
func (w *Worker) Take(rows []store.Notification) {
	if w.handed.add(rows) {
		w.Poke()
	}
}

// handed is the rows taken, oldest first.
type handed struct {
	mu   sync.Mutex
	rows []store.Notification
}

// add keeps rows, all or none; it reports whether it did.
func (h *handed) add(rows []store.Notification) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(rows) == 0 || len(h.rows)+len(rows) > maxHanded {
		return false
	}
	h.rows = append(h.rows, rows...)
	return true
}

func (h *handed) empty() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.rows) == 0
}

// take is up to n rows whose claims last at least until heldUntil, long
// enough for the first renewal of a claimHold. Rows whose claims end
// sooner are dropped: they lapse and are claimed again.
func (h *handed) take(n int, heldUntil time.Time) []store.Notification {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []store.Notification
	i := 0
	for ; i < len(h.rows) && len(out) < n; i++ {
		if !h.rows[i].NextAttemptAt.Before(heldUntil) {
			out = append(out, h.rows[i])
		}
	}
	h.rows = append(h.rows[:0], h.rows[i:]...)
	return out
}
