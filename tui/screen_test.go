package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dealctl/dealctl/internal/api"
)

// The note on a terminal below the minimum fits the terminal it is shown
// on, and always says how to get out.
func TestTooSmallNoteFitsTheScreen(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{79, 23}, {60, 20}, {40, 10}, {20, 5}, {12, 3}, {8, 1}} {
		m := loaded(t, bigList(20), size[0], size[1])
		v := screen(t, m) // fails on a line too wide or a wrong line count
		if !strings.Contains(v, "q") {
			t.Errorf("%d×%d: the note does not say how to quit:\n%s", size[0], size[1], v)
		}
		if size[0] >= 40 && !strings.Contains(v, "80×24") {
			t.Errorf("%d×%d: the note does not say the size needed:\n%s", size[0], size[1], v)
		}
	}
}

// However narrow the terminal, the key hint ends with "q quit": keys are
// dropped from the middle of the hint, never the way out.
func TestKeyHintKeepsQuit(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 81, 100, 120, 149, 150, 200} {
		m := loaded(t, bigList(20), w, 24)
		lines := strings.Split(screen(t, m), "\n")
		if last := lines[len(lines)-1]; !strings.HasSuffix(strings.TrimRight(last, " "), "? help · q quit") {
			t.Errorf("at %d columns the key hint is %q", w, last)
		}
	}
}

// The `Latest:` line of a request whose conversation is not open shows
// the answer's words, not its Markdown.
func TestLatestPreviewIsText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Attached the **2019** certificate; see [the register](https://x.example/r).": "Attached the 2019 certificate; see the register.",
		"# Accounts\n\n- FY21\n- FY22 `draft`":                                        "Accounts FY21 FY22 draft",
		"Plain words, nothing to strip.":                                              "Plain words, nothing to strip.",
		"<b>bold</b> and <https://x.example/a>":                                       "bold and https://x.example/a",
	} {
		if got := plainText(in); got != want {
			t.Errorf("plainText(%q) = %q, want %q", in, got, want)
		}
	}
	rows := bigList(3)
	rows[1].LatestAnswer = &api.AnswerPreview{Preview: "Attached the **2019** certificate."}
	m := loaded(t, rows, 100, 30)
	if v := screen(t, m); !strings.Contains(v, "Latest: Attached the 2019 certificate.") {
		t.Errorf("the detail pane does not show the preview as text:\n%s", v)
	}
}

// A status-line message goes with the next key press.
func TestMessageClearsOnAnyKey(t *testing.T) {
	t.Parallel()
	m := loaded(t, bigList(20), 100, 30)
	m.say("Saved x to /tmp/x")
	m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if m.note != "" {
		t.Errorf("the message %q stayed after a key", m.note)
	}
}
