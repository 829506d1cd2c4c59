package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// Abandoned is the next_attempt_at a Worker gives a row it stopped trying:
// the row stays undelivered with its last_error for people to see, and no
// claim is ever due that late.
var Abandoned = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)

// Defaults for a zero Worker field.
const (
	DefaultInterval = 5 * time.Second
	DefaultBatch    = 20
	// DefaultLease is how long a claim lasts unless renewed; a Worker
	// renews its claims every third of it while it works, so a dead
	// instance's rows are claimed again within DefaultLease+DefaultInterval
	// (20 s, docs/server.md "Notifications").
	DefaultLease       = 15 * time.Second
	DefaultSendTimeout = time.Minute
	DefaultMaxAttempts = 10
)

// Backoff bounds: the n-th failure waits about 30 s·2^(n-1), at most an
// hour, so ten attempts span some three and a half hours.
const (
	backoffBase = 30 * time.Second
	backoffMax  = time.Hour
)

// maxErrorLen bounds the last_error kept on a row.
const maxErrorLen = 1000

// Worker drains an outbox through a Sender. Several Workers, in one process
// or in several on one database, may run at once: a claimed row is hidden
// from other claimers for Lease, renewed while the Worker works, so a row
// is sent twice only when an instance dies between a send and its record,
// or the database stays away longer than a lease while a delivery waits to
// be recorded. Receivers drop such repeats by the notification's id
// (webhook X-Dealctl-Delivery, e-mail Message-ID).
type Worker struct {
	Store       store.Outbox
	Sender      Sender
	Log         *slog.Logger     // nil: slog.Default()
	Interval    time.Duration    // how often to look for due rows without a Poke
	Batch       int              // rows claimed at a time
	Lease       time.Duration    // how long a claim hides rows unless renewed
	SendTimeout time.Duration    // the longest one send may take
	MaxAttempts int              // attempts before a row is abandoned
	Now         func() time.Time // the outbox's clock; nil: time.Now

	pokeOnce   sync.Once
	poke       chan struct{}
	unrecorded unrecorded
	handed     handed
	lastClaim  time.Time // of RunOnce, which a Worker does not run twice at once
}

// Poke asks a running Worker to look for due rows now, as after a post,
// rather than at the next interval. It never blocks; pokes that arrive
// while one is pending are merged.
func (w *Worker) Poke() {
	select {
	case w.wake() <- struct{}{}:
	default:
	}
}

func (w *Worker) wake() chan struct{} {
	w.pokeOnce.Do(func() { w.poke = make(chan struct{}, 1) })
	return w.poke
}

// Run delivers due rows every Interval and on every Poke until ctx is done,
// then returns nil. Storage errors are logged and retried at the next turn,
// since the database may come back; only a Worker missing its Store or
// Sender makes Run fail.
func (w *Worker) Run(ctx context.Context) error {
	if w.Store == nil || w.Sender == nil {
		return errors.New("notify: Worker needs a Store and a Sender")
	}
	tick := time.NewTicker(w.interval())
	defer tick.Stop()
	paused := false    // the database's schema is newer: said once, not every tick
	recording := false // a delivery waits to be recorded, and that was said
	for {
		// A full batch suggests more rows are due: keep going.
		for ctx.Err() == nil {
			delivered, failed, err := w.RunOnce(ctx)
			if errors.Is(err, store.ErrSchemaNewer) {
				if !paused {
					w.log().Warn("notify: pausing deliveries until this instance is replaced", slog.Any("error", err))
				}
				paused = true
				break
			}
			paused = false
			if err != nil {
				// Retries of a record come every recordRetry: said once
				// until the record is written, not four times a second.
				if ctx.Err() == nil && !(recording && errors.Is(err, errUnrecorded)) {
					w.log().Error("notify: delivering notifications", slog.Any("error", err))
				}
				recording = errors.Is(err, errUnrecorded)
				break
			}
			recording = false
			if delivered+failed < w.batch() {
				break
			}
		}
		// A delivery waiting to be recorded is retried soon, so that it
		// is recorded within moments of the database coming back.
		var soon <-chan time.Time
		if w.unrecorded.pending() {
			soon = time.After(recordRetry)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		case <-w.wake():
		case <-soon:
		}
	}
}

