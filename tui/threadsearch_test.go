package tui

import (
	"strings"
	"testing"
)

// typeSearch types / and text, then enter.
func typeSearch(s *session, text string) {
	s.keys("/")
	s.tm.Type(text)
	s.keys("enter")
}

// Enter on a search no row's own fields hold asks the server's search:
// the request whose thread holds the words is listed, the cursor goes to
// it, and its conversation opens at the matched message.
func TestSearchJumpsToTheMatchedMessage(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "bob", "Pelican"), 100, 24)
	s.waitFor("Tax returns")
	typeSearch(s, "correspondence")
	s.waitFor("1 request holds correspondence in its conversation")
	s.waitFor("Thanks. Please include")
	m := s.quit()
	if r := m.current(); r == nil || r.Number != "2.3" || m.focus != paneDetail {
		t.Fatalf("the cursor is on %+v, focus %v", r, m.focus)
	}
	if got := shownNumbers(m); got != "2 2.3" {
		t.Errorf("the list shows %q", got)
	}
	v := screen(t, m)
	if strings.Contains(v, "Which years exactly") || !strings.Contains(v, "correspondence") {
		t.Errorf("the detail pane is not at the matched message:\n%s", v)
	}
	if m.detail.YOffset() == 0 {
		t.Error("the detail pane did not scroll")
	}
}

// The counterparty's search never finds the owner's internal note; the
// owner's does, and a local match keeps the cursor where the user put it.
func TestSearchThreadsAsEachSideSees(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "bob", "Pelican"), 120, 35)
	s.waitFor("Tax returns")
	typeSearch(s, "amended")
	s.waitFor("No message holds amended")
	s.quit()

	s = start(t, ts.options(t, "alice", "Pelican"), 120, 35)
	s.waitFor("Tax returns")
	typeSearch(s, "amended")
	s.waitFor("1 request holds amended")
	s.waitFor("INTERNAL NOTE")
	m := s.quit()
	if r := m.current(); r == nil || r.Number != "2.3" {
		t.Fatalf("the cursor is on %+v", r)
	}

	// "tax" is in 2.3's title and thread: the row matched by its own
	// fields, the list stays in charge (no jump into the thread).
	s = start(t, ts.options(t, "alice", "Pelican"), 120, 35)
	s.waitFor("Tax returns")
	typeSearch(s, "tax")
	s.waitFor("1 request holds tax")
	m = s.quit()
	if got := shownNumbers(m); got != "2 2.3" || m.focus != paneList {
		t.Errorf("the list shows %q, focus %v", got, m.focus)
	}
}
