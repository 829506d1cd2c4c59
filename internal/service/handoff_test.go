package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/service"
	"github.com/dealctl/dealctl/internal/store"
)

// takenRows is a Handoff that keeps what it is handed.
type takenRows struct {
	lease time.Duration
	taken [][]store.Notification
}

func (h *takenRows) ClaimLease() time.Duration      { return h.lease }
func (h *takenRows) Take(rows []store.Notification) { h.taken = append(h.taken, rows) }

// With a Handoff, an answer's notifications are written claimed for its
// lease (their first attempt counted) and handed over as written, ids
// and all; the worker is not woken to claim them.
func TestAnswerHandsItsNotificationsOver(t *testing.T) {
	onBothStores(t, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		h := &takenRows{lease: 15 * time.Second}
		f.svc.WithHandoff(h)
		ben := f.actor(t, "falcon", "ben")
		row := f.request(t, "falcon", "1.1")
		m, _, err := f.svc.Answer(ctx, ben, now, row, service.Post{In: api.MessageCreate{Text: text("The certificate.")}})
		if err != nil {
			t.Fatal(err)
		}
		if len(h.taken) != 1 || f.posted != 0 {
			t.Fatalf("handed over %d times, worker woken %d times; want one hand-over and no wake-up", len(h.taken), f.posted)
		}
		stored, err := f.st.Notifications(ctx, row.DealID)
		if err != nil {
			t.Fatal(err)
		}
		byID := map[string]store.Notification{}
		for _, n := range stored {
			byID[n.ID] = n
		}
		handed := h.taken[0]
		if len(handed) != 3 || len(stored) != 3 {
			t.Fatalf("handed %d rows, stored %d; want the owning side's three", len(handed), len(stored))
		}
		until := now.Add(h.lease)
		for _, n := range handed {
			s, ok := byID[n.ID]
			if !ok || n.MessageID != m.ID || n.DealID != row.DealID || n.Attempts != 1 || !n.NextAttemptAt.Equal(until) {
				t.Errorf("handed %+v; want a stored row of message %s, claimed until %v", n, m.ID, until)
			}
			if s.Attempts != 1 || !s.NextAttemptAt.Equal(until) || s.DeliveredAt != nil || s.Email != n.Email || s.Body != n.Body {
				t.Errorf("stored %+v; want it as handed, claimed until %v", s, until)
			}
		}
	})
}
