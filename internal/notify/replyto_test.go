package notify

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/dealctl/dealctl/internal/replyaddr"
	"github.com/dealctl/dealctl/internal/signing"
	"github.com/dealctl/dealctl/internal/store"
)

// TestSMTPReplyToIsTheRecipientsReplyAddress: with reply addresses on, a
// message notification carries a Reply-To that names it (and so its
// recipient and request) and verifies; a digest carries none.
func TestSMTPReplyToIsTheRecipientsReplyAddress(t *testing.T) {
	srv := newSMTPServer(t)
	s := smtpSender(t, "smtp://"+srv.Addr+"?from="+url.QueryEscape("deals@example.com"))
	signer := replyaddr.NewSigner(signing.NewKey([]byte("0123456789abcdef0123456789abcdef")))
	s.ReplyTo = signer.ForNotifications("reply.example.com", replyaddr.DefaultTTL)
	n := note(uuid.Must(uuid.NewV7()).String(), "bob@acme.example")
	n.CreatedAt = time.Now()
	digest := note(uuid.Must(uuid.NewV7()).String(), "bob@acme.example")
	digest.Kind = store.NotifyDigest
	for _, x := range []store.Notification{n, digest} {
		if err := s.Send(context.Background(), x); err != nil {
			t.Fatal(err)
		}
	}
	msgs := srv.Messages()
	m := parseMessage(t, msgs[0].Data)
	token, ok := replyaddr.TokenOf(m.Header.Get("Reply-To"), "reply.example.com")
	if !ok {
		t.Fatalf("Reply-To %q is no reply address", m.Header.Get("Reply-To"))
	}
	got, err := signer.Verify(token, time.Now())
	if err != nil || got.NotificationID != n.ID {
		t.Fatalf("the reply address names %+v (%v), want notification %s", got, err, n.ID)
	}
	if body := msgs[0].Data; !strings.Contains(body, "Reply to this e-mail to answer.") {
		t.Errorf("the notification does not say it can be answered by reply:\n%s", body)
	}
	if rt := parseMessage(t, msgs[1].Data).Header.Get("Reply-To"); rt != "" {
		t.Errorf("a digest carries Reply-To %q", rt)
	}
}
