package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/display"
)

// Each flow drives the real program against a real server at a fixed
// terminal size, then compares the final screen with a golden file and
// checks the state behind it.

func TestOpenConversation(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "alice", "Falcon"), 100, 30)
	s.waitFor("Certificate of incorporation")
	s.keys("enter")
	s.waitFor("amendments follow")
	m := s.quit()
	if m.focus != paneDetail {
		t.Errorf("enter left the focus on the list")
	}
	if c := m.convo[m.currentID()]; c == nil || len(c.msgs) != 1 {
		t.Fatalf("the conversation of 1.1 was not read: %+v", c)
	}
	golden(t, "open", m)
}

func TestOpenWide(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "alice", "Falcon"), 160, 30)
	s.waitFor("Certificate of incorporation")
	s.keys("j")
	m := s.quit()
	if !m.layout().wide {
		t.Fatalf("160 columns should put the panes side by side")
	}
	golden(t, "open-wide", m)
}

func TestFilterAndSearch(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "alice", "Falcon"), 80, 24)
	s.waitFor("Management accounts")
	s.keys("f", "f") // all → open → partial
	s.waitFor("filter: partial")
	m := s.quit()
	if m.list.filter.status != api.StatusPartial {
		t.Fatalf("filter = %q after f f, want partial", m.list.filter.status)
	}
	var numbers []string
	for _, i := range m.list.visible {
		numbers = append(numbers, m.list.all[i].Number)
	}
	if got := strings.Join(numbers, " "); got != "2 2.1" {
		t.Errorf("partial filter shows %q, want the section and its partial request: %q", got, "2 2.1")
	}
	golden(t, "filter", m)

	s = start(t, ts.options(t, "alice", "Falcon"), 80, 24)
	s.waitFor("Management accounts")
	s.keys("/", "a", "m", "e", "n", "d", "enter")
	s.waitFor("search: amend")
	// enter also asked the server's search of the conversations: its
	// answer is on the status line before the screen is compared.
	s.waitFor("1 request holds amend")
	m = s.quit()
	if r := m.current(); r == nil || r.Number != "1.1" || m.list.shown != 1 {
		t.Fatalf("searching the body for 'amend' should find 1.1 alone; cursor on %v, %d shown", r, m.list.shown)
	}
	golden(t, "search", m)
}

func TestAnswer(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	// The counterparty answers 1.2 in part.
	s := start(t, ts.options(t, "bob", "Falcon"), 100, 30)
	s.waitFor("Board minutes")
	s.keys("j", "a")
	s.waitFor("partial ^P")
	s.tm.Type("Minutes for 2024 attached.")
	s.keys("ctrl+p", "ctrl+s")
	s.waitFor("Answer posted on 1.2; status open → partial")
	// The thread is read again and shows the answer at its end.
	s.waitFor("(response, partial, via API)")
	m := s.quit()
	r := m.current()
	if r == nil || r.Number != "1.2" || r.Status != api.StatusPartial {
		t.Fatalf("after a partial answer 1.2 should be partial: %+v", r)
	}
	if r.LatestAnswer == nil || !strings.Contains(r.LatestAnswer.Preview, "Minutes for 2024") {
		t.Errorf("the row does not show the answer posted: %+v", r.LatestAnswer)
	}
	if m.mode != modeBrowse || m.answer != nil {
		t.Errorf("the form stayed open after sending")
	}
	golden(t, "answer", m)
}

func TestAnswerFormOffersInternalToOwnerOnly(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	for _, c := range []struct {
		key   string
		owner bool
	}{{"alice", true}, {"bob", false}} {
		s := start(t, ts.options(t, c.key, "Falcon"), 100, 30)
		s.waitFor("Board minutes")
		s.keys("j", "a", "ctrl+t", "ctrl+k", "ctrl+k", "ctrl+k")
		s.waitFor("^S send")
		m := s.quit()
		if m.answer == nil {
			t.Fatalf("%s: a did not open the form", c.key)
		}
		if m.answer.internal != c.owner {
			t.Errorf("%s: internal = %v after ^T, want %v", c.key, m.answer.internal, c.owner)
		}
		// Three ^K from response: question, reference, then internal_note
		// for the owner and back to response for the counterparty.
		want := api.MessageResponse
		if c.owner {
			want = api.MessageInternalNote
		}
		if m.answer.kind != want {
			t.Errorf("%s: kind = %s after three ^K, want %s", c.key, m.answer.kind, want)
		}
	}
}

