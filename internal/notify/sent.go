package notify

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// Deliveries are recorded a claim's batch at a time, in one write, rather
// than one write each.
//
// Each record was a transaction of its own (on SQLite a commit and a sync
// of the log) for every person told of every post: eight per post on a
// deal with eight people on the other side, two thirds of a post's CPU
// with its deliveries, and the worker, waiting for each, fell behind a
// busy deal. Recording 16 at a time from batches of 20 claimed still made
// three writes of every 20 deliveries where two do. The price: a Worker
// that dies between sends and their record sends those again once their
// claims lapse, up to a batch (Worker.Batch, DefaultBatch) where it was
// one. Each carries its stable delivery id (the webhook's
// X-Dealctl-Delivery, the e-mail's Message-ID) for the receiver to drop
// repeats by (docs/server.md, "Notifications"). A record that fails while
// the database is away keeps its deliveries to record before anything is
// claimed or sent again, as a single one was kept.
//
// recordWithin is how long the oldest unrecorded delivery waits for the
// rest of its batch: once a send ends past it, what was sent is
// recorded, so a slow sender's deliveries (a webhook's, a mail server's)
// are recorded one or two at a time.
const recordWithin = 100 * time.Millisecond

// sentBatch is the deliveries of a run not yet recorded.
type sentBatch struct {
	w     *Worker
	held  *claimHold
	rows  []store.Notification
	first time.Time // when the oldest unrecorded delivery was sent
}

// add notes a delivery, and records the deliveries noted once the whole
// claimed batch is or the oldest has waited recordWithin; an error says
// the record failed and the deliveries wait in the Worker's unrecorded
// set.
func (b *sentBatch) add(ctx context.Context, n store.Notification) error {
	now := b.w.now()
	if len(b.rows) == 0 {
		b.first = now
	}
	b.rows = append(b.rows, n)
	if len(b.rows) < b.w.batch() && now.Sub(b.first) < recordWithin {
		return nil
	}
	return b.record(ctx)
}

// record writes the batch's deliveries, delivered now.
func (b *sentBatch) record(ctx context.Context) error {
	if len(b.rows) == 0 {
		return nil
	}
	rows := b.rows
	b.rows = nil
	at := b.w.now()
	ids := make([]string, len(rows))
	for i, n := range rows {
		ids[i] = n.ID
	}
	err := b.w.Store.MarkDelivered(ctx, at, ids...)
	if err != nil {
		for _, id := range ids {
			b.w.unrecorded.add(id, at)
		}
		err = errors.Join(errUnrecorded, fmt.Errorf("notify: recording %d deliveries: %w", len(ids), err))
	}
	for _, n := range rows {
		b.held.settle(n)
	}
	return err
}
