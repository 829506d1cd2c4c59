package digest

import (
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/domain"
)

func TestParseTimeOfDay(t *testing.T) {
	good := map[string]TimeOfDay{"07:00": {7, 0}, "7:30": {7, 30}, "7": {7, 0}, "00:00": {0, 0}, "23:59": {23, 59}, " 18:05 ": {18, 5}}
	for in, want := range good {
		got, err := ParseTimeOfDay(in)
		if err != nil || got != want {
			t.Errorf("ParseTimeOfDay(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "24:00", "7:60", "7:5", "07:00:00", "-1", "seven", "7am", "007:00", "07:0x", "+7:00"} {
		if got, err := ParseTimeOfDay(in); err == nil || !strings.Contains(err.Error(), "HH:MM") {
			t.Errorf("ParseTimeOfDay(%q) = %v, %v; want an error showing HH:MM", in, got, err)
		}
	}
	if s := (TimeOfDay{7, 5}).String(); s != "07:05" {
		t.Errorf("String() = %q", s)
	}
}

// FuzzParseTimeOfDay: whatever it is given, ParseTimeOfDay either fails
// or returns a valid time of day that prints back to itself.
func FuzzParseTimeOfDay(f *testing.F) {
	for _, s := range []string{"07:00", "7", "23:59", "24:00", "7:5", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseTimeOfDay(s)
		if err != nil {
			return
		}
		if got.Hour < 0 || got.Hour > 23 || got.Minute < 0 || got.Minute > 59 {
			t.Fatalf("ParseTimeOfDay(%q) = %v", s, got)
		}
		if again, err := ParseTimeOfDay(got.String()); err != nil || again != got {
			t.Fatalf("%v does not parse back: %v, %v", got, again, err)
		}
	})
}

// TestSlotDaysAcrossDST: counting days to a due date is by calendar
// date, not by 24-hour periods, on the days clocks change.
func TestSlotDaysAcrossDST(t *testing.T) {
	loc, _ := time.LoadLocation("Europe/London")
	// 07:00 on 28 March, the day before the spring change.
	sl := slotOf(time.Date(2026, 3, 28, 8, 0, 0, 0, time.UTC), loc, DefaultAt)
	if sl.day != "2026-03-28" || !sl.at.Equal(time.Date(2026, 3, 28, 7, 0, 0, 0, time.UTC)) {
		t.Fatalf("slot %+v", sl)
	}
	for date, want := range map[string]int{"2026-03-28": 0, "2026-03-29": 1, "2026-03-30": 2, "2026-03-27": -1, "2026-04-03": 6} {
		if got, ok := domain.DaysBetween(sl.day, date); !ok || got != want {
			t.Errorf("DaysBetween(%s) = %d, %v; want %d", date, got, ok, want)
		}
	}
	if _, ok := domain.DaysBetween(sl.day, "2026-02-30"); ok {
		t.Errorf("DaysBetween takes a date that does not exist")
	}
	// After the change the slot is 07:00 BST, 06:00 UTC.
	sl = slotOf(time.Date(2026, 3, 30, 6, 30, 0, 0, time.UTC), loc, DefaultAt)
	if !sl.at.Equal(time.Date(2026, 3, 30, 6, 0, 0, 0, time.UTC)) {
		t.Errorf("slot after the change at %s, want 06:00 UTC", sl.at.UTC())
	}
}