// RunOnce claims one batch of due rows and tries each once. It counts the
// rows delivered and the rows that failed (retried later or abandoned);
// err reports storage trouble. Deliveries an earlier run could not record
// are recorded first, and nothing is claimed until they are.
func (w *Worker) RunOnce(ctx context.Context) (delivered, failed int, err error) {
	if w.Store == nil || w.Sender == nil {
		return 0, 0, errors.New("notify: Worker needs a Store and a Sender")
	}
	// What was sent is recorded even when ctx ends mid-batch: forgetting a
	// delivery would repeat it once the claim lapses.
	book, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := w.recordPending(book); err != nil {
		return 0, 0, err
	}
	var rows []store.Notification
	now := w.now()
	// Rows handed over by posts go without a claim, but a claim still
	// comes at least every interval while posts keep handing rows over:
	// retries, and rows other instances left to lapse, are due too.
	if w.handed.empty() || now.Sub(w.lastClaim) >= w.interval() {
		claimCtx, cancelClaim := context.WithTimeout(ctx, 10*time.Second) // a frozen database does not hold the worker
		var err error
		rows, err = w.Store.ClaimNotifications(claimCtx, now, w.batch(), w.lease())
		cancelClaim()
		if err != nil {
			return 0, 0, fmt.Errorf("notify: claim: %w", err)
		}
		w.lastClaim = now
	}
	rows = append(rows, w.handed.take(w.batch()-len(rows), now.Add(w.lease()/2))...)
	if len(rows) == 0 {
		return 0, 0, nil
	}
	held := w.hold(ctx, rows)
	defer held.release()
	var errs []error
	sent := &sentBatch{w: w, held: held}
	for i, n := range rows {
		if ctx.Err() != nil {
			errs = append(errs, w.release(book, rows[i:]))
			break
		}
		if !held.mayStart(n) {
			// A renewal failed or another Worker holds the row now: the
			// rest are left to lapse, not sent on a claim that may be gone.
			break
		}
		if n.Attempts > w.maxAttempts() {
			// Claimed again after a Worker died mid-send, or the limit was
			// lowered: it has had its tries.
			failed++
			errs = append(errs, w.abandon(book, n, n.LastError))
			held.settle(n)
			continue
		}
		sendCtx, stop := context.WithTimeout(ctx, w.sendTimeout())
		sendErr := w.Sender.Send(sendCtx, n)
		stop()
		if sendErr == nil {
			delivered++
			// One line per delivery, ids only: the subject and body are
			// deal content. The log sender's own line is its delivery.
			if _, logged := w.Sender.(*LogSender); !logged {
				w.log().Info("notify: delivered", rowAttrs(n)...)
			}
			if err := sent.add(book, n); err != nil {
				// The database is away: the deliveries are kept to record
				// before anything else, and no further send starts
				// meanwhile (each would be one more to lose). The rest
				// lapse unsent.
				errs = append(errs, err)
				break
			}
			continue
		}
		failed++
		errs = append(errs, w.fail(book, n, sendErr))
		held.settle(n)
	}
	errs = append(errs, sent.record(book))
	return delivered, failed, errors.Join(errs...)
}

// fail records a failed attempt: retried after a backoff, or abandoned
// when the error is permanent or the attempts are spent.
func (w *Worker) fail(ctx context.Context, n store.Notification, sendErr error) error {
	msg := sendErr.Error()
	if len(msg) > maxErrorLen {
		// Cut on a character boundary: PostgreSQL refuses invalid UTF-8.
		msg = strings.ToValidUTF8(msg[:maxErrorLen], "")
	}
	if IsPermanent(sendErr) || n.Attempts >= w.maxAttempts() {
		return w.abandon(ctx, n, msg)
	}
	retry := w.now().Add(backoff(n.Attempts, rand.Float64))
	w.log().Warn("notify: delivery failed; will retry", append(rowAttrs(n),
		slog.String("error", msg), slog.Time("retry_at", retry))...)
	if err := w.Store.MarkFailed(ctx, n.ID, msg, retry); err != nil {
		return fmt.Errorf("notify: recording failure of %s: %w", n.ID, err)
	}
	return nil
}

// abandon stops trying n; it logs once, since the row is never claimed
// again.
func (w *Worker) abandon(ctx context.Context, n store.Notification, msg string) error {
	if msg == "" {
		msg = "no delivery after " + fmt.Sprint(n.Attempts-1) + " attempts"
	}
	w.log().Error("notify: giving up on notification", append(rowAttrs(n), slog.String("error", msg))...)
	if err := w.Store.MarkFailed(ctx, n.ID, msg, Abandoned); err != nil {
		return fmt.Errorf("notify: abandoning %s: %w", n.ID, err)
	}
	return nil
}

// release hands back claimed rows that were not tried, due at once with
// their last error unchanged. Their claim still counted as an attempt.
func (w *Worker) release(ctx context.Context, rows []store.Notification) error {
	now := w.now()
	var errs []error
	for _, n := range rows {
		if err := w.Store.MarkFailed(ctx, n.ID, n.LastError, now); err != nil {
			errs = append(errs, fmt.Errorf("notify: releasing %s: %w", n.ID, err))
		}
	}
	return errors.Join(errs...)
}

// backoff is the wait after the attempt-th failure: 30 s·2^(attempt-1)
// capped at an hour, less up to a fifth at random so that rows failed
// together (a relay outage) do not all come back in the same instant.
func backoff(attempt int, rnd func() float64) time.Duration {
	attempt = max(attempt, 1)
	d := backoffMax
	if attempt <= 8 { // past 8 the shift only overflows: 30 s·2^7 already passes the cap
		d = min(backoffBase<<(attempt-1), backoffMax)
	}
	return d - time.Duration(rnd()*float64(d)/5)
}

func rowAttrs(n store.Notification) []any {
	return []any{
		slog.String("notification_id", n.ID), slog.String("kind", kindOf(n)), slog.String("deal_id", n.DealID),
		slog.String("message_id", n.MessageID), slog.String("person_id", n.PersonID),
		slog.Int("attempt", n.Attempts),
	}
}

func (w *Worker) log() *slog.Logger {
	if w.Log != nil {
		return w.Log
	}
	return slog.Default()
}

func (w *Worker) now() time.Time {
	if w.Now != nil {
		return w.Now()
	}
	return time.Now()
}

func (w *Worker) batch() int {
	if w.Batch > 0 {
		return w.Batch
	}
	return DefaultBatch
}

func (w *Worker) interval() time.Duration {
	if w.Interval > 0 {
		return w.Interval
	}
	return DefaultInterval
}

func (w *Worker) lease() time.Duration {
	if w.Lease > 0 {
		return w.Lease
	}
	return DefaultLease
}

func (w *Worker) sendTimeout() time.Duration {
	if w.SendTimeout > 0 {
		return w.SendTimeout
	}
	return DefaultSendTimeout
}

func (w *Worker) maxAttempts() int {
	if w.MaxAttempts > 0 {
		return w.MaxAttempts
	}
	return DefaultMaxAttempts
}
