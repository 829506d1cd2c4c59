package main

import (
	"testing"
	"time"
)

// A cell that was not run (-cells) shows "—" in every figure; one that
// ran shows its figures.
func TestCellFigures(t *testing.T) {
	var none result
	ran := result{calls: 300, seconds: 2, cpuMicros: 81.4, posts: []time.Duration{2 * time.Millisecond, 4 * time.Millisecond}}
	for _, tc := range []struct{ name, got, want string }{
		{"rate, not run", rate(none), "—"},
		{"cpu, not run", cpu(none), "—"},
		{"latencies, no post", latencies(none), "—"},
		{"percent of a cell not run", percent(ran.perSecond(), none.perSecond()), "—"},
		{"percent, neither run", percent(none.perSecond(), none.perSecond()), "—"},
		{"rate", rate(ran), "150"},
		{"cpu", cpu(ran), "81"},
		{"latencies", latencies(ran), "4.0 / 4.0 ms"},
		{"percent", percent(75, ran.perSecond()), "50 %"},
		{"times, not run", times(ran, none), "—"},
		{"times", times(result{calls: 600, seconds: 2}, ran), "2.0×"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}
