package world

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DefaultKeyLifetime is how long a key lives when the file gives neither
// expires_at nor expires_in.
const DefaultKeyLifetime = 90 * 24 * time.Hour

// relativeDays parses the relative forms a world file accepts for dates:
// "today", "+7d", "-3d", "+2w". ok is false for anything else.
func relativeDays(s string) (days int, ok bool) {
	if s == "today" {
		return 0, true
	}
	if len(s) < 3 || (s[0] != '+' && s[0] != '-') {
		return 0, false
	}
	unit := 1
	switch s[len(s)-1] {
	case 'd':
	case 'w':
		unit = 7
	default:
		return 0, false
	}
	n, err := strconv.Atoi(s[1 : len(s)-1])
	if err != nil || n < 0 || n > 100_000 {
		return 0, false
	}
	if s[0] == '-' {
		n = -n
	}
	return n * unit, true
}

// checkDate reports whether s is a calendar date or a relative date.
func checkDate(s string) error {
	if _, ok := relativeDays(s); ok {
		return nil
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return fmt.Errorf("%q is not a date (YYYY-MM-DD, or relative: today, +7d, -3d, +2w)", s)
	}
	return nil
}

// resolveDate turns a checked date into YYYY-MM-DD. Relative dates count
// from today in loc — the deal's time zone, where its due dates fall due.
func resolveDate(s string, now time.Time, loc *time.Location) string {
	days, ok := relativeDays(s)
	if !ok {
		return s
	}
	y, m, d := now.In(loc).Date()
	return time.Date(y, m, d+days, 12, 0, 0, 0, time.UTC).Format(time.DateOnly)
}

// ParseDuration is time.ParseDuration that also takes whole days ("30d",
// "1d12h"), since key lifetimes are thought of in days.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	days := 0
	if i := strings.IndexByte(s, 'd'); i > 0 {
		n, err := strconv.Atoi(s[:i])
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q is not a duration (like 720h, 30d or 1d12h)", s)
		}
		days, s = n, s[i+1:]
	}
	var rest time.Duration
	if s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			return 0, fmt.Errorf("%q is not a duration (like 720h, 30d or 1d12h)", s)
		}
		rest = d
	}
	if days > 1_000_000 {
		return 0, fmt.Errorf("%dd is too long", days)
	}
	return time.Duration(days)*24*time.Hour + rest, nil
}

// checkPostedAt reports whether s is an RFC 3339 time or a relative time
// in the past ("-2d", "-3h", "-90m").
func checkPostedAt(s string) error {
	if _, err := resolvePostedAt(s, time.Unix(0, 0)); err != nil {
		return err
	}
	return nil
}

// resolvePostedAt turns posted_at into a time: RFC 3339, or a negative
// offset from now.
func resolvePostedAt(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		if d, err := ParseDuration(rest); err == nil {
			return now.Add(-d).UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time (RFC 3339 like 2026-03-01T09:30:00Z, or relative to now like -2d or -3h)", s)
}
