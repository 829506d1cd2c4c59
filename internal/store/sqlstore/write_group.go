package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// writeGroup commits SQLite's writes that come while another is being
// written together, in one transaction: group commit.
//
// SQLite has one writer. Each transaction's commit appends every page it
// changed to the log, syncs the log (synchronous=FULL) and, every
// thousand pages, copies the log back into the database: 28 % of a
// post's CPU went to its commit and, on one busy core, a writer waited
// for its core again after each sync while the writers behind it waited
// for it. A group shares one commit: the pages every post changes (the
// deal's row, the list stamps, the ends of the indexes) are written once
// for the group, the log is synced once, and the writers behind wait for
// one turn instead of one each.
//
// Each write of a group runs inside its own savepoint, so one that fails
// (a precondition, a conflict, a bad reference) is rolled back alone and
// the others commit; each caller learns its own write's outcome only
// once the group's commit is done, so a write is never reported before it
// is durable. SQLite rolls a whole transaction back on some errors (a full
// disk, an I/O error, an interrupted statement): the savepoint is gone
// then, and every write of the group fails with that error; none was
// reported yet. A write's statements are not interrupted (steady): its
// context is checked when its turn comes, and a write whose call ended
// by then is skipped; a deadline that passes while its statements run
// no longer rolls back the others of its group. The group's latest
// deadline still ends its transaction, after the statement running, and
// every write of the group then fails with that deadline (groupLost). A
// write alone (no one else waiting) takes no savepoint: on a quiet server
// it runs exactly as it did before groups.
//
// The queue is served in arrival order; the first writer of a group runs
// it (the leader), and hands the turn to the next waiting writer when it
// is done. A waiting writer whose call ends leaves the queue unless a
// leader has taken it into a group already. The queue also keeps the
// writers in the order they came, which database/sql's pool does not: it
// hands its one write connection to a random waiter, and under load some
// writes waited seconds while later ones went through.
type writeGroup struct {
	mu    sync.Mutex
	queue []*groupedWrite // in arrival order; the first ones may be a group being written
}

// maxGroup bounds a group: a long group delays its first writer's answer.
const maxGroup = 64

// groupedWrite is one write waiting in, or written by, a group.
type groupedWrite struct {
	ctx   context.Context
	body  func(ctx context.Context, tx *sql.Tx) error
	taken bool          // a leader took it into a group (under writeGroup.mu)
	lead  chan struct{} // told when it is this write's turn to lead
	done  chan struct{} // closed once err is its outcome
	err   error
}

// inGroup runs body (a write's statements, between BEGIN and COMMIT) in
// the next group and returns its outcome once the group is committed.
func (db *DB) inGroup(ctx context.Context, body func(context.Context, *sql.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	w := &groupedWrite{ctx: ctx, body: body, lead: make(chan struct{}, 1), done: make(chan struct{})}
	g := db.group
	g.mu.Lock()
	g.queue = append(g.queue, w)
	leads := len(g.queue) == 1
	g.mu.Unlock()
	if !leads {
		select {
		case <-w.done: // written in a group another writer led
			return w.err
		case <-w.lead:
		case <-ctx.Done():
			if g.leave(w) {
				return ctx.Err()
			}
			<-w.done
			return w.err
		}
	}
	batch := g.take()
	db.commitGroup(batch)
	g.finish(len(batch))
	return w.err
}

// execWrite runs one write statement in its turn: in a group on SQLite,
// which gives the outbox's delivery records and the idempotency answers a
// share of the posts' commits instead of one commit (and one sync) each.
func (db *DB) execWrite(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if db.group == nil {
		return db.write.ExecContext(ctx, query, args...)
	}
	var res sql.Result
	err := db.inGroup(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		res, err = preparedTx{db, tx}.ExecContext(ctx, query, args...)
		return err
	})
	return res, err
}

// take marks the first writes of the queue as this group's.
func (g *writeGroup) take() []*groupedWrite {
	g.mu.Lock()
	defer g.mu.Unlock()
	batch := make([]*groupedWrite, min(len(g.queue), maxGroup))
	copy(batch, g.queue)
	for _, w := range batch {
		w.taken = true
	}
	return batch
}

// finish takes the group's n writes off the queue and hands the turn to
// the next writer.
func (g *writeGroup) finish(n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.queue = slices.Delete(g.queue, 0, n)
	if len(g.queue) > 0 {
		g.passLead()
	}
}

