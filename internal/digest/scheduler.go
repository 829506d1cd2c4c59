// Package digest sends each joined person of a deal, once a day at a set
// local time in the deal's time zone, a digest of their overdue and
// due-this-week requests and of the answers and questions posted on
// requests assigned to them since their last digest. A digest is an
// outbox row (store.NotifyDigest) that the notification worker delivers
// like any other; the slot is claimed in the transaction that queues it,
// so several server instances on one database send it once.
package digest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// Store is what the scheduler reads and writes.
type Store interface {
	store.Digests
	Requests(ctx context.Context, dealID string) ([]store.Request, error)
}

// Defaults for a zero Scheduler field.
const (
	DefaultInterval = time.Minute
	// DefaultSettle is how long after the slot a digest waits before it
	// is built: a message stamped just before the slot whose write is
	// still committing then lands in this digest, not in none.
	DefaultSettle = time.Minute
)

// Scheduler builds and queues the digests that are due.
type Scheduler struct {
	Store    Store
	At       TimeOfDay        // local time of the digest; zero value: midnight (use DefaultAt)
	Now      func() time.Time // the clock; nil: time.Now
	Interval time.Duration    // how often Run looks for due digests
	Settle   time.Duration    // wait after the slot; negative: none
	Log      *slog.Logger     // nil: slog.Default()
	// Queued is called after a run queued at least one digest (the
	// notification worker's Poke), so it goes out now rather than at the
	// worker's next interval.
	Queued func()

	badZones sync.Map // deal id → the zone that did not load, warned about once
}

// Report counts what one run did.
type Report struct {
	Sent, Empty, OptedOut int
	Taken                 int // slots another instance (or an earlier run) had already claimed
}

