package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// The thread of 2.3 on Pelican is longer than the detail pane at 120×35,
// the size issue 13 reproduced the lost end of a thread at.

const lastSeeded = "Received. FY2023"

// openTaxReturns opens the conversation of 2.3 as key.
func openTaxReturns(t *testing.T, ts *testServer, key string) *session {
	t.Helper()
	s := start(t, ts.options(t, key, "Pelican"), 120, 35)
	s.waitFor("Tax returns")
	s.keys("j", "j", "j", "j", "j", "enter")
	s.waitFor("Which years exactly")
	return s
}

// After posting, the new message shows at once, and G reaches it again
// after scrolling away: the detail pane had kept the answer form's
// height, taller than the pane drawn, so its last lines were cut off.
func TestPostThenGShowsTheNewMessage(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := openTaxReturns(t, ts, "alice")
	s.keys("a")
	s.waitFor("^S send")
	s.tm.Type("FY2023 follows on Friday.")
	s.keys("ctrl+p", "ctrl+s")
	s.waitFor("Answer posted on 2.3; status unchanged (partial)")
	s.waitFor("FY2023 follows on Friday.")
	s.keys("g")
	s.waitGone("FY2023 follows on Friday.")
	s.keys("G")
	s.waitFor("FY2023 follows on Friday.")
	m := s.quit()
	if m.focus != paneDetail || !m.detail.AtBottom() {
		t.Errorf("G should leave the detail pane at the end of the thread (focus %v, at bottom %v)", m.focus, m.detail.AtBottom())
	}
	if l := m.layout(); m.detail.Height() != l.detailH {
		t.Errorf("the detail pane is %d lines high, the layout gives it %d", m.detail.Height(), l.detailH)
	}
	if c := m.convo[m.currentID()]; c == nil || len(c.msgs) != 7 {
		t.Fatalf("the thread was not read again after the post: %+v", c)
	}
	v := screen(t, m)
	if !strings.Contains(v, "FY2023 follows on Friday.") || !strings.Contains(v, lastSeeded) {
		t.Errorf("the end of the thread is not on screen:\n%s", v)
	}
}

// An internal note moves nothing, and the status line says so rather than
// "it is now partial".
func TestInternalNoteSaysTheStatusIsUnchanged(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := openTaxReturns(t, ts, "alice")
	s.keys("a", "ctrl+k", "ctrl+k", "ctrl+k")
	s.waitFor("kind: internal_note")
	s.tm.Type("Ask the accountants about FY2023.")
	s.keys("ctrl+s")
	s.waitFor("Internal note posted on 2.3; status unchanged (partial)")
	s.waitFor("Ask the accountants about FY2023.")
	m := s.quit()
	if r := m.current(); r.Status != api.StatusPartial {
		t.Errorf("an internal note moved 2.3 to %s", r.Status)
	}
	// The note stands out: a tag on its header and a bar down its lines,
	// which show without colour.
	v := screen(t, m)
	if !strings.Contains(v, "┃  INTERNAL NOTE  Alice Sato") {
		t.Errorf("the internal note has no tag:\n%s", v)
	}
	if !hasLine(v, "┃", "Ask the accountants about FY2023.") {
		t.Errorf("the internal note's text has no bar:\n%s", v)
	}
}

// A reader at the end of the thread stays at the end through a resize.
func TestResizeKeepsTheEndOfTheThread(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := openTaxReturns(t, ts, "alice")
	s.keys("G")
	s.waitFor(lastSeeded)
	for _, size := range [][2]int{{100, 30}, {160, 40}, {80, 24}} {
		s.resizeTo(size[0], size[1])
		s.waitFor(lastSeeded)
	}
	m := s.quit()
	if !m.detail.AtBottom() {
		t.Errorf("after resizing the detail pane left the end of the thread")
	}
	if !strings.Contains(screen(t, m), lastSeeded) {
		t.Errorf("the newest message is not shown after resizing:\n%s", screen(t, m))
	}
}

// r reads the open thread again: a message posted elsewhere shows, at
// the end where the reader was.
func TestRefreshShowsANewMessage(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := openTaxReturns(t, ts, "alice")
	s.keys("G")
	s.waitFor(lastSeeded)
	bob := ts.options(t, "bob", "Pelican")
	rows, err := bob.Client.Requests(context.Background(), bob.Deal.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Number == "2.3" {
			in := api.MessageCreate{Text: api.Some("One more: the FY2020 return, please."), Kind: api.Some(api.MessageQuestion)}
			if _, err := bob.Client.PostMessage(context.Background(), bob.Deal.ID, r.ID, in); err != nil {
				t.Fatal(err)
			}
		}
	}
	s.keys("r")
	s.waitFor("the FY2020 return, please.")
	m := s.quit()
	if !m.detail.AtBottom() {
		t.Errorf("the refresh moved the reader away from the end of the thread")
	}
}

// hasLine reports a line of screen that starts with prefix and holds text.
func hasLine(screen, prefix, text string) bool {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, prefix) && strings.Contains(l, text) {
			return true
		}
	}
	return false
}
