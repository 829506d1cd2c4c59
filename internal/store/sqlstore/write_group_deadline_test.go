package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"modernc.org/sqlite"

	"github.com/dealctl/dealctl/internal/store"
)

// endCallMidStatement is the call that dealctl_test_end_call ends: it
// lets a test end a write's call while SQLite runs one of its
// statements, at a row of the test's choosing, with no timing.
var endCallMidStatement atomic.Pointer[context.CancelFunc]

func init() {
	// dealctl_test_end_call(x) is x, and ends the call held in
	// endCallMidStatement when x is 1.
	sqlite.MustRegisterScalarFunction("dealctl_test_end_call", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		if x, _ := args[0].(int64); x == 1 {
			if end := endCallMidStatement.Load(); end != nil {
				(*end)()
			}
		}
		return args[0], nil
	})
}

// A call that ends while its write's statement runs does not roll back
// the other writes of its group: an interrupted INSERT made SQLite roll
// back the whole transaction, and every write of the group was lost.
// The statement runs to its end, and both writes are written.
func TestGroupOutlivesACallEndingMidStatement(t *testing.T) {
	g := newGroupTest(t)
	release := g.holdWriter()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	endCallMidStatement.Store(&cancel)
	defer endCallMidStatement.Store(nil)
	ending := make(chan error, 1)
	go func() {
		ending <- g.db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
			// 200,000 rows after the call ends: SQLite looks for an
			// interrupt every 1,000 steps.
			_, err := tx.ExecContext(ctx, `INSERT INTO grouped_rows (n)
				SELECT 1 + 0 * SUM(v) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000)
				SELECT dealctl_test_end_call(x) AS v FROM c)`)
			return err
		})})
	}()
	g.queued(2)
	other := g.insertQueued(2, 3)
	release()
	if err := <-ending; err != nil {
		t.Errorf("the write whose call ended in its statement = %v, want it written", err)
	}
	if err := <-other; err != nil {
		t.Errorf("the other write of its group = %v, want it written", err)
	}
	if ctx.Err() == nil {
		t.Fatal("the call did not end: the test tested nothing")
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
	due, _ := ctx.Deadline()
	err := g.db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "INSERT INTO grouped_rows (n) VALUES (1)"); err != nil {
			return err
		}
		time.Sleep(time.Until(due) + 50*time.Millisecond) // past the deadline
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
