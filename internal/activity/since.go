package activity

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseSince reads a --since value: a duration back from now ("24h",
// "90m", "7d", "2w"), a calendar day ("2026-11-20", from its midnight in
// loc, the deal's time zone, as due dates are), a timestamp
// ("2026-11-20T09:00:00Z"), "today" or "yesterday" (from that day's
// midnight in loc, as --due-before reads today), or "all" (the zero time:
// the whole history).
func ParseSince(s string, now time.Time, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "all") {
		return time.Time{}, nil
	}
	if loc == nil {
		loc = time.UTC
	}
	switch strings.ToLower(s) {
	case "today":
		return midnight(now, loc), nil
	case "yesterday":
		return midnight(now, loc).AddDate(0, 0, -1), nil
	}
	if d, ok := parseDays(s); ok {
		return now.Add(-d), nil
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return time.Time{}, fmt.Errorf("--since %q: a duration back from now is positive (24h, 7d)", s)
		}
		return now.Add(-d), nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, loc); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("--since %q: give a duration (24h, 7d), a date (2026-11-20, in the deal's time zone), today, yesterday, a time (2026-11-20T09:00:00Z) or all", s)
}

// midnight is the start of now's calendar day in loc.
func midnight(now time.Time, loc *time.Location) time.Time {
	y, m, d := now.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, loc)
}

// parseDays reads "7d" and "2w", which time.ParseDuration does not know.
func parseDays(s string) (time.Duration, bool) {
	if len(s) < 2 {
		return 0, false
	}
	unit := map[byte]time.Duration{'d': 24 * time.Hour, 'w': 7 * 24 * time.Hour}[s[len(s)-1]]
	if unit == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(s[:len(s)-1])
	if err != nil || n < 0 {
		return 0, false
	}
	return time.Duration(n) * unit, true
}
