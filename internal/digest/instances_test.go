package digest

import (
	"context"
	"sync"
	"testing"

	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// TestDigestTwoInstancesSQLite: two instances on one SQLite file, each
// running its scheduler from several goroutines at the same moment,
// queue each person's digest once a day.
func TestDigestTwoInstancesSQLite(t *testing.T) {
	a, path := openSQLite(t)
	b := openDSN(t, path)
	twoInstances(t, a, b)
}

// TestDigestTwoInstancesPostgres is the same on one PostgreSQL database.
func TestDigestTwoInstancesPostgres(t *testing.T) {
	url := pgtest.URL(t)
	a := openDSN(t, url)
	b := openDSN(t, url)
	twoInstances(t, a, b)
}

func twoInstances(t *testing.T, a, b *sqlstore.DB) {
	const days, racers = 3, 4
	clk := newClock(day(8, 12, 0))
	w := seed(t, a, testWorld("Europe/London"), clk.Now())
	// Alice and carol get digests too: something new on their requests
	// every day.
	srv := newAPI(t, a, clk)
	schedulers := []*Scheduler{newScheduler(a, clk), newScheduler(b, clk)}
	var mu sync.Mutex
	var total Report
	for d := 9; d < 9+days; d++ {
		clk.Set(day(d, 6, 0))
		srv.post(keyBob, w.deal(), w.request("2.1"), map[string]any{"kind": "question", "text": "Bob asks alice"})
		clk.Set(day(d, 7, 2))
		var wg sync.WaitGroup
		for i := range racers * len(schedulers) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rep, err := schedulers[i%len(schedulers)].RunOnce(context.Background())
				if err != nil {
					t.Errorf("day %d, racer %d: %v", d, i, err)
				}
				mu.Lock()
				defer mu.Unlock()
				total.Sent += rep.Sent
				total.Empty += rep.Empty
				total.Taken += rep.Taken
			}()
		}
		wg.Wait()
	}
	t.Logf("racers: %+v", total)
	// Bob (overdue work) and alice (a new question) each day; carol has
	// nothing.
	if total.Sent != 2*days || total.Empty != days {
		t.Errorf("the racers together sent %d and found %d empty over %d days, want %d and %d (%+v)",
			total.Sent, total.Empty, days, 2*days, days, total)
	}
	all := digests(t, b, w.deal())
	for _, who := range []string{"alice", "bob"} {
		got := digestsFor(all, w.person(who))
		if len(got) != days {
			t.Errorf("%s has %d digests after %d days, want %d", who, len(got), days, days)
		}
		seen := map[string]bool{}
		for _, n := range got {
			date := n.CreatedAt.Format("2006-01-02")
			if seen[date] {
				t.Errorf("%s has two digests on %s", who, date)
			}
			seen[date] = true
		}
	}
}
