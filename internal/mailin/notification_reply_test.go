package mailin_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/mail"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-smtp"

	"github.com/dealctl/dealctl/internal/notify"
	"github.com/dealctl/dealctl/internal/replyaddr"
	"github.com/dealctl/dealctl/internal/store"
)

// mailbox is an SMTP server that keeps what it is sent: the relay a
// notification goes out through.
type mailbox struct {
	mu   sync.Mutex
	mail []string
}

func (b *mailbox) NewSession(*smtp.Conn) (smtp.Session, error) { return &boxSession{b: b}, nil }

type boxSession struct{ b *mailbox }

func (s *boxSession) Reset()                               {}
func (s *boxSession) Logout() error                        { return nil }
func (s *boxSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *boxSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *boxSession) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	s.b.mu.Lock()
	s.b.mail = append(s.b.mail, string(data))
	s.b.mu.Unlock()
	return err
}

// TestReplyToARealNotification: the notification as the SMTP notifier
// sends it carries the reply address; answering it from a mail program
// (the whole notification quoted under the answer) holds the answer
// alone.
func TestReplyToARealNotification(t *testing.T) {
	e := newEnv(t)
	e.ask(t, "falcon", "2.3")
	box := &mailbox{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	relay := smtp.NewServer(box)
	relay.Domain = "relay.example"
	go relay.Serve(ln)
	t.Cleanup(func() { relay.Close() })

	u, _ := url.Parse("smtp://" + ln.Addr().String() + "?from=" + url.QueryEscape("deals@target.example") + "&starttls=false")
	sender, err := notify.NewSMTPSender(u)
	if err != nil {
		t.Fatal(err)
	}
	sender.ReplyTo = e.signer.ForNotifications(domain, replyaddr.DefaultTTL)
	ns, _ := e.db.Notifications(context.Background(), e.ids.Deals["falcon"])
	var toElena store.Notification
	for _, n := range ns {
		if n.Email == "elena@acme.example" {
			toElena = n
		}
	}
	if err := sender.Send(context.Background(), toElena); err != nil {
		t.Fatal(err)
	}
	got, err := mail.ReadMessage(strings.NewReader(box.mail[0]))
	if err != nil {
		t.Fatal(err)
	}
	replyTo := got.Header.Get("Reply-To")
	if !strings.HasPrefix(replyTo, "reply+") || !strings.HasSuffix(replyTo, "@"+domain) {
		t.Fatalf("the notification's Reply-To: %q", replyTo)
	}
	body, _ := io.ReadAll(got.Body)
	// What a mail program writes: the answer, the attribution, the
	// notification quoted line by line (quoted-printable as it came).
	var quoted strings.Builder
	sc := bufio.NewScanner(strings.NewReader(string(body)))
	for sc.Scan() {
		quoted.WriteString("> " + sc.Text() + "\n")
	}
	answer := "The audited accounts are in the data room."
	msg := "From: Elena Rossi <elena@acme.example>\nTo: " + replyTo + "\nSubject: Re: " + got.Header.Get("Subject") +
		"\nIn-Reply-To: " + got.Header.Get("Message-Id") + "\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n" +
		answer + "\n\nOn Mon, 1 Mar 2027 at 09:00, deals@target.example wrote:\n" + quoted.String()
	if err := e.send("elena@acme.example", replyTo, msg); err != nil {
		t.Fatal(err)
	}
	held, _ := e.db.HeldRepliesOf(context.Background(), e.ids.Deals["falcon"], e.clk.Now())
	if len(held) != 1 || held[0].Text != answer || held[0].RequestID != e.ids.Requests["falcon/2.3"] {
		t.Fatalf("held: %+v", held)
	}
}
