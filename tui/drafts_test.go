package tui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"
)

// TestDraftKeptOnEscAndResumed: esc leaves the form and keeps what was
// written; a on the same request brings it back with its toggles; ^x
// discards it.
func TestDraftKeptOnEscAndResumed(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "bob", "Falcon"), 100, 30)
	s.waitFor("Board minutes")
	s.keys("j", "a")
	s.waitFor("partial ^P")
	s.tm.Type("Minutes for 2024 to follow.")
	s.keys("ctrl+p", "esc")
	s.waitFor("Draft for 1.2 kept")
	s.keys("a")
	s.waitFor("Your draft for 1.2, as you left it")
	s.waitFor("Minutes for 2024 to follow.")
	s.keys("ctrl+x")
	s.waitFor("Draft for 1.2 discarded")
	s.keys("a")
	s.waitFor("partial ^P")
	m := s.quit()
	if m.answer == nil || m.answer.text.Value() != "" || m.answer.partial {
		t.Fatalf("after ^x, a opened %+v; want an empty form", m.answer)
	}
	if len(m.drafts) != 0 {
		t.Errorf("drafts left after ^x: %d", len(m.drafts))
	}
}

// TestResumedDraftKeepsToggles: the draft comes back as it was left, partial
// and all, and posting it ends the draft.
func TestResumedDraftKeepsToggles(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "bob", "Falcon"), 100, 30)
	s.waitFor("Board minutes")
	s.keys("j", "a")
	s.waitFor("partial ^P")
	s.tm.Type("Minutes for 2024 attached.")
	s.keys("ctrl+p", "esc", "k", "j", "a")
	s.waitFor("Your draft for 1.2")
	s.keys("ctrl+s")
	s.waitFor("Answer posted on 1.2; status open → partial")
	m := s.quit()
	if len(m.drafts) != 0 {
		t.Errorf("the posted draft is still kept")
	}
}

// TestQuitWithDraftAsks: q and ctrl+c with a draft ask before quitting
// (the form's text is kept as a draft first); n goes back, y quits.
func TestQuitWithDraftAsks(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	for _, quitKey := range []string{"q", "ctrl+c"} {
		s := start(t, ts.options(t, "bob", "Falcon"), 80, 24)
		s.waitFor("Board minutes")
		s.keys("j", "a")
		s.waitFor("partial ^P")
		s.tm.Type("Half an answer")
		if quitKey == "q" {
			s.keys("esc") // q is text in the form
			s.waitFor("Draft for 1.2 kept")
		}
		s.keys(quitKey)
		s.waitFor("1 unsent draft (1.2): y quits and loses it")
		s.keys("n")
		s.waitFor("Not quitting")
		s.keys(quitKey)
		s.waitFor("y quits")
		s.keys("y")
		m := s.tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(probe).m
		if d := m.drafts[m.currentID()]; d == nil || d.text.Value() != "Half an answer" {
			t.Errorf("%s: the draft was not kept until the end: %+v", quitKey, d)
		}
	}
}

// TestStatusPickerOffersTheForwardMove: the cursor starts on the first
// move forward (partial → complete), so enter never moves a request back
// by accident.
func TestStatusPickerOffersTheForwardMove(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	s := start(t, ts.options(t, "alice", "Falcon"), 100, 30)
	s.waitFor("Audited accounts")
	s.keys("/", "2", ".", "1", "enter", "s")
	s.waitFor("Move 2.1 from partial to")
	m := s.quit()
	if got := m.picker.items[m.picker.cursor].label; got != "complete" {
		t.Errorf("the picker starts on %q, want complete (offered %v)", got, m.picker.items)
	}
	if got := forwardMove("complete", nil); got != 0 {
		t.Errorf("no forward move: %d", got)
	}
}

// TestFootersAt80x24 shows each mode's main keys and how to quit in 80
// columns, and offers a viewer no a or s.
func TestFootersAt80x24(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	cases := []struct {
		key   string
		keys  []string
		wait  string
		want  []string
		never []string
	}{
		{"bob", []string{"j"}, "Board minutes", []string{"enter talk", "a answer", "s status", "/ search", "q quit"}, nil},
		{"bob", []string{"j", "a"}, "partial ^P", []string{"^s send", "^p partial", "esc keep draft", "^x discard", "^c quit"}, []string{"j/k move"}},
		{"bob", []string{"j", "s"}, "Move 1.2", []string{"enter or 1-9 choose", "esc cancel", "^c quit"}, []string{"a answer"}},
		{"bob-read", []string{"j"}, "Board minutes", []string{"enter talk", "/ search", "q quit"}, []string{"a answer", "s status"}},
	}
	for _, c := range cases {
		s := start(t, ts.options(t, c.key, "Falcon"), 80, 24)
		s.waitFor("Board minutes")
		s.keys(c.keys...)
		s.waitFor(c.wait)
		m := s.quit()
		lines := strings.Split(screen(t, m), "\n")
		footer := lines[len(lines)-1]
		for _, w := range c.want {
			if !strings.Contains(footer, w) {
				t.Errorf("%s %v: the footer %q lacks %q", c.key, c.keys, footer, w)
			}
		}
		for _, w := range c.never {
			if strings.Contains(footer, w) {
				t.Errorf("%s %v: the footer %q offers %q", c.key, c.keys, footer, w)
			}
		}
	}
}

// backgroundOr256 matches SGR parameters that set a background colour or
// a fixed 256-colour or RGB foreground: colours chosen for one terminal
// background, unreadable on the other.
var backgroundOr256 = regexp.MustCompile(`\x1b\[[0-9;:]*\b(4[0-9]|10[0-7]|38;[25])\b[0-9;:]*m`)

// TestAnswerFormReadsOnAnyBackground: with colour on, the answer form and
// the search field use only the terminal's own colours, faint and
// reverse video: dark text on palette black (bubbles' dark default) is
// unreadable on a light terminal.
func TestAnswerFormReadsOnAnyBackground(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	o := ts.options(t, "bob", "Falcon")
	o.Color = true
	s := start(t, o, 100, 30)
	s.waitFor("Board minutes")
	s.keys("j", "a")
	s.waitFor("partial ^P")
	s.tm.Type("line one\nline two")
	m := s.quit()
	for name, view := range map[string]string{"answer form": m.answer.text.View(), "search field": m.search.View()} {
		if loc := backgroundOr256.FindStringIndex(view); loc != nil {
			t.Errorf("%s: %q sets a colour for one background: %q", name, view[loc[0]:loc[1]], view)
		}
	}
	if !strings.Contains(m.answer.text.View(), "line two") {
		t.Errorf("the typed text is not shown: %q", m.answer.text.View())
	}
}
