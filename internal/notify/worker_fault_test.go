package notify

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// flakyOutbox is a real outbox whose MarkDelivered fails while down is
// set, as while the database restarts.
type flakyOutbox struct {
	store.Outbox
	down atomic.Bool
}

var errDatabaseAway = errors.New("connection refused")

func (o *flakyOutbox) MarkDelivered(ctx context.Context, at time.Time, ids ...string) error {
	if o.down.Load() {
		return errDatabaseAway
	}
	return o.Outbox.MarkDelivered(ctx, at, ids...)
}

// countingSender counts sends per notification id.
type countingSender struct {
	mu   sync.Mutex
	sent map[string]int
}

func (c *countingSender) Send(_ context.Context, n store.Notification) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sent == nil {
		c.sent = map[string]int{}
	}
	c.sent[n.ID]++
	return nil
}

func (c *countingSender) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	total := 0
	for _, k := range c.sent {
		total += k
	}
	return total
}

// Deliveries that cannot be recorded stop the batch (no further send
// while the database is away) and are recorded before anything is
// claimed again, however late: no row reaches the receiver twice. The
// three rows here are recorded together (one claimed batch), so all
// three are sent before the record fails.
func TestWorkerStopsBatchWhenARecordFailsAndRecordsItFirst(t *testing.T) {
	f := newFixture(t)
	ids := f.post(t, "Answer.", f.bob(), f.dave(), recipient{f.pAlice, "alice@target.example"})
	out := &flakyOutbox{Outbox: f.st}
	out.down.Store(true)
	snd := &countingSender{}
	clk := &clock{t0}
	w := &Worker{Store: out, Sender: snd, Log: quietLog(), Now: clk.Now}
	d, _, err := w.RunOnce(context.Background())
	if d != 3 || !errors.Is(err, errDatabaseAway) || !errors.Is(err, errUnrecorded) || snd.total() != 3 {
		t.Fatalf("RunOnce with the database away = %d delivered, %d sent, %v; want 3 sends, then the record's error", d, snd.total(), err)
	}
	// Still away, long after every claim lapsed: nothing is claimed or sent.
	clk.t = t0.Add(time.Hour)
	if d, _, err := w.RunOnce(context.Background()); d != 0 || err == nil || snd.total() != 3 {
		t.Fatalf("RunOnce while still away = %d, %v, %d sent; want nothing sent and an error", d, err, snd.total())
	}
	for _, id := range ids {
		if n := f.rows(t)[id]; n.DeliveredAt != nil {
			t.Errorf("row %s recorded while the database was away: %+v", id, n)
		}
	}
	out.down.Store(false)
	if d, fl, err := w.RunOnce(context.Background()); d != 0 || fl != 0 || err != nil {
		t.Fatalf("RunOnce once back = %d, %d, %v; want the records written and nothing sent again", d, fl, err)
	}
	for _, id := range ids {
		if snd.sent[id] != 1 {
			t.Errorf("row %s sent %d times, want once", id, snd.sent[id])
		}
		if n := f.rows(t)[id]; n.DeliveredAt == nil {
			t.Errorf("row %s not recorded as delivered: %+v", id, n)
		}
	}
}

// A slow sender's deliveries are recorded soon after each is sent: a
// delivery waits for its record at most recordWithin and the one send
// that ends it, so sends as slow as that are recorded in twos.
func TestWorkerRecordsASlowSendersDeliveriesSoon(t *testing.T) {
	f := newFixture(t)
	f.post(t, "Answer.", f.bob(), f.dave(), recipient{f.pAlice, "alice@target.example"})
	rec := &recordingOutbox{Outbox: f.st}
	clk := &clock{t0}
	slow := senderFunc(func(context.Context, store.Notification) error {
		clk.t = clk.t.Add(recordWithin) // each send takes recordWithin
		return nil
	})
	w := &Worker{Store: rec, Sender: slow, Log: quietLog(), Now: clk.Now}
	if d, _, err := w.RunOnce(context.Background()); d != 3 || err != nil {
		t.Fatalf("RunOnce = %d, %v; want 3 delivered", d, err)
	}
	if want := []int{2, 1}; !slices.Equal(rec.sizes, want) {
		t.Errorf("records of %v deliveries, want %v", rec.sizes, want)
	}
	// A fast sender's three are recorded in one write.
	f.post(t, "More.", f.bob(), f.dave(), recipient{f.pAlice, "alice@target.example"})
	rec.sizes = nil
	w.Sender = &countingSender{}
	if d, _, err := w.RunOnce(context.Background()); d != 3 || err != nil {
		t.Fatalf("RunOnce = %d, %v; want 3 delivered", d, err)
	}
	if want := []int{3}; !slices.Equal(rec.sizes, want) {
		t.Errorf("records of %v deliveries, want %v", rec.sizes, want)
	}
}

// recordingOutbox notes how many deliveries each record wrote.
type recordingOutbox struct {
	store.Outbox
	sizes []int
}

func (o *recordingOutbox) MarkDelivered(ctx context.Context, at time.Time, ids ...string) error {
	o.sizes = append(o.sizes, len(ids))
	return o.Outbox.MarkDelivered(ctx, at, ids...)
}

