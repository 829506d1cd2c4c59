package digest

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// step is how far the fake clock moves between runs, as a server's
// ticker would (a minute) but coarser, to keep the tests quick.
const step = 10 * time.Minute

// runFromTo runs s at every step from from up to (not including) to.
func runFromTo(t *testing.T, s *Scheduler, clk *clock, from, to time.Time) {
	t.Helper()
	for at := from; at.Before(to); at = at.Add(step) {
		clk.Set(at)
		runOnce(t, s)
	}
}

// sentAt lists when bob's digests were queued, in loc.
func sentAt(t *testing.T, w *seeded, loc *time.Location) []time.Time {
	t.Helper()
	var out []time.Time
	for _, n := range digestsFor(digests(t, w.st, w.deal()), w.person("bob")) {
		out = append(out, n.CreatedAt.In(loc))
	}
	return out
}

// TestDigestAcrossDST: with a fake clock stepping through days on which
// the clocks change, bob's digest goes at 07:00 local time (queued in
// the first run after the minute's settle), once every local day: the
// day the clocks change included, whether that day has 23 or 25 hours.
func TestDigestAcrossDST(t *testing.T) {
	cases := []struct {
		zone  string
		first time.Time // a local date two days before the change
	}{
		{"Europe/London", time.Date(2026, 3, 27, 0, 0, 0, 0, time.UTC)},     // 29 March: 01:00 GMT → 02:00 BST
		{"Europe/London", time.Date(2026, 10, 23, 0, 0, 0, 0, time.UTC)},    // 25 October: 02:00 BST → 01:00 GMT
		{"America/New_York", time.Date(2026, 3, 6, 0, 0, 0, 0, time.UTC)},   // 8 March
		{"America/New_York", time.Date(2026, 10, 30, 0, 0, 0, 0, time.UTC)}, // 1 November
		{"Australia/Sydney", time.Date(2026, 4, 3, 0, 0, 0, 0, time.UTC)},   // 5 April: 03:00 AEDT → 02:00 AEST
	}
	const days = 4
	for _, tc := range cases {
		t.Run(tc.zone+"/"+tc.first.Format("Jan"), func(t *testing.T) {
			loc, err := time.LoadLocation(tc.zone)
			if err != nil {
				t.Fatal(err)
			}
			y, m, d := tc.first.Date()
			start := time.Date(y, m, d, 0, 0, 0, 0, loc)
			end := start.AddDate(0, 0, days)
			if end.Sub(start) == days*24*time.Hour {
				t.Fatalf("%s has no clock change between %s and %s: the case tests nothing", tc.zone, start, end)
			}
			st, _ := openSQLite(t)
			clk := newClock(start.Add(-time.Hour))
			w := seed(t, st, testWorld(tc.zone), clk.Now())
			runFromTo(t, newScheduler(st, clk), clk, start, end)

			got := sentAt(t, w, loc)
			if len(got) != days {
				t.Fatalf("%d digests over %d local days, want one a day: %v", len(got), days, got)
			}
			for i, at := range got {
				wantDate := start.AddDate(0, 0, i).Format(time.DateOnly)
				wall := at.Hour()*60 + at.Minute()
				if at.Format(time.DateOnly) != wantDate || wall < 7*60+1 || wall > 7*60+1+int(step/time.Minute) {
					t.Errorf("digest %d queued at %s local, want %s between 07:01 and 07:11", i, at.Format(time.DateTime+" MST"), wantDate)
				}
			}
		})
	}
}

// TestDigestInASkippedHour: a digest time the spring change skips (01:30
// in London on 29 March 2026) still gets that day's digest, once.
func TestDigestInASkippedHour(t *testing.T) {
	loc, _ := time.LoadLocation("Europe/London")
	st, _ := openSQLite(t)
	start := time.Date(2026, 3, 28, 0, 0, 0, 0, loc)
	clk := newClock(start.Add(-time.Hour))
	w := seed(t, st, testWorld("Europe/London"), clk.Now())
	s := newScheduler(st, clk)
	s.At = TimeOfDay{Hour: 1, Minute: 30}
	runFromTo(t, s, clk, start, start.AddDate(0, 0, 3))
	got := sentAt(t, w, loc)
	var dates []string
	for _, at := range got {
		dates = append(dates, at.Format(time.DateOnly))
	}
	if len(dates) != 3 || dates[0] != "2026-03-28" || dates[1] != "2026-03-29" || dates[2] != "2026-03-30" {
		t.Fatalf("digests at %v, want one on each of 28, 29 and 30 March", got)
	}
	if h := got[1].Hour(); h != 2 {
		t.Errorf("the 29 March digest went at %s; want 02:3x BST, the skipped 01:30 taken an hour later", got[1].Format(time.Kitchen))
	}
}

// zoneCase is a deal moved from one zone to another between digests.
type zoneCase struct {
	name     string
	from, to string
	start    time.Time   // the clock's first run
	change   time.Time   // when the world is re-applied with zone to
	want     []time.Time // when digests are due (07:00 local; queued after the settle)
}

