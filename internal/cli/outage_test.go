package cli

import (
	"strings"
	"testing"
)

// TestCommandsRideOutADatabaseRestart: an answer (a keyed POST) and a
// status move (a PATCH naming the row's version) answered 503
// database_unavailable wait and go again, saying so on stderr, and
// succeed once the database is back; -q keeps stderr quiet.
func TestCommandsRideOutADatabaseRestart(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"answer", "1.1", "-m", "Here it is."},
		{"status", "1.1", "complete"},
	} {
		ts := newFalcon(t)
		ts.set(func(ts *liveAPI) { ts.outage = 2 })
		r := run(t, ts, runOpts{quickRetries: true}, args...)
		r.must(t, 0)
		if n := strings.Count(r.err, "warning: the server's database is not answering; trying again in"); n != 2 {
			t.Errorf("%v: stderr says %d times that it waits, want 2:\n%s", args, n, r.err)
		}
		ts.set(func(ts *liveAPI) { ts.outage = 1 })
		if r := run(t, ts, runOpts{quickRetries: true}, append(args, "-q")...); r.code != 0 || strings.Contains(r.err, "warning") {
			t.Errorf("%v -q: exit %d, stderr %q; want 0 and no warning", args, r.code, r.err)
		}
	}
}