func TestMoveStatus(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	// The counterparty moves forward only: from open, partial or complete.
	s := start(t, ts.options(t, "bob", "Falcon"), 100, 30)
	s.waitFor("Board minutes")
	s.keys("j", "s")
	s.waitFor("Move 1.2 from open to")
	m := s.quit()
	var offered []string
	for _, it := range m.picker.items {
		offered = append(offered, it.label)
	}
	if got := strings.Join(offered, " "); got != "partial complete" {
		t.Errorf("offered moves %q, want the allowed_statuses %q", got, "partial complete")
	}
	golden(t, "move-offer", m)

	s = start(t, ts.options(t, "bob", "Falcon"), 100, 30)
	s.waitFor("Board minutes")
	s.keys("j", "s", "2")
	s.waitFor("1.2 moved from open to complete")
	m = s.quit()
	if r := m.current(); r.Status != api.StatusComplete || len(r.AllowedStatuses) != 0 {
		t.Fatalf("1.2 after the move: %s, allowed %v; want complete with no moves left for the counterparty", r.Status, r.AllowedStatuses)
	}
	if m.list.counts[api.StatusComplete] != 2 {
		t.Errorf("status bar counts not updated: %v", m.list.counts)
	}
	golden(t, "move", m)

	// Nothing is offered where nothing is allowed.
	s = start(t, ts.options(t, "bob-read", "Falcon"), 100, 30)
	s.waitFor("Board minutes")
	s.keys("j", "s")
	s.waitFor("you may not move 1.2")
	m = s.quit()
	if m.picker != nil {
		t.Errorf("a read key was offered moves")
	}
}

func TestErrorInStatusBar(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "alice", "Falcon"), 100, 30)
	s.waitFor("Certificate of incorporation")
	ts.limited.Store(true)
	s.keys("j", "r")
	s.waitFor("error: refresh")
	if got := s.screen.get(); !strings.Contains(got, "rate limited") {
		t.Fatalf("the status line does not say why the refresh failed:\n%s", got)
	}
	m := s.quit()
	if !m.noteErr || !strings.Contains(m.note, "rate limited") {
		t.Fatalf("status line %q, want the rate-limit error", m.note)
	}
	if len(m.list.all) != 7 {
		t.Errorf("the list was lost on a failed refresh: %d rows", len(m.list.all))
	}
	golden(t, "error", m)
}

// The program carries on after an error, and the next key clears it: an
// old message would read as the result of the new action.
func TestMessageClearsOnTheNextKey(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "alice", "Falcon"), 100, 30)
	s.waitFor("Certificate of incorporation")
	ts.limited.Store(true)
	s.keys("r")
	s.waitFor("error: refresh")
	s.keys("j")
	s.waitFor("▸ 1.2")
	m := s.quit()
	if m.note != "" || m.noteErr {
		t.Errorf("the status line still says %q after the next key", m.note)
	}
	if !strings.Contains(screen(t, m), "q quit") {
		t.Errorf("the key hint is not back after the message cleared")
	}
}

func TestTooSmallAndResize(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "alice", "Falcon"), 60, 20)
	s.waitFor("at least 80")
	s.resizeTo(120, 40)
	s.waitFor("Certificate of incorporation")
	m := s.quit()
	if m.width != 120 || m.height != 40 {
		t.Fatalf("size %d×%d after resize", m.width, m.height)
	}
	v := screen(t, m)
	if !strings.Contains(v, "Management accounts") {
		t.Errorf("after growing, the list should show every row:\n%s", v)
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "alice", "Falcon"), 80, 24)
	s.waitFor("Certificate of incorporation")
	s.keys("?")
	s.waitFor("dealctl tui — keys")
	m := s.quit()
	golden(t, "help", m)
}

