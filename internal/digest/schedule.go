package digest

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/domain"
)

// TimeOfDay is the local time a digest goes out at.
type TimeOfDay struct{ Hour, Minute int }

// DefaultAt is when digests go out unless told otherwise: 07:00, before
// a deal team's day starts.
var DefaultAt = TimeOfDay{Hour: 7}

// ParseTimeOfDay reads "HH:MM" (24-hour clock) or a bare hour ("7").
func ParseTimeOfDay(s string) (TimeOfDay, error) {
	s = strings.TrimSpace(s)
	bad := fmt.Errorf("%q is not a time of day: give HH:MM on a 24-hour clock, like 07:00 or 18:30", s)
	hh, mm, hasMinutes := strings.Cut(s, ":")
	if !digits(hh, 1, 2) || (hasMinutes && !digits(mm, 2, 2)) {
		return TimeOfDay{}, bad
	}
	h, _ := strconv.Atoi(hh)
	m := 0
	if hasMinutes {
		m, _ = strconv.Atoi(mm)
	}
	if h > 23 || m > 59 {
		return TimeOfDay{}, bad
	}
	return TimeOfDay{Hour: h, Minute: m}, nil
}

// digits reports whether s is between least and most ASCII digits.
func digits(s string, least, most int) bool {
	if len(s) < least || len(s) > most {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (t TimeOfDay) String() string { return fmt.Sprintf("%02d:%02d", t.Hour, t.Minute) }

// slot is one local day's digest time in a deal's zone.
type slot struct {
	day string    // the local date, YYYY-MM-DD: the lease's key and the digest's "today"
	at  time.Time // the instant the digest is for; its "new since" window ends here
}

// slotOf is the digest slot of the local day now falls on in loc. On the
// day clocks move, the wall time still names the slot: 07:00 is 07:00
// whether the day has 23, 24 or 25 hours. A time the change skips (02:30
// where clocks jump from 02:00 to 03:00) is taken as Go normalises it, an
// hour later, still once.
func slotOf(now time.Time, loc *time.Location, at TimeOfDay) slot {
	l := now.In(loc)
	y, m, d := l.Date()
	return slot{
		day: domain.DealToday(now, loc),
		at:  time.Date(y, m, d, at.Hour, at.Minute, 0, 0, loc),
	}
}