// marchUTC is h:00 UTC on d March 2026.
func marchUTC(d, h int) time.Time { return time.Date(2026, 3, d, h, 0, 0, 0, time.UTC) }

// TestDigestTimezoneChanged: a deal whose zone is changed between two
// digests gets the next one at 07:00 in the new zone, and never a second
// one on a local date that already had one.
func TestDigestTimezoneChanged(t *testing.T) {
	utc := marchUTC
	cases := []zoneCase{
		// Westward: Tokyo's 07:00 on the 10th is 22:00 UTC (and London)
		// on the 9th. At 23:00 UTC the deal moves to London, where it is
		// still the 9th, which has had its digest: the next is London's
		// 07:00 on the 10th.
		{"Tokyo to London", "Asia/Tokyo", "Europe/London", utc(8, 21), utc(9, 23),
			[]time.Time{utc(8, 22), utc(9, 22), utc(10, 7)}},
		// An hour west: Berlin's 07:00 is 06:00 in London, before London's
		// 07:00 but on the same date: no second digest that day.
		{"Berlin to London", "Europe/Berlin", "Europe/London", utc(9, 0), utc(9, 10),
			[]time.Time{utc(9, 6), utc(10, 7)}},
		// Eastward: London's digest on the 9th at 07:00 UTC; at noon the
		// deal moves to Tokyo, where it is 21:00 on the 9th: the next one
		// is Tokyo's 07:00 on the 10th.
		{"London to Tokyo", "Europe/London", "Asia/Tokyo", utc(9, 0), utc(9, 12),
			[]time.Time{utc(9, 7), utc(9, 22)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { onEachStore(t, tc.run) })
	}
}

// run steps the clock from start to noon UTC on the 10th, re-applying
// the world in the new zone at change, and checks when digests went.
func (tc zoneCase) run(t *testing.T, st *sqlstore.DB) {
	clk := newClock(tc.start.Add(-time.Hour))
	w := seed(t, st, testWorld(tc.from), clk.Now())
	s := newScheduler(st, clk)
	runFromTo(t, s, clk, tc.start, tc.change)
	clk.Set(tc.change)
	seed(t, st, testWorld(tc.to), clk.Now())
	runFromTo(t, s, clk, tc.change, marchUTC(10, 12))

	got := sentAt(t, w, time.UTC)
	if len(got) != len(tc.want) {
		t.Fatalf("digests at %v, want at %v (+ settle)", got, tc.want)
	}
	for i, at := range got {
		if d := at.Sub(tc.want[i]); d < DefaultSettle || d > DefaultSettle+step {
			t.Errorf("digest %d at %s, want within %s after %s", i, at, step, tc.want[i].Add(DefaultSettle))
		}
	}
}

// TestDigestSettles: a run in the minute after the slot queues nothing
// yet; the next one does.
func TestDigestSettles(t *testing.T) {
	st, _ := openSQLite(t)
	clk := newClock(day(8, 12, 0))
	w := seed(t, st, testWorld("UTC"), clk.Now())
	s := newScheduler(st, clk)
	clk.Set(day(9, 7, 0).Add(DefaultSettle - time.Second))
	if rep := runOnce(t, s); rep != (Report{}) {
		t.Errorf("run %s after the slot did %+v, want nothing yet", DefaultSettle-time.Second, rep)
	}
	clk.Set(day(9, 7, 0).Add(DefaultSettle))
	if rep := runOnce(t, s); rep.Sent != 1 {
		t.Errorf("run at the end of the settle did %+v, want bob's digest", rep)
	}
	if n := len(digestsFor(digests(t, st, w.deal()), w.person("bob"))); n != 1 {
		t.Errorf("bob has %d digests", n)
	}
}

// TestDigestZoneThatDoesNotLoad: a deal whose stored zone no longer
// loads still gets its digests, at the hour in UTC, and the log says so
// once rather than every minute.
func TestDigestZoneThatDoesNotLoad(t *testing.T) {
	st, _ := openSQLite(t)
	clk := newClock(day(8, 12, 0))
	w := seed(t, st, testWorld("UTC"), clk.Now())
	ctx := context.Background()
	d, err := st.Deal(ctx, w.deal())
	if err != nil {
		t.Fatal(err)
	}
	d.Timezone = "Mars/Olympus_Mons"
	if err := st.Apply(ctx, func(tx store.AdminTx) error { return tx.PutDeal(d) }); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	s := newScheduler(st, clk)
	s.Log = slog.New(slog.NewTextHandler(&logs, nil))
	runFromTo(t, s, clk, day(9, 6, 0), day(10, 8, 0))
	if got := sentAt(t, w, time.UTC); len(got) != 2 || got[0].Hour() != 7 || got[1].Hour() != 7 {
		t.Errorf("digests at %v, want at 07:xx UTC on the 9th and 10th", got)
	}
	if n := strings.Count(logs.String(), "does not load"); n != 1 {
		t.Errorf("the bad zone was logged %d times, want once:\n%s", n, logs.String())
	}
}
