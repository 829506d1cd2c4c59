package domain

import (
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// DealLocation is the time zone a deal's due dates fall due in: its own,
// UTC when it names none this build knows (world files check zones, but
// a zone database can change under a running deal).
func DealLocation(timezone string) *time.Location {
	if loc, err := time.LoadLocation(timezone); err == nil {
		return loc
	}
	return time.UTC
}

// DealToday is the calendar day (YYYY-MM-DD) now falls on in loc, a
// deal's time zone: the day Overdue and DueThisWeek compare due dates
// with, in the CLI, the TUI and the digest alike.
func DealToday(now time.Time, loc *time.Location) string {
	return now.In(loc).Format(time.DateOnly)
}

// DueSoonDays is how far ahead "due this week" looks: today and the six
// days after it, so that a Friday's view shows next Thursday's dates as a
// Monday's shows Sunday's.
const DueSoonDays = 7

// DueThisWeek reports a request that is not complete and falls due today
// or in the six days after (`progress`, the daily digest). A section has
// no due date of its own.
func DueThisWeek(r *api.DealRequest, today string) bool {
	if r.Kind != api.KindRequest || r.Status == api.StatusComplete || r.DueDate == nil {
		return false
	}
	days, ok := DaysBetween(today, *r.DueDate)
	return ok && days >= 0 && days < DueSoonDays
}

// DaysBetween counts whole calendar days from the day from to the day to
// (both YYYY-MM-DD): negative when to is earlier. ok is false when either
// does not parse.
func DaysBetween(from, to string) (int, bool) {
	f, err1 := time.Parse(time.DateOnly, from)
	t, err2 := time.Parse(time.DateOnly, to)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	// Both are UTC midnights, so the difference is a whole number of days
	// whatever a deal's zone does in between.
	return int(t.Sub(f).Hours() / 24), true
}