// Run retries an unrecorded delivery within moments of the database
// coming back, well before the row's claim could lapse.
func TestWorkerRunRecordsSoonAfterTheDatabaseReturns(t *testing.T) {
	f := newFixture(t)
	id := f.post(t, "Answer.", f.bob())[0]
	out := &flakyOutbox{Outbox: f.st}
	out.down.Store(true)
	w := &Worker{Store: out, Sender: &countingSender{}, Log: quietLog(), Interval: time.Hour}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- w.Run(ctx) }()
	defer func() { cancel(); <-done }()
	waitFor(t, time.Second, func() bool { return w.unrecorded.pending() })
	out.down.Store(false)
	waitFor(t, 2*time.Second, func() bool { return f.rows(t)[id].DeliveredAt != nil })
}

// A Worker renews its claims while it works: a send slower than the
// lease does not let another Worker claim the rest of the batch.
func TestWorkerRenewsClaimsWhileSending(t *testing.T) {
	f := newFixture(t)
	f.post(t, "Answer.", f.bob(), f.dave(), recipient{f.pAlice, "alice@target.example"})
	const lease = 300 * time.Millisecond
	snd := &countingSender{}
	slow := senderFunc(func(ctx context.Context, n store.Notification) error {
		time.Sleep(lease * 2 / 3)
		return snd.Send(ctx, n)
	})
	a := &Worker{Store: f.st, Sender: slow, Lease: lease, Log: quietLog()}
	b := &Worker{Store: f.st, Sender: snd, Lease: lease, Log: quietLog()}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if d, _, err := a.RunOnce(context.Background()); d != 3 || err != nil {
			t.Errorf("slow worker: %d delivered, %v; want all 3", d, err)
		}
	}()
	for {
		select {
		case <-done:
			for id, k := range snd.sent {
				if k != 1 {
					t.Errorf("row %s sent %d times", id, k)
				}
			}
			return
		case <-time.After(lease / 4):
			if d, _, err := b.RunOnce(context.Background()); d != 0 || err != nil {
				t.Fatalf("another worker claimed %d rows while the first held them (%v)", d, err)
			}
		}
	}
}

// An instance killed mid-batch stops renewing: another delivers its rows
// once the lease ends, within the documented DefaultLease+DefaultInterval.
func TestWorkerTakesOverADeadInstancesClaims(t *testing.T) {
	if DefaultLease+DefaultInterval > 20*time.Second {
		t.Fatalf("a dead instance's rows wait %v; docs/server.md promises 20 s", DefaultLease+DefaultInterval)
	}
	f := newFixture(t)
	ids := f.post(t, "Answer.", f.bob(), f.dave())
	// The dead instance's claim: taken, never renewed, never settled.
	if got, err := f.st.ClaimNotifications(context.Background(), t0, 10, DefaultLease); err != nil || len(got) != 2 {
		t.Fatalf("claim = %d rows, %v", len(got), err)
	}
	snd := &countingSender{}
	clk := &clock{t0.Add(DefaultLease - time.Millisecond)}
	w := &Worker{Store: f.st, Sender: snd, Log: quietLog(), Now: clk.Now}
	if d, _, _ := w.RunOnce(context.Background()); d != 0 {
		t.Fatalf("delivered %d rows while the dead instance's lease ran", d)
	}
	clk.t = t0.Add(DefaultLease)
	if d, _, err := w.RunOnce(context.Background()); d != 2 || err != nil {
		t.Fatalf("RunOnce after the lease = %d, %v; want the 2 rows", d, err)
	}
	for _, id := range ids {
		if n := f.rows(t)[id]; n.DeliveredAt == nil || snd.sent[id] != 1 {
			t.Errorf("row %s: delivered %v, sent %d times", id, n.DeliveredAt, snd.sent[id])
		}
	}
}

func waitFor(t *testing.T, limit time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("not so within %v", limit)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// An instance killed mid-send (here: its database handle closed under it,
// so its renewals stop, and its send never finishes) loses its rows to
// another instance within a lease and a poll, in real time.
func TestWorkerOfAKilledInstanceIsReplacedWithinALease(t *testing.T) {
	f := newFixture(t)
	ids := f.post(t, "Answer.", f.bob(), f.dave())
	dying, err := sqlstore.Open(context.Background(), f.path)
	if err != nil {
		t.Fatal(err)
	}
	const lease, poll = 300 * time.Millisecond, 50 * time.Millisecond
	sending := make(chan struct{}, 1)
	killed := make(chan struct{})
	hung := senderFunc(func(ctx context.Context, n store.Notification) error {
		sending <- struct{}{}
		<-killed
		return errors.New("killed")
	})
	a := &Worker{Store: dying, Sender: hung, Lease: lease, Log: quietLog()}
	aDone := make(chan struct{})
	go func() { defer close(aDone); _, _, _ = a.RunOnce(context.Background()) }()
	<-sending
	dying.Close() // the instance is gone: nothing of it reaches the database again
	killedAt := time.Now()

	snd := &countingSender{}
	b := &Worker{Store: f.st, Sender: snd, Lease: lease, Interval: poll, Log: quietLog()}
	ctx, cancel := context.WithCancel(context.Background())
	bDone := make(chan error)
	go func() { bDone <- b.Run(ctx) }()
	waitFor(t, 5*time.Second, func() bool { return snd.total() == len(ids) })
	took := time.Since(killedAt)
	cancel()
	<-bDone
	close(killed)
	<-aDone
	if took > lease+poll+time.Second {
		t.Errorf("the other instance delivered %v after the kill, want within about %v", took, lease+poll)
	}
	for _, id := range ids {
		if snd.sent[id] != 1 || f.rows(t)[id].DeliveredAt == nil {
			t.Errorf("row %s: sent %d times by the survivor, delivered %v", id, snd.sent[id], f.rows(t)[id].DeliveredAt)
		}
	}
}