// Run queues due digests every Interval until ctx is done, then returns
// nil. Storage errors are logged and retried at the next turn.
func (s *Scheduler) Run(ctx context.Context) error {
	if s.Store == nil {
		return errors.New("digest: Scheduler needs a Store")
	}
	interval := s.Interval
	if interval <= 0 {
		interval = DefaultInterval
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	paused := false
	for {
		// A pass ends by the next one's time: a frozen database holds
		// the scheduler no longer than that, and the next pass retries.
		pass, cancel := context.WithTimeout(ctx, interval)
		_, err := s.RunOnce(pass)
		cancel()
		switch {
		case errors.Is(err, store.ErrSchemaNewer):
			if !paused {
				s.log().Warn("digest: pausing digests until this instance is replaced", slog.Any("error", err))
			}
			paused = true
		case err != nil && ctx.Err() == nil:
			paused = false
			s.log().Error("digest: queueing digests", slog.Any("error", err))
		default:
			paused = false
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// RunOnce queues every digest due at this moment that no instance has
// claimed yet. A deal that fails is reported and the others still run.
func (s *Scheduler) RunOnce(ctx context.Context) (Report, error) {
	var rep Report
	if s.Store == nil {
		return rep, errors.New("digest: Scheduler needs a Store")
	}
	now := s.now()
	deals, err := s.Store.DigestDeals(ctx)
	if err != nil {
		return rep, fmt.Errorf("digest: listing deals: %w", err)
	}
	var errs []error
	for _, d := range deals {
		if ctx.Err() != nil {
			break
		}
		if err := s.runDeal(ctx, d, now, &rep); err != nil {
			if errors.Is(err, store.ErrSchemaNewer) {
				return rep, err
			}
			errs = append(errs, fmt.Errorf("digest: deal %s: %w", d.ID, err))
		}
	}
	if rep.Sent > 0 && s.Queued != nil {
		s.Queued()
	}
	return rep, errors.Join(errs...)
}

// runDeal queues the due digests of one deal.
func (s *Scheduler) runDeal(ctx context.Context, d store.Deal, now time.Time, rep *Report) error {
	loc, err := time.LoadLocation(d.Timezone)
	if err != nil {
		// The world file checks zones; one that no longer loads still
		// gets its digests, on UTC, rather than none. Said once per deal
		// and zone, not every minute.
		if prev, seen := s.badZones.Swap(d.ID, d.Timezone); !seen || prev != d.Timezone {
			s.log().Warn("digest: deal time zone does not load; its digests go at UTC", slog.String("deal_id", d.ID),
				slog.String("timezone", d.Timezone), slog.Any("error", err))
		}
		loc = time.UTC
	}
	sl := slotOf(now, loc, s.At)
	if now.Before(sl.at.Add(s.settle())) {
		return nil
	}
	recipients, err := s.Store.DigestRecipients(ctx, d.ID)
	if err != nil {
		return err
	}
	var due []store.DigestRecipient
	earliest := sl.at
	for _, r := range recipients {
		if !r.Joined || sentToday(r, loc, sl) {
			continue
		}
		due = append(due, r)
		earliest = minTime(earliest, windowStart(r, sl.at))
	}
	if len(due) == 0 {
		return nil
	}
	data, err := s.readDeal(ctx, d, loc, sl, earliest, recipients)
	if err != nil {
		return err
	}
	var errs []error
	for _, r := range due {
		if err := s.claim(ctx, data, r, now, rep); err != nil {
			if errors.Is(err, store.ErrSchemaNewer) {
				return err
			}
			errs = append(errs, fmt.Errorf("person %s: %w", r.ID, err))
		}
	}
	return errors.Join(errs...)
}

// readDeal reads what the deal's digests are built from; people are
// the deal's, who wrote the messages.
func (s *Scheduler) readDeal(ctx context.Context, d store.Deal, loc *time.Location, sl slot, since time.Time, people []store.DigestRecipient) (*dealData, error) {
	requests, err := s.Store.Requests(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	messages, err := s.Store.MessagesPosted(ctx, d.ID, since, sl.at)
	if err != nil {
		return nil, err
	}
	data := &dealData{deal: d, loc: loc, slot: sl, requests: requests, messages: messages,
		byID: make(map[string]store.Request, len(requests)), people: make(map[string]store.Person, len(people))}
	for _, r := range requests {
		data.byID[r.ID] = r
	}
	for _, p := range people {
		data.people[p.ID] = p.Person
	}
	return data, nil
}

// claim decides one person's digest and claims their slot with it.
func (s *Scheduler) claim(ctx context.Context, d *dealData, r store.DigestRecipient, now time.Time, rep *Report) error {
	start := windowStart(r, d.slot.at)
	rec := store.DigestRecord{PersonID: r.ID, DealID: d.deal.ID, Day: d.slot.day, WindowStart: start, WindowEnd: d.slot.at,
		PrevWindowEnd: r.LastWindowEnd, CreatedAt: now}
	var n *store.Notification
	rec.Outcome = store.DigestEmpty
	switch {
	case r.OptedOut:
		rec.Outcome = store.DigestOptedOut
	case r.Email == "": // nowhere to send it
	default:
		if c := d.contentFor(r.Person, start); !c.empty() {
			rec.Outcome = store.DigestSent
			n = &store.Notification{Email: r.Email, Subject: subjectFor(d.deal, c), Body: d.bodyFor(c),
				NextAttemptAt: now, CreatedAt: now}
		}
	}
	ok, err := s.Store.ClaimDigest(ctx, rec, n)
	switch {
	case err != nil:
		return err
	case !ok:
		rep.Taken++
	case rec.Outcome == store.DigestSent:
		rep.Sent++
		// Ids only: the subject and body are deal content.
		s.log().Info("digest: queued", slog.String("deal_id", d.deal.ID), slog.String("person_id", r.ID),
			slog.String("notification_id", n.ID), slog.String("day", d.slot.day))
	case rec.Outcome == store.DigestOptedOut:
		rep.OptedOut++
	default:
		rep.Empty++
	}
	return nil
}

// sentToday reports whether r's last digest slot falls on the slot's
// local date or later, in the deal's zone as it is now. Dates rather than
// instants decide, so that a deal whose zone changed never sends twice on
// one local date: a slot taken in the old zone at 07:00 may be 06:00 in
// the new one, before its 07:00 but on the same day.
func sentToday(r store.DigestRecipient, loc *time.Location, sl slot) bool {
	return r.LastWindowEnd != nil && r.LastWindowEnd.In(loc).Format(time.DateOnly) >= sl.day
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func (s *Scheduler) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Scheduler) settle() time.Duration {
	switch {
	case s.Settle < 0:
		return 0
	case s.Settle == 0:
		return DefaultSettle
	}
	return s.Settle
}

func (s *Scheduler) log() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.Default()
}
