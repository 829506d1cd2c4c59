package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

// groupTest is a SQLite store with a scratch table the writes fill.
type groupTest struct {
	t  *testing.T
	db *DB
}

func newGroupTest(t *testing.T) *groupTest {
	db := openSQLiteTest(t)
	if _, err := db.write.Exec("CREATE TABLE grouped_rows (n INTEGER NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	return &groupTest{t: t, db: db}
}

// insert is a write of row n that then does what after says.
func (g *groupTest) insert(ctx context.Context, n int, after func(tx *sql.Tx) error) error {
	return g.db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "INSERT INTO grouped_rows (n) VALUES (?)", n); err != nil {
			return err
		}
		if after != nil {
			return after(tx)
		}
		return nil
	})})
}

func (g *groupTest) rows() []int {
	g.t.Helper()
	rows, err := g.db.read.Query("SELECT n FROM grouped_rows ORDER BY n")
	if err != nil {
		g.t.Fatal(err)
	}
	defer rows.Close()
	var got []int
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			g.t.Fatal(err)
		}
		got = append(got, n)
	}
	return got
}

// queued waits until n writes wait in the group's queue.
func (g *groupTest) queued(n int) {
	g.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		g.db.group.mu.Lock()
		got := len(g.db.group.queue)
		g.db.group.mu.Unlock()
		if got >= n {
			return
		}
	}
	g.t.Fatalf("fewer than %d writes queued", n)
}

// insertQueued starts a write of row n and returns once it is the
// queue's nth write; its outcome comes on the channel returned.
func (g *groupTest) insertQueued(n, nth int) <-chan error {
	done := make(chan error, 1)
	go func() { done <- g.insert(context.Background(), n, nil) }()
	g.queued(nth)
	return done
}

// holdWriter starts a write that waits, inside its group, until
// released, so that the writes that come meanwhile queue behind it.
func (g *groupTest) holdWriter() (release func()) {
	running, proceed, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- g.db.writeTx(context.Background(), writeOp{fn: noDeal(func(context.Context, *sql.Tx) error {
			close(running)
			<-proceed
			return nil
		})})
	}()
	<-running
	return func() {
		close(proceed)
		if err := <-done; err != nil {
			g.t.Error(err)
		}
	}
}

var errWriteRefused = errors.New("refused by the write itself")

// Writes that queue behind another are committed together, and one that
// fails in the group is rolled back alone.
func TestGroupedWritesFailAlone(t *testing.T) {
	g := newGroupTest(t)
	release := g.holdWriter()
	const writers = 12
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for n := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var after func(*sql.Tx) error
			if n%3 == 2 {
				after = func(*sql.Tx) error { return errWriteRefused }
			}
			errs[n] = g.insert(context.Background(), n, after)
		}()
	}
	g.queued(1 + writers)
	release()
	wg.Wait()
	var want []int
	for n, err := range errs {
		switch {
		case n%3 == 2 && !errors.Is(err, errWriteRefused):
			t.Errorf("write %d: %v, want its own refusal", n, err)
		case n%3 != 2 && err != nil:
			t.Errorf("write %d: %v", n, err)
		case n%3 != 2:
			want = append(want, n)
		}
	}
	if got := g.rows(); !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v (the refused writes' rows rolled back, the others kept)", got, want)
	}
}

// When SQLite loses the whole transaction, every write of the group
// fails, those before the one that lost it too: none was reported
// written.
func TestGroupLostWholeFailsEveryWrite(t *testing.T) {
	g := newGroupTest(t)
	if err := g.insert(context.Background(), 100, nil); err != nil {
		t.Fatal(err)
	}
	release := g.holdWriter()
	const writers = 5
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		n := i + 1
		wg.Add(1)
		go func() {
			defer wg.Done()
			var after func(*sql.Tx) error
			if n == 3 { // stands for a full disk: SQLite ends the transaction
				after = func(tx *sql.Tx) error {
					if _, err := tx.Exec("ROLLBACK"); err != nil {
						return err
					}
					return errWriteRefused
				}
			}
			errs[i] = g.insert(context.Background(), n, after)
		}()
		g.queued(2 + i)
	}
	release()
	wg.Wait()
	for i, err := range errs {
		if err == nil {
			t.Errorf("write %d reported written, but its group's transaction was lost", i+1)
		}
	}
	if got, want := g.rows(), []int{100}; !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	// The store writes on afterwards.
	if err := g.insert(context.Background(), 7, nil); err != nil {
		t.Fatal(err)
	}
}

