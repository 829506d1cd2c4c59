package sqlstore

import (
	"context"
	"sync/atomic"
	"time"
)

// SQLite's log is copied back into the database (a checkpoint) by a
// goroutine of its own, once a second when something was written, rather
// than by the commit that happens to fill the log to a thousand pages.
//
// That commit used to do it: copying the pages and syncing the database
// file took 10 % of posts' CPU, all of it on the one writer, and the
// writes queued behind that commit waited for it (the tail of posts'
// latency). A checkpoint that runs beside the writer (PASSIVE: it waits
// for no one and no one waits for it) leaves the commits alone, and one a
// second copies a page written by many commits (the deal's row, the ends
// of the indexes) once. The commit's own checkpoint stays as a backstop
// (walBackstopPages) in case this one falls behind.

// checkpointEvery is how often the log is copied back when written to.
const checkpointEvery = time.Second

// walBackstopPages is wal_autocheckpoint: the log's size, in pages, at
// which a commit checkpoints anyway (40 MB of 4 KB pages).
const walBackstopPages = 10000

// checkpointer runs the checkpoints of one SQLite store.
type checkpointer struct {
	written atomic.Bool // a write committed since the last checkpoint
	stop    chan struct{}
	done    chan struct{}
}

// startCheckpointer starts db's checkpoints; Close stops them.
func (db *DB) startCheckpointer() {
	c := &checkpointer{stop: make(chan struct{}), done: make(chan struct{})}
	db.checkpoints = c
	go func() {
		defer close(c.done)
		tick := time.NewTicker(checkpointEvery)
		defer tick.Stop()
		for {
			select {
			case <-c.stop:
				return
			case <-tick.C:
			}
			if c.written.Swap(false) {
				db.checkpoint()
			}
		}
	}()
}

// checkpoint copies what it can of the log back into the database. It
// fails only when the database does, which the next write will report.
func (db *DB) checkpoint() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, _ = db.read.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
}

// noteWritten tells the checkpointer a write committed.
func (db *DB) noteWritten() {
	if db.checkpoints != nil {
		db.checkpoints.written.Store(true)
	}
}

// stopCheckpointer stops the checkpoints and waits for one under way.
func (db *DB) stopCheckpointer() {
	if db.checkpoints != nil {
		close(db.checkpoints.stop)
		<-db.checkpoints.done
		db.checkpoints = nil
	}
}
