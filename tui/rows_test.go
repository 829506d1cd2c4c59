package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

func numbersShown(l rowList) string {
	var s []string
	for _, i := range l.visible {
		s = append(s, l.all[i].Number)
	}
	return strings.Join(s, " ")
}

func TestRowListFilter(t *testing.T) {
	t.Parallel()
	rows := bigList(120) // sections 1, 2, 3 with 49, 49 and 19 requests
	l := newRowList(rows)
	if l.shown != 117 || len(l.visible) != 120 {
		t.Fatalf("unfiltered: %d requests, %d rows shown; want 117 and 120", l.shown, len(l.visible))
	}
	cases := []struct {
		status api.RequestStatus
		query  string
		want   string
	}{
		// A match shows under its section's heading; other sections hide.
		{"", "request 7:", "1 1.7"},
		{"", "REQUEST 57:", "2 2.7"},
		{"", "2.10", "2 2.10"},
		// Request 7 is partial; 71, 74 and 77 are the complete ones.
		{api.StatusComplete, "request 7", "2 2.21 2.24 2.27"},
		{"", "no such thing", ""},
	}
	for _, c := range cases {
		got := numbersShown(l.withFilter(filter{status: c.status}, c.query))
		if got != c.want {
			t.Errorf("filter %q search %q: shows %q, want %q", c.status, c.query, got, c.want)
		}
	}
	if got := numbersShown(l.withFilter(filter{status: api.StatusPartial}, "")); strings.Count(got, " ")+1 != 3+39 {
		t.Errorf("partial filter shows %d rows, want 3 headings and 39 requests: %s", strings.Count(got, " ")+1, got)
	}
}

func TestNextFilterCycles(t *testing.T) {
	t.Parallel()
	var seen []string
	f := api.RequestStatus("")
	for range 4 {
		f = nextFilter(f)
		seen = append(seen, string(f))
	}
	if got := strings.Join(seen, ","); got != "open,partial,complete," {
		t.Errorf("f cycles %s, want open,partial,complete and back to all", got)
	}
}

// Due dates are calendar days where the deal is: late on 1 March in
// London is already 2 March in Auckland.
func TestOverdueInTheDealsTimeZone(t *testing.T) {
	t.Parallel()
	due := "2027-03-01"
	r := api.DealRequest{Kind: api.KindRequest, Status: api.StatusOpen, DueDate: &due}
	now := time.Date(2027, 3, 1, 12, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		tz   string
		want bool
	}{{"Europe/London", false}, {"Pacific/Auckland", true}, {"America/Los_Angeles", false}} {
		m := New(t.Context(), Options{Now: func() time.Time { return now }})
		m.setDeal(api.Deal{Timezone: c.tz})
		if got := m.overdue(&r); got != c.want {
			t.Errorf("%s: overdue = %v, want %v", c.tz, got, c.want)
		}
	}
	done := r
	done.Status = api.StatusComplete
	m := New(t.Context(), Options{Now: func() time.Time { return now.AddDate(1, 0, 0) }})
	if m.overdue(&done) {
		t.Errorf("a complete request is never overdue")
	}
}
