package world

import (
	"testing"
	"time"
)

func TestResolveDate(t *testing.T) {
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	// 20:00 UTC on 10 March is already 11 March in Tokyo.
	now := time.Date(2026, 3, 10, 20, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		loc  *time.Location
		want string
	}{
		{"today", time.UTC, "2026-03-10"},
		{"today", tokyo, "2026-03-11"},
		{"+7d", time.UTC, "2026-03-17"},
		{"-3d", tokyo, "2026-03-08"},
		{"+2w", time.UTC, "2026-03-24"},
		{"2026-12-01", tokyo, "2026-12-01"},
	}
	for _, tc := range cases {
		if err := checkDate(tc.in); err != nil {
			t.Errorf("checkDate(%q) = %v", tc.in, err)
		}
		if got := resolveDate(tc.in, now, tc.loc); got != tc.want {
			t.Errorf("resolveDate(%q, %s) = %s, want %s", tc.in, tc.loc, got, tc.want)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"720h": 720 * time.Hour, "30d": 30 * 24 * time.Hour, "1d12h": 36 * time.Hour, "90m": 90 * time.Minute} {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"d", "soon", "3x", "-d"} {
		if _, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) succeeded", in)
		}
	}
}

func TestResolvePostedAt(t *testing.T) {
	now := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"-2d":                  now.Add(-48 * time.Hour),
		"-90m":                 now.Add(-90 * time.Minute),
		"2026-01-02T03:04:05Z": time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	} {
		if got, err := resolvePostedAt(in, now); err != nil || !got.Equal(want) {
			t.Errorf("resolvePostedAt(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := resolvePostedAt("+2d", now); err == nil {
		t.Error("a future relative posted_at was accepted")
	}
}
