package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dealctl/dealctl/internal/activity"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/termsafe/termsafetest"
)

// ownStyling is the TUI's own styling: SGR sequences (colour, bold,
// reverse). Everything else starting with ESC would be server text acting
// on the reader's terminal.
var ownStyling = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// cursorOnly is the styling a colourless screen may have: the input
// fields' cursor in reverse video.
var cursorOnly = regexp.MustCompile(`\x1b\[(0|7|27)?m`)

// firstActive is the first character of s a terminal would act on other
// than a newline: C0 controls, DEL, C1 controls, bidi overrides, or -1.
func firstActive(s string) (rune, int) {
	for i, r := range s {
		switch {
		case r == '\n':
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return r, i
		}
	}
	return -1, -1
}

// hostileModel is a loaded model whose every server text is text: the
// deal's codename, titles, bodies, numbers, categories, names, file
// names, the latest answer, and a thread of messages in Markdown and in
// plain text.
func hostileModel(t *testing.T, text string, color bool) *Model {
	t.Helper()
	name := text
	deal := api.Deal{ID: "d", Codename: "Deal " + text, Timezone: "Europe/London"}
	due := "2027-01-01"
	file := api.File{Kind: api.FileKindFile, Name: &name, Downloadable: true}
	alice := "p1"
	rows := []api.DealRequest{
		{ID: "s", Kind: api.KindSection, Number: "1", Title: "Section " + text, Status: api.StatusOpen},
		{
			ID: "r", ParentID: ptr("s"), Kind: api.KindRequest, Number: "1." + text, Title: text, Body: text + "\nsecond line " + text,
			Status: api.StatusOpen, Priority: api.PriorityHigh, Category: api.RequestCategory(text), Requester: &name,
			DueDate: &due, AssigneeID: &alice, AllowedStatuses: []api.RequestStatus{api.StatusComplete},
			Files: []api.File{file, file}, Can: api.RequestCan{Answer: true},
			LatestAnswer: &api.AnswerPreview{Preview: "**" + text + "**"},
		},
	}
	m := New(context.Background(), Options{
		Deal: &deal, Color: color, Now: func() time.Time { return t0 },
		Download: func(context.Context, api.Deal, string, api.File) (string, error) { return "", nil },
	})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(dealLoadedMsg{deal: deal, seat: &api.Seat{ParticipantID: "p1"}, people: map[string]string{"p1": name}, rows: rows})
	return m
}

func ptr(s string) *string { return &s }