// leave takes w off the queue, unless a group took it: false then, and
// w's outcome is the group's.
func (g *writeGroup) leave(w *groupedWrite) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if w.taken {
		return false
	}
	for i, q := range g.queue {
		if q == w {
			g.queue = slices.Delete(g.queue, i, i+1)
			// The first of the queue, not taken, was told to lead (or is
			// about to be): the turn goes to the next one.
			if i == 0 && len(g.queue) > 0 {
				g.passLead()
			}
			break
		}
	}
	return true
}

// passLead tells the first waiting writer it leads; g.mu is held.
func (g *writeGroup) passLead() {
	select {
	case g.queue[0].lead <- struct{}{}:
	default: // told already
	}
}

// commitGroup writes batch in one transaction and sets each write's
// outcome.
func (db *DB) commitGroup(batch []*groupedWrite) {
	defer func() {
		for _, w := range batch {
			close(w.done)
		}
	}()
	ctx, cancel := groupContext(batch)
	defer cancel()
	failAll := func(err error) {
		for _, w := range batch {
			if w.err == nil {
				w.err = err
			}
		}
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		failAll(err)
		return
	}
	defer tx.Rollback()
	alone := len(batch) == 1
	for _, w := range batch {
		if w.err = w.ctx.Err(); w.err != nil {
			continue
		}
		if alone {
			if w.err = w.body(steady(w.ctx), tx); w.err != nil {
				w.err = groupLost(ctx, w.err)
				return
			}
			continue
		}
		if err := db.inSavepoint(steady(ctx), tx, w); err != nil {
			failAll(fmt.Errorf("the transaction this write shared with others was lost: %w", groupLost(ctx, err)))
			return
		}
	}
	err = tx.Commit()
	failAll(groupLost(ctx, err))
	if err == nil {
		db.noteWritten()
	}
}

// inSavepoint runs w's body inside a savepoint and sets its outcome; it
// returns an error only when the transaction itself is lost.
func (db *DB) inSavepoint(ctx context.Context, tx *sql.Tx, w *groupedWrite) error {
	in := preparedTx{db, tx}
	if _, err := in.ExecContext(ctx, savepointSQL); err != nil {
		return err
	}
	if w.err = w.body(steady(w.ctx), tx); w.err != nil {
		if _, err := in.ExecContext(ctx, rollbackToSavepointSQL); err != nil {
			return w.err // SQLite rolled the whole transaction back
		}
	}
	_, err := in.ExecContext(ctx, releaseSavepointSQL)
	return err
}

// The savepoint each write of a group runs in.
const (
	savepointSQL           = "SAVEPOINT grouped_write"
	rollbackToSavepointSQL = "ROLLBACK TO grouped_write"
	releaseSavepointSQL    = "RELEASE grouped_write"
)

// steady is ctx without its end, for the statements of a write taken
// into a group. A write's context is checked before its turn (a write
// whose call ended by then is skipped); once its statements start they
// run to the end. An interrupted statement makes SQLite roll back the
// whole transaction, so a deadline that passed in the middle of one
// write failed every write of its group; and the SQLite driver watches a
// statement's context with a goroutine of its own (database/sql one more
// for each row set), two goroutines to start and wake per statement on
// the one connection every write waits for. The group's statements are
// short ones on rows found by key (the one long statement, naming a large
// upload's chunks, runs with its caller's context: PutBlob); the
// transaction itself still ends at the group's latest deadline
// (groupContext, groupLost).
func steady(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// groupLost is err, or the end of the group's context (ctx) when that is
// what lost the transaction: database/sql rolls back a transaction whose
// context ended, once the statement running is done, and what follows
// says only that the transaction is over (sql.ErrTxDone). A deadline is
// an answer the API gives as 503, database_unavailable; "the transaction
// is over" would be a 500.
func groupLost(ctx context.Context, err error) error {
	if ended := ctx.Err(); ended != nil && errors.Is(err, sql.ErrTxDone) {
		return ended
	}
	return err
}

// groupContext bounds the group's transaction (its BEGIN and COMMIT) by
// the latest deadline of its writes, and ends it with no single caller:
// one caller that goes away must not roll back the others' writes.
func groupContext(batch []*groupedWrite) (context.Context, context.CancelFunc) {
	var latest time.Time
	for _, w := range batch {
		d, ok := w.ctx.Deadline()
		if !ok {
			return context.WithCancel(context.WithoutCancel(batch[0].ctx))
		}
		if d.After(latest) {
			latest = d
		}
	}
	return context.WithDeadline(context.WithoutCancel(batch[0].ctx), latest)
}
