package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// shownNumbers is the numbers of the rows the list shows, in order.
func shownNumbers(m *Model) string {
	return numbersShown(m.list)
}

// Each filter key narrows the list as `dealctl requests ls` would, on the
// Pelican deal as Alice (the server's clock is 2027-03-01, so 1.2 and 2.3
// are overdue), and esc takes the filters off again.
func TestEachFilter(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	for _, c := range []struct {
		name   string
		keys   []string
		status string // what the status bar says
		want   string
	}{
		{"mine", []string{"m"}, "filter: mine", "1 1.1 1.11 2 2.3"},
		{"overdue", []string{"!"}, "filter: overdue", "1 1.2 2 2.3"},
		{"priority low", []string{"p"}, "filter: low priority", "1 1.2 1.10 2 2.4"},
		{"priority high", []string{"p", "p", "p"}, "filter: high priority", "1 1.11 2 2.3"},
		{"category legal", []string{"c", "c"}, "filter: legal", "1 1.1 1.2 1.10 1.11"},
		{"category tax", []string{"c", "c", "c"}, "filter: tax", "2 2.3 2.4"},
		{"status partial", []string{"f", "f"}, "filter: partial", "2 2.3"},
		{"mine and overdue", []string{"m", "!"}, "filter: mine, overdue", "2 2.3"},
		// Sorted, the list is flat: no section headings.
		{"sort by due date", []string{"o"}, "sort: due", "1.2 2.3 1.11 1.1 1.10 2.4"},
		{"sort by priority", []string{"o", "o"}, "sort: priority", "1.11 2.3 1.1 1.2 1.10 2.4"},
		{"overdue, by due date", []string{"!", "o"}, "sort: due", "1.2 2.3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := start(t, ts.options(t, "alice", "Pelican"), 100, 30)
			s.waitFor("Tax returns")
			s.keys(c.keys...)
			s.waitFor(c.status)
			m := s.quit()
			if got := shownNumbers(m); got != c.want {
				t.Errorf("after %v the list shows %q, want %q", c.keys, got, c.want)
			}
			if r := m.current(); r == nil || r.Kind == "section" {
				t.Errorf("the cursor is not on a request after filtering: %+v", r)
			}
		})
	}
	t.Run("esc clears", func(t *testing.T) {
		s := start(t, ts.options(t, "alice", "Pelican"), 100, 30)
		s.waitFor("Tax returns")
		s.keys("m", "!", "p", "c")
		s.waitFor("mine, overdue")
		s.keys("esc")
		s.waitFor("filter: all")
		m := s.quit()
		if got := shownNumbers(m); got != "1 1.1 1.2 1.10 1.11 2 2.3 2.4" {
			t.Errorf("esc left the list at %q", got)
		}
	})
}

// "/1.1" is 1.1, not 1.10 or 1.11 (which match as text too), even with
// the cursor on 1.11 when the search starts.
func TestSearchJumpsToTheExactNumber(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "alice", "Pelican"), 100, 30)
	s.waitFor("Tax returns")
	s.keys("j", "j", "j")
	s.waitFor("▸ 1.11")
	s.keys("/", "1", ".", "1", "enter")
	s.waitFor("search: 1.1")
	m := s.quit()
	if r := m.current(); r == nil || r.Number != "1.1" {
		t.Fatalf("/1.1 put the cursor on %v, want 1.1", r)
	}
	if got := shownNumbers(m); !strings.Contains(got, "1.11") {
		t.Errorf("the search should still show what matches as text: %q", got)
	}
	// Typing on narrows to the longer number.
	s = start(t, ts.options(t, "alice", "Pelican"), 100, 30)
	s.waitFor("Tax returns")
	s.keys("/", "1", ".", "1", "1", "enter")
	s.waitFor("search: 1.11")
	if r := s.quit().current(); r == nil || r.Number != "1.11" {
		t.Fatalf("/1.11 put the cursor on %v", r)
	}
}

// A paste into the search narrows the list as typing does.
func TestPasteIntoSearchNarrows(t *testing.T) {
	t.Parallel()
	m := loaded(t, bigList(120), 100, 30)
	m.Update(keyMsg("/"))
	m.Update(tea.PasteMsg{Content: "request 57:"})
	if got := numbersShown(m.list); got != "2 2.7" {
		t.Errorf("after pasting, the list shows %q, want %q", got, "2 2.7")
	}
}
