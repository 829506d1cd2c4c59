package sqlstore

import (
	"context"
	"database/sql"
)

// writeGate queues SQLite's writers in the order they came. The write
// pool has one connection, and database/sql hands a freed connection to
// a random waiter, not the first: under load some writes waited seconds
// while later ones went through (on one core, with 2 % posts among list
// polls, posts answered in 200 ms at the median and 1.5 s at the 99th
// percentile, docs/server.md "Scaling with cores"). Goroutines blocked
// sending on a full channel are woken in the order they blocked, so a
// writer that passes this gate first finds the pool's queue at most one
// deep. PostgreSQL has a pool of many connections and no gate (nil).
type writeGate chan struct{}

func newWriteGate() writeGate { return make(writeGate, 1) }

// enter waits for the writer's turn, or for ctx, and returns the release
// to call once the write is committed or rolled back.
func (g writeGate) enter(ctx context.Context) (release func(), err error) {
	if g == nil {
		return func() {}, nil
	}
	select {
	case g <- struct{}{}:
		return func() { <-g }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// execWrite runs one write statement outside a transaction, in its turn.
func (db *DB) execWrite(ctx context.Context, query string, args ...any) (sql.Result, error) {
	release, err := db.gate.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	res, err := db.write.ExecContext(ctx, query, args...)
	if err == nil {
		db.noteWritten()
	}
	return res, err
}