// Every server text the TUI shows goes through termsafe: rows, the detail
// pane, the thread, the status bar, pickers and the status line, with
// colour off (no ESC at all may remain) and on (only the TUI's own SGR).
func TestHostileTextNeverReachesTheTerminal(t *testing.T) {
	t.Parallel()
	for _, h := range termsafetest.Hostile {
		for _, color := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/color=%v", h.Name, color), func(t *testing.T) {
				m := hostileModel(t, h.Text, color)
				name := h.Text
				msgs := []api.Message{
					{Kind: api.MessageResponse, Format: api.FormatMarkdown, Text: "# " + h.Text + "\n\n*" + h.Text + "* [" + h.Text + "](https://x.example/" + h.Text + ")\n\n    " + h.Text,
						Author: &api.Author{Name: &name}, Files: []api.File{{Kind: api.FileKindFile, Name: &name}}},
					{Kind: api.MessageInternalNote, Internal: true, Format: api.FormatText, Text: h.Text, Author: &api.Author{Email: h.Text}},
					// A character reference decodes to the very control
					// character termsafe took out of the text.
					{Kind: api.MessageQuestion, Format: api.FormatMarkdown, Text: "ref &#27;]52;c;eA==&#7; &#x9b;2J &#x202e;gnp"},
				}
				views := map[string]func(){
					"list and detail": func() {},
					"conversation": func() {
						m.Update(keyMsg("enter"))
						m.Update(messagesMsg{dealID: "d", requestID: "r", msgs: msgs, scroll: scrollHeading})
					},
					"end of the conversation": func() { m.Update(keyMsg("G")) },
					"download picker":         func() { m.Update(keyMsg("tab")); m.Update(keyMsg("d")) },
					"move picker":             func() { m.Update(keyMsg("esc")); m.Update(keyMsg("s")) },
					"answer form":             func() { m.Update(keyMsg("esc")); m.Update(keyMsg("a")) },
					"error from the server": func() {
						m.Update(keyMsg("esc"))
						m.Update(refreshedMsg{dealID: "d", err: fmt.Errorf("server says %s", h.Text)})
					},
					"search": func() {
						m.Update(keyMsg("/"))
						m.Update(tea.PasteMsg{Content: h.Text})
						m.Update(keyMsg("enter"))
					},
					"activity view": func() {
						m.activity = &activityFeed{dealID: "d"}
						m.Update(keyMsg("e"))
						m.Update(activityMsg{dealID: "d", events: hostileEvents(h.Text)})
					},
				}
				for _, step := range []string{"list and detail", "conversation", "end of the conversation", "download picker", "move picker", "answer form", "error from the server", "search", "activity view"} {
					views[step]()
					v := m.View().Content
					if step == "activity view" && strings.Count(v, "Mar 01 09:00") != 5 {
						t.Fatalf("the activity view shows no events:\n%s", v)
					}
					if !color {
						if rest := cursorOnly.ReplaceAllString(v, ""); indexByte(rest, 0x1b) >= 0 {
							t.Fatalf("%s: ESC at byte %d of a colourless screen:\n%q", step, indexByte(rest, 0x1b), rest)
						}
					}
					rest := ownStyling.ReplaceAllString(v, "")
					if r, i := firstActive(rest); i >= 0 {
						t.Fatalf("%s: %U at byte %d of the screen:\n%q", step, r, i, rest)
					}
				}
			})
		}
	}
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// hostileEvents are events whose every text is text: the actor, the
// data's file name, edited fields, assignee and an unknown type's data.
func hostileEvents(text string) []client.Event {
	rid, none := "r", "elsewhere"
	actor := &api.Author{Name: &text, Email: text}
	data := func(v any) json.RawMessage {
		b, _ := json.Marshal(v)
		return b
	}
	return []client.Event{
		{ID: "1", Type: activity.RequestEdited, At: t0, Actor: actor, RequestID: &rid, Data: data(map[string]any{"fields": []string{text}})},
		{ID: "2", Type: activity.RequestAssigned, At: t0, Actor: actor, RequestID: &rid, Data: data(map[string]any{"to": text})},
		{ID: "3", Type: activity.FileAttached, At: t0, Actor: &api.Author{Email: text}, RequestID: &rid, Data: data(map[string]any{"name": text})},
		{ID: "4", Type: activity.StatusMoved, At: t0, RequestID: &none, Data: data(map[string]any{"number": text, "from": text, "to": text})},
		{ID: "5", Type: api.EventType("x." + text), At: t0, Actor: actor, Data: data(map[string]any{"k": text})},
	}
}

// TestRenderBombsLeaveTheKeysWorking: a thread of messages built to make
// the renderer work without end (the security review's 301-byte nested
// quote among them) opens, draws its text, and q and ctrl+c still quit:
// the update loop never runs unbounded work.
func TestRenderBombsLeaveTheKeysWorking(t *testing.T) {
	t.Parallel()
	var msgs []api.Message
	for _, b := range termsafetest.RenderBombs {
		name := b.Name
		msgs = append(msgs, api.Message{Kind: api.MessageResponse, Format: api.FormatMarkdown, Text: b.Text, Author: &api.Author{Name: &name}})
	}
	for _, quit := range []string{"q", "ctrl+c"} {
		m := hostileModel(t, "x", true)
		m.Update(keyMsg("enter"))
		m.Update(messagesMsg{dealID: "d", requestID: "r", msgs: msgs, scroll: scrollHeading})
		m.Update(keyMsg("G"))
		if v := m.View().Content; !strings.Contains(v, "|b|b|") {
			t.Fatalf("the end of the thread is not drawn:\n%s", v)
		}
		_, cmd := m.Update(keyMsg(quit))
		if cmd == nil {
			t.Fatalf("%s: no command", quit)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%s does not quit with the thread open", quit)
		}
	}
}
