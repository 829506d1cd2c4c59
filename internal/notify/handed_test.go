package notify

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// claimCounter counts the claims a Worker makes.
type claimCounter struct {
	store.Outbox
	claims atomic.Int32
}

func (c *claimCounter) ClaimNotifications(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]store.Notification, error) {
	c.claims.Add(1)
	return c.Outbox.ClaimNotifications(ctx, now, limit, lease)
}

// handOver writes a post of alice's with its rows whole and claimed
// until until, as a service with a Handoff writes them (service.claimed),
// and returns the rows as written.
func (f *fixture) handOver(t *testing.T, until time.Time, to ...recipient) []store.Notification {
	t.Helper()
	var written []store.Notification
	_, _, err := f.st.PostMessage(context.Background(), store.PostMessage{
		Message: store.Message{DealID: f.deal, RequestID: f.req, PartyID: f.sell, AuthorID: &f.pAlice,
			Kind: api.MessageResponse, Source: api.SourceWeb, Text: "Answer.", Format: api.FormatMarkdown, PostedAt: t0},
		Notify: func(m store.Message) []store.Notification {
			written = nil
			for _, r := range to {
				written = append(written, store.Notification{ID: store.NewID(), DealID: m.DealID, MessageID: m.ID, PersonID: r.person, Email: r.email,
					Subject: "New answer on 2.1", Body: m.Text, CreatedAt: t0, Attempts: 1, NextAttemptAt: until})
			}
			return written
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return written
}

// Rows handed over are sent and recorded without a claim: the post's
// write already claimed them. A claim still comes once an interval has
// passed since the last, or when nothing was handed over.
func TestWorkerSendsHandedRowsWithoutClaiming(t *testing.T) {
	f := newFixture(t)
	out := &claimCounter{Outbox: f.st}
	snd := &countingSender{}
	w := &Worker{Store: out, Sender: snd, Log: quietLog(), Now: func() time.Time { return t0 }}
	if d, _, err := w.RunOnce(context.Background()); d != 0 || err != nil || out.claims.Load() != 1 {
		t.Fatalf("first RunOnce = %d, %v, %d claims; want one claim that finds nothing", d, err, out.claims.Load())
	}
	rows := f.handOver(t, t0.Add(w.ClaimLease()), f.bob(), f.dave())
	w.Take(rows)
	if d, fl, err := w.RunOnce(context.Background()); d != 2 || fl != 0 || err != nil {
		t.Fatalf("RunOnce = %d, %d, %v; want the 2 handed rows delivered", d, fl, err)
	}
	if n := out.claims.Load(); n != 1 {
		t.Errorf("the Worker claimed again (%d claims) for rows handed to it; want no claim", n)
	}
	for _, n := range rows {
		if got := f.rows(t)[n.ID]; got.DeliveredAt == nil || got.Attempts != 1 || snd.sent[n.ID] != 1 {
			t.Errorf("row %s: %+v, sent %d times; want delivered on its first attempt, sent once", n.ID, got, snd.sent[n.ID])
		}
	}
	if d, _, err := w.RunOnce(context.Background()); d != 0 || err != nil || out.claims.Load() != 2 {
		t.Errorf("RunOnce with nothing handed = %d, %v, %d claims; want a claim that finds nothing", d, err, out.claims.Load())
	}
}

// Posts handing rows over without pause do not keep a due row waiting
// (a retry, or a row another instance let lapse): once an interval has
// passed since the last claim, the next run claims it beside them.
func TestWorkerClaimsEveryIntervalWhileRowsAreHanded(t *testing.T) {
	f := newFixture(t)
	clk := &clock{t0}
	snd := &countingSender{}
	w := &Worker{Store: f.st, Sender: snd, Log: quietLog(), Now: clk.Now, Interval: 5 * time.Second}
	if d, _, err := w.RunOnce(context.Background()); d != 0 || err != nil {
		t.Fatalf("first RunOnce = %d, %v", d, err)
	}
	due := f.post(t, "Due, unclaimed.", f.bob())
	w.Take(f.handOver(t, t0.Add(w.ClaimLease()), f.dave()))
	if d, _, err := w.RunOnce(context.Background()); d != 1 || err != nil || snd.sent[due[0]] != 0 {
		t.Fatalf("RunOnce within the interval = %d, %v, due row sent %d times; want only the handed row", d, err, snd.sent[due[0]])
	}
	clk.t = t0.Add(5 * time.Second)
	w.Take(f.handOver(t, clk.t.Add(w.ClaimLease()), f.dave()))
	if d, _, err := w.RunOnce(context.Background()); d != 2 || err != nil || snd.sent[due[0]] != 1 {
		t.Errorf("RunOnce an interval later = %d, %v, due row sent %d times; want it claimed beside the handed row", d, err, snd.sent[due[0]])
	}
}

// A row handed over with too little of its claim left for a renewal to
// come in time is not sent from memory: it lapses, and a claim after its
// lease sends it, once.
func TestWorkerLeavesAHandedRowItCannotHoldToLapse(t *testing.T) {
	f := newFixture(t)
	clk := &clock{t0}
	snd := &countingSender{}
	w := &Worker{Store: f.st, Sender: snd, Log: quietLog(), Now: clk.Now}
	rows := f.handOver(t, t0.Add(w.ClaimLease()/3), f.bob())
	w.Take(rows)
	if d, _, err := w.RunOnce(context.Background()); d != 0 || err != nil || snd.total() != 0 {
		t.Fatalf("RunOnce with a claim about to end = %d delivered, %v, %d sent; want nothing sent", d, err, snd.total())
	}
	clk.t = t0.Add(w.ClaimLease())
	if d, _, err := w.RunOnce(context.Background()); d != 1 || err != nil {
		t.Fatalf("RunOnce after the lease = %d, %v; want the lapsed row claimed and delivered", d, err)
	}
	if got := f.rows(t)[rows[0].ID]; got.DeliveredAt == nil || got.Attempts != 2 || snd.total() != 1 {
		t.Errorf("row after its lease: %+v, sent %d times; want delivered on its second attempt, sent once", got, snd.total())
	}
}

// Take keeps at most maxHanded rows waiting; past it a post's rows are
// left to their lease.
func TestWorkerTakesAtMostMaxHanded(t *testing.T) {
	w := &Worker{}
	rows := make([]store.Notification, maxHanded)
	w.Take(rows)
	w.Take(rows[:1])
	if n := len(w.handed.rows); n != maxHanded {
		t.Errorf("%d rows waiting after taking %d and one more; want %d", n, maxHanded, maxHanded)
	}
}

// Handed rows whose record fails while the database is away are kept to
// record first, as claimed ones are: recorded once it is back, and never
// sent again, even after their lease has passed.
func TestWorkerRecordsHandedRowsOnceTheDatabaseIsBack(t *testing.T) {
	f := newFixture(t)
	out := &flakyOutbox{Outbox: f.st}
	clk := &clock{t0}
	snd := &countingSender{}
	w := &Worker{Store: out, Sender: snd, Log: quietLog(), Now: clk.Now}
	rows := f.handOver(t, t0.Add(w.ClaimLease()), f.bob(), f.dave())
	w.Take(rows)
	out.down.Store(true)
	if d, _, err := w.RunOnce(context.Background()); d != 2 || !errors.Is(err, errUnrecorded) {
		t.Fatalf("RunOnce with the database away = %d, %v; want 2 sent, their record failed", d, err)
	}
	out.down.Store(false)
	clk.t = t0.Add(time.Hour)
	if d, _, err := w.RunOnce(context.Background()); d != 0 || err != nil {
		t.Fatalf("RunOnce once back, the lease long past = %d, %v; want the records written and nothing sent", d, err)
	}
	for _, n := range rows {
		if got := f.rows(t)[n.ID]; got.DeliveredAt == nil || snd.sent[n.ID] != 1 {
			t.Errorf("row %s: %+v, sent %d times; want recorded, sent once", n.ID, got, snd.sent[n.ID])
		}
	}
}
