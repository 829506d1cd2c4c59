package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
)

// postOn posts in on the Falcon request numbered number, as o's key.
func postOn(t *testing.T, o Options, number string, in api.MessageCreate) {
	t.Helper()
	rows, err := o.Client.Requests(context.Background(), o.Deal.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Number == number {
			if _, err := o.Client.PostMessage(context.Background(), o.Deal.ID, r.ID, in); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no request %s", number)
}

// e shows the deal's events, newest first, each naming who, which
// request and what; r reads what is new; esc goes back to the list.
func TestActivityView(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	alice, bob := ts.options(t, "alice", "Falcon"), ts.options(t, "bob", "Falcon")
	postOn(t, alice, "1.2", api.MessageCreate{Text: api.Some("Board is nervous"), Kind: api.Some(api.MessageInternalNote)})
	postOn(t, bob, "1.2", api.MessageCreate{Text: api.Some("Minutes attached"), Partial: api.Some(true)})

	s := start(t, alice, 100, 30)
	s.waitFor("Certificate of incorporation")
	s.keys("e")
	s.waitFor("Bob Reyes  1.2 Board minutes: posted a partial answer")
	s.waitFor("Alice Sato  1.2 Board minutes: posted an internal note")
	// Written while the view is open: r reads it (a 304 before).
	postOn(t, bob, "2.2", api.MessageCreate{Text: api.Some("Q3 management accounts"), Partial: api.Some(true)})
	s.keys("r")
	s.waitFor("Bob Reyes  2.2 Management accounts: posted a partial answer")
	m := s.quit()
	if m.mode != modeActivity {
		t.Fatalf("mode = %v, want the activity view", m.mode)
	}
	shown := screen(t, m)
	// Newest first: the answer on 2.2 above the one on 1.2.
	if strings.Index(shown, "2.2 Management accounts") > strings.Index(shown, "1.2 Board minutes: posted a partial") {
		t.Errorf("the newest event is not on top:\n%s", shown)
	}
	if !strings.Contains(shown, "Activity, newest first — Falcon") {
		t.Errorf("no title:\n%s", shown)
	}

	// The counterparty's view has the answer, and no trace of the note.
	s = start(t, bob, 100, 30)
	s.waitFor("Certificate of incorporation")
	s.keys("e")
	s.waitFor("Bob Reyes  1.2 Board minutes: posted a partial answer")
	s.keys("esc")
	s.waitGone("Activity, newest first")
	m = s.quit()
	if m.mode != modeBrowse {
		t.Errorf("esc left mode %v", m.mode)
	}
	for _, ev := range m.activity.events {
		if strings.Contains(string(ev.Data), "internal_note") {
			t.Errorf("the counterparty was sent an internal note's event: %s", ev.Data)
		}
	}
}

// The view is read again with the list on the refresh clock, and only
// while it is open.
func TestActivityViewRefreshesInTheBackground(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	o := ts.options(t, "alice", "Falcon")
	o.RefreshEvery = 20 * time.Millisecond
	s := start(t, o, 100, 30)
	s.waitFor("Certificate of incorporation")
	s.keys("e")
	s.waitFor("Activity, newest first")
	postOn(t, ts.options(t, "bob", "Falcon"), "2.2", api.MessageCreate{Text: api.Some("Here"), Kind: api.Some(api.MessageQuestion)})
	s.waitFor("Bob Reyes  2.2 Management accounts: posted a question")
	s.quit()
}

// Against a server without the events extension the view says so, and
// the program carries on.
func TestActivityViewWithoutEvents(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	o := ts.options(t, "alice", "Falcon")
	plain, err := client.New(client.Options{BaseURL: ts.url, Key: ts.keys["alice"], NoExtensions: true, MaxRetries: -1, MaxRateWait: -1})
	if err != nil {
		t.Fatal(err)
	}
	o.Client = plain
	s := start(t, o, 80, 24)
	s.waitFor("Certificate of incorporation")
	s.keys("e")
	s.waitFor("does not offer the events extension")
	s.keys("e")
	s.waitGone("does not offer the events extension")
	s.quit()
}