// A waiting write whose call ends leaves the queue unwritten; the writes
// behind it are written.
func TestGroupWriteLeavesWithItsCall(t *testing.T) {
	g := newGroupTest(t)
	release := g.holdWriter()
	first := make(chan error, 1)
	go func() { first <- g.insert(context.Background(), 0, nil) }()
	g.queued(2)
	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan error, 1)
	go func() { gone <- g.insert(ctx, 1, nil) }()
	g.queued(3)
	later := make(chan error, 1)
	go func() { later <- g.insert(context.Background(), 2, nil) }()
	g.queued(4)
	cancel()
	if err := <-gone; !errors.Is(err, context.Canceled) {
		t.Fatalf("a write whose call ended = %v, want context.Canceled", err)
	}
	release()
	for i, ch := range []chan error{first, later} {
		if err := <-ch; err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	if got, want := g.rows(), []int{0, 2}; !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
}

// Many writers at once: every one is written once, and the queue ends
// empty.
func TestGroupedDealWritesEachCount(t *testing.T) {
	g := newGroupTest(t)
	const writers = 40
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for n := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- g.insert(context.Background(), n, nil)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got := g.rows()
	want := make([]int, writers)
	for i := range want {
		want[i] = i
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows %v, want 0…%d once each", got, writers-1)
	}
	if len(g.db.group.queue) != 0 {
		t.Errorf("%d writes left in the queue", len(g.db.group.queue))
	}
}

// Writes are written in the order they came, single statements
// (execWrite) among them, which database/sql's pool (a random waiter
// gets the freed connection) does not do.
func TestGroupWritesInArrivalOrder(t *testing.T) {
	g := newGroupTest(t)
	release := g.holdWriter()
	const writers = 8
	errs := make(chan error, writers)
	for n := range writers {
		go func() {
			if n%2 == 0 {
				_, err := g.db.execWrite(context.Background(), "INSERT INTO grouped_rows (n) VALUES (?)", n)
				errs <- err
				return
			}
			errs <- g.insert(context.Background(), n, nil)
		}()
		g.queued(2 + n) // writer n waits before writer n+1 comes
	}
	release()
	for range writers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	rows, err := g.db.read.Query("SELECT n FROM grouped_rows ORDER BY rowid")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []int
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		got = append(got, n)
	}
	if want := []int{0, 1, 2, 3, 4, 5, 6, 7}; !slices.Equal(got, want) {
		t.Errorf("written in the order %v, want %v", got, want)
	}
}

// A write whose call ends while its statements run is written whole, and
// so are the other writes of its group: once a write's turn has come,
// its statements are not interrupted (steady). Alone, the same.
func TestGroupWriteEndingMidwayIsWritten(t *testing.T) {
	for _, grouped := range []bool{true, false} {
		g := newGroupTest(t)
		var release func()
		if grouped {
			release = g.holdWriter()
		}
		ctx, cancel := context.WithCancel(context.Background())
		ending := make(chan error, 1)
		go func() {
			ending <- g.db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
				if _, err := tx.ExecContext(ctx, "INSERT INTO grouped_rows (n) VALUES (1)"); err != nil {
					return err
				}
				cancel() // the call ends between two statements of its write
				_, err := tx.ExecContext(ctx, "INSERT INTO grouped_rows (n) VALUES (2)")
				return err
			})})
		}()
		want := []int{1, 2}
		if grouped {
			g.queued(2)
			other := g.insertQueued(3, 3)
			release()
			if err := <-other; err != nil {
				t.Errorf("the other write of the group: %v", err)
			}
			want = []int{1, 2, 3}
		}
		if err := <-ending; err != nil {
			t.Errorf("grouped %v: the write whose call ended midway = %v, want it written", grouped, err)
		}
		if got := g.rows(); !slices.Equal(got, want) {
			t.Errorf("grouped %v: rows %v, want %v", grouped, got, want)
		}
		cancel()
	}
}
