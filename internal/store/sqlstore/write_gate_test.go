package sqlstore

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// Writers pass the gate in the order they came to it, one at a time,
// which database/sql's pool (a random waiter gets a freed connection)
// does not do.
func TestWriteGateLetsWritersInInArrivalOrder(t *testing.T) {
	g := newWriteGate()
	release, err := g.enter(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	const writers = 8
	order := make(chan int, writers)
	for i := range writers {
		go func() {
			rel, err := g.enter(context.Background())
			if err != nil {
				t.Error(err)
				return
			}
			order <- i
			rel()
		}()
		// Let writer i block on the gate before writer i+1 comes.
		time.Sleep(20 * time.Millisecond)
	}
	release()
	var got []int
	for range writers {
		got = append(got, <-order)
	}
	if want := []int{0, 1, 2, 3, 4, 5, 6, 7}; !slices.Equal(got, want) {
		t.Errorf("writers passed the gate in the order %v, want %v", got, want)
	}
}

// A writer whose call ends while it waits gives up its place and says why.
func TestWriteGateGivesUpWithTheContext(t *testing.T) {
	g := newWriteGate()
	release, _ := g.enter(context.Background())
	defer release()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := g.enter(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("enter with a lapsed context = %v, want the deadline", err)
	}
}