func TestSwitchDeal(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "alice", ""), 100, 30)
	s.waitFor("Switch to deal")
	s.keys("j", "enter")
	s.waitFor("Customer contracts")
	m := s.quit()
	if m.deal == nil || m.deal.Codename != "Osprey" {
		t.Fatalf("deal after choosing the second: %+v", m.deal)
	}
}

func TestDownloadFileUnderCursor(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	o := ts.options(t, "alice", "Falcon")
	got := make(chan string, 1)
	o.Download = func(_ context.Context, deal api.Deal, request string, f api.File) (string, error) {
		got <- deal.Codename + " " + request + " " + display.FileName(f)
		return "/tmp/x/" + display.FileName(f), nil
	}
	s := start(t, o, 100, 30)
	s.waitFor("Certificate of incorporation")
	s.keys("d")
	s.waitFor("Saved cert.txt")
	s.quit()
	if g := <-got; g != "Falcon 1.1 cert.txt" {
		t.Errorf("downloaded %q, want Falcon 1.1 cert.txt", g)
	}
}

// The list is read again in the background with If-None-Match, and a
// change made elsewhere shows without a key press.
func TestBackgroundRefresh(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	o := ts.options(t, "alice", "Falcon")
	o.RefreshEvery = 20 * time.Millisecond
	s := start(t, o, 100, 30)
	s.waitFor("Certificate of incorporation")
	other := ts.options(t, "bob", "Falcon")
	rows, err := other.Client.Requests(context.Background(), other.Deal.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Number == "2.2" {
			if _, err := other.Client.UpdateRequest(context.Background(), other.Deal.ID, r.ID, api.DealRequestUpdate{Status: api.Some(api.StatusComplete)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	s.waitFor("complete 2")
	m := s.quit()
	if n := ts.conditional.Load(); n == 0 {
		t.Errorf("no refresh carried If-None-Match")
	}
	if m.current().Number != "1.1" {
		t.Errorf("a refresh moved the cursor to %s", m.current().Number)
	}
}

// A refresh that failed is reported until one succeeds; then the error
// goes, since what it reported is over.
func TestRefreshErrorClearsWhenTheServerRecovers(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "alice", "Falcon"), 100, 30)
	s.waitFor("Certificate of incorporation")
	ts.limited.Store(true)
	s.keys("r")
	s.waitFor("error: refresh")
	ts.limited.Store(false)
	s.tm.Send(tickMsg{})
	s.waitFor("j/k move")
	m := s.quit()
	if m.note != "" {
		t.Errorf("the status line still says %q after a good refresh", m.note)
	}
}

// A move goes through the same path as `dealctl status`: a row older
// than the server's copy is read again, and a request already where the
// user moves it is success, not an error.
func TestMoveToWhereItAlreadyIsIsSuccess(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "alice", "Falcon"), 100, 30)
	s.waitFor("Board minutes")
	s.keys("j")
	s.waitFor("▸ 1.2")
	other := ts.options(t, "bob", "Falcon")
	rows, err := other.Client.Requests(context.Background(), other.Deal.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Number == "1.2" {
			if _, err := other.Client.UpdateRequest(context.Background(), other.Deal.ID, r.ID, api.DealRequestUpdate{Status: api.Some(api.StatusComplete)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	s.keys("s")
	s.waitFor("Move 1.2 from open to")
	s.keys("2") // complete, as the row on screen still offers it
	s.waitFor("1.2 is already complete: nothing to move")
	m := s.quit()
	if m.noteErr {
		t.Errorf("a move to where the request already is was reported as an error: %q", m.note)
	}
	if r := m.current(); r.Status != api.StatusComplete {
		t.Errorf("the row was not brought up to date: %s", r.Status)
	}
}
