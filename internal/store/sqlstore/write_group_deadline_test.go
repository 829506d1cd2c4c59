package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// longInsert writes row n with a statement that runs for a while (it
// counts to count first): long enough to outlast a short deadline.
func longInsert(ctx context.Context, tx *sql.Tx, n, count int) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO grouped_rows (n)
		SELECT ? + 0 * COUNT(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT x FROM c)`, n, count)
	return err
}

// A deadline that passes while a write's statement runs does not roll
// back the other writes of its group (an interrupted INSERT made SQLite
// roll back the whole transaction, and every write of the group was
// lost): the write runs to its end, and both are written.
func TestGroupOutlivesAnEarlierDeadline(t *testing.T) {
	g := newGroupTest(t)
	release := g.holdWriter()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	slow := make(chan error, 1)
	go func() {
		slow <- g.db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
			return longInsert(ctx, tx, 1, 3_000_000)
		})})
	}()
	g.queued(2)
	other := g.insertQueued(2, 3)
	release()
	if err := <-slow; err != nil {
		t.Errorf("the write whose deadline passed while it ran = %v, want it written", err)
	}
	if err := <-other; err != nil {
		t.Errorf("the other write of its group = %v, want it written", err)
	}
	if ctx.Err() == nil {
		t.Log("the long statement ended before its deadline: this machine did not test the case")
	}
	if got, want := g.rows(), []int{1, 2}; !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
}

// When the group's latest deadline passes, database/sql ends the
// group's transaction after the statement running: every write of the
// group fails with that deadline (503 through the API, as a store that
// is away), not with "the transaction is over" (500), and none is
// written.
func TestGroupPastItsLastDeadlineFailsAsUnavailable(t *testing.T) {
	g := newGroupTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err := g.db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		if err := longInsert(ctx, tx, 1, 3_000_000); err != nil {
			return err
		}
		time.Sleep(200 * time.Millisecond) // past the deadline for sure
		_, err := tx.ExecContext(ctx, "INSERT INTO grouped_rows (n) VALUES (2)")
		return err
	})})
	if !errors.Is(err, context.DeadlineExceeded) || !store.IsUnavailable(err) {
		t.Errorf("a write alone past its deadline = %v, want the deadline (unavailable)", err)
	}
	if got := g.rows(); len(got) != 0 {
		t.Errorf("rows %v written by a write that failed", got)
	}
}

// A one-row read that must wait for a read connection waits under its
// deadline: it runs without its context's end only while a connection is
// idle (preparedReads.QueryRowContext).
func TestRowReadWaitsForAConnectionUnderItsDeadline(t *testing.T) {
	db := openSQLiteTest(t)
	var n int
	if err := db.reads.QueryRowContext(context.Background(), "SELECT 1").Scan(&n); err != nil {
		t.Fatal(err) // prepared and kept, on a connection free then
	}
	db.read.SetMaxOpenConns(1)
	held, err := db.read.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(5 * time.Second); held.Close() }() // a test that fails, not one that hangs
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = db.reads.QueryRowContext(ctx, "SELECT 1").Scan(&n)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a read waiting for the one connection, held = %v after %v, want its deadline", err, time.Since(start).Round(time.Millisecond))
	}
}
