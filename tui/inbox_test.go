package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// holdReply writes a reply by e-mail of user on the Falcon request
// numbered number, as the mail receiver holds one.
func (ts *testServer) holdReply(t *testing.T, user, number, text string) string {
	t.Helper()
	h := store.HeldReply{ID: store.NewID(), Token: store.NewID(), DealID: ts.ids.Deals["falcon"], RequestID: ts.ids.Requests["falcon/"+number],
		PersonID: ts.ids.People["falcon/"+user], Sender: user + "@acme.example", Subject: "Re: " + number, Text: text,
		ConfirmHash: "x", ConfirmExpires: t0.Add(24 * time.Hour), CreatedAt: t0, ExpiresAt: t0.Add(7 * 24 * time.Hour)}
	if err := ts.st.HoldReply(context.Background(), h, store.Notification{DealID: h.DealID, PersonID: h.PersonID, Email: h.Sender, CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	return h.ID
}

// i shows the side's held replies, the one under the cursor whole; p
// posts it for its sender, and it leaves the inbox; x discards the next.
// The other side's inbox is empty.
func TestInboxView(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ts.holdReply(t, "bob", "1.2", "Minutes attached.\x1b]8;;https://evil.example\x07here")
	ts.holdReply(t, "bob", "2.2", "Wrong request, sorry.")
	bob := ts.options(t, "bob", "Falcon")

	s := start(t, bob, 100, 30)
	s.waitFor("Certificate of incorporation")
	s.keys("i")
	s.waitFor("Replies by e-mail waiting for your side (2)")
	s.waitFor("Minutes attached.")
	s.keys("p")
	s.waitFor("Posted to 1.2 for its sender")
	s.waitFor("Replies by e-mail waiting for your side (1)")
	s.keys("x")
	s.waitFor("Discarded: nothing was posted")
	s.waitFor("No replies by e-mail are waiting for your side.")
	m := s.quit()
	if m.mode != modeInbox {
		t.Fatalf("mode = %v", m.mode)
	}
	if shown := screen(t, m); strings.Contains(shown, "\x1b]8") {
		t.Errorf("a terminal escape from the mail reached the screen:\n%q", shown)
	}
	msgs, err := bob.Client.Messages(context.Background(), bob.Deal.ID, ts.ids.Requests["falcon/1.2"])
	if err != nil {
		t.Fatal(err)
	}
	if last := msgs[len(msgs)-1]; last.Source != "email" || !strings.HasPrefix(last.Text, "Minutes attached.") {
		t.Errorf("posted: %+v", last)
	}

	// The owning side sees none of it.
	s = start(t, ts.options(t, "alice", "Falcon"), 100, 30)
	s.waitFor("Certificate of incorporation")
	s.keys("i")
	s.waitFor("No replies by e-mail are waiting for your side.")
	s.quit()
}
