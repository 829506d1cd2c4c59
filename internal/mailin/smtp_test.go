package mailin_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/mailin"
	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/replyaddr"
	"github.com/dealctl/dealctl/internal/store"
)

// TestReplyByMailIsHeldThenPostedOnceConfirmed: a reply sent with Go's
// SMTP client is held (not posted), its sender gets a confirmation link,
// the page shows the reply's own words (history and signature cut) and
// Post posts it as her answer, source email, moving the status and
// notifying the other side; the link then acts no more.
func TestReplyByMailIsHeldThenPostedOnceConfirmed(t *testing.T) {
	testHeldThenPosted(t, newEnv(t))
}

// TestReplyByMailOnPostgres: the same on PostgreSQL.
func TestReplyByMailOnPostgres(t *testing.T) {
	testHeldThenPosted(t, newEnvOn(t, pgtest.URL(t)))
}

func testHeldThenPosted(t *testing.T, e *env) {
	addrs := e.ask(t, "falcon", "2.3")
	body := "The audited accounts are in the data room, folder 2.3.\n\nOn Mon, 1 Mar 2027 at 09:00, dealctl <deals@target.example> wrote:\n> Please send them.\n\n-- \nElena Rossi, CFO"
	if err := e.send("elena@acme.example", addrs["elena@acme.example"], reply("elena@acme.example", addrs["elena@acme.example"], body)); err != nil {
		t.Fatalf("the reply was refused: %v", err)
	}
	if got := e.messages(t, "olivia", "falcon", "2.3"); len(got) != 1 {
		t.Fatalf("a held reply was posted before confirmation: %d messages", len(got))
	}
	link := e.confirmLink(t, "falcon", "elena@acme.example")
	c := browser()
	code, page, csrf := open(t, c, link)
	if code != http.StatusOK || csrf == "" {
		t.Fatalf("page: %d\n%s", code, page)
	}
	for _, want := range []string{"Post this reply to 2.3 as Elena Rossi?", "The audited accounts are in the data room, folder 2.3."} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	for _, gone := range []string{"Please send them", "CFO", "<script"} {
		if strings.Contains(page, gone) {
			t.Errorf("the page shows %q", gone)
		}
	}
	if code, page := press(t, c, link, csrf, "post"); code != http.StatusOK || !strings.Contains(page, "Your reply is posted to 2.3") {
		t.Fatalf("post: %d\n%s", code, page)
	}
	got := e.messages(t, "olivia", "falcon", "2.3")
	if len(got) != 2 {
		t.Fatalf("after Post: %d messages, want 2", len(got))
	}
	m := got[1]
	if m.Source != "email" || m.Format != "text" || m.OnBehalf || m.Author.Email != "elena@acme.example" || m.Kind != "response" ||
		m.Text != "The audited accounts are in the data room, folder 2.3." {
		t.Errorf("the posted message: %+v", m)
	}
	var row struct{ Status string }
	e.api(t, "olivia", "GET", e.requestPath("falcon", "2.3"), nil, &row)
	if row.Status != "complete" {
		t.Errorf("status after the answer: %q, want complete", row.Status)
	}
	ns, _ := e.db.Notifications(context.Background(), e.ids.Deals["falcon"])
	if n := ns[len(ns)-1]; n.Email != "olivia@target.example" || n.MessageID != m.ID {
		t.Errorf("the other side was not notified of the answer: %+v", n)
	}
	// The link works once: a replay, even with the form, posts nothing.
	if code, page := press(t, c, link, csrf, "post"); code != http.StatusGone || !strings.Contains(page, "posted already") {
		t.Errorf("replayed post: %d\n%s", code, page)
	}
	if code, _, csrf := open(t, browser(), link); code != http.StatusGone || csrf != "" {
		t.Errorf("replayed link: %d, form %q", code, csrf)
	}
	if n := len(e.messages(t, "olivia", "falcon", "2.3")); n != 2 {
		t.Errorf("the replay posted: %d messages", n)
	}
}

// TestDiscardPostsNothing, and a form posted without the page's cookie
// (another site's form) is refused.
func TestDiscardPostsNothing(t *testing.T) {
	e := newEnv(t)
	addrs := e.ask(t, "falcon", "2.3")
	to := addrs["elena@acme.example"]
	if err := e.send("elena@acme.example", to, reply("elena@acme.example", to, "Wrong request, sorry.")); err != nil {
		t.Fatal(err)
	}
	link := e.confirmLink(t, "falcon", "elena@acme.example")
	c := browser()
	_, _, csrf := open(t, c, link)
	if code, _ := press(t, browser(), link, csrf, "post"); code != http.StatusForbidden {
		t.Errorf("a form without the page's cookie: %d, want 403", code)
	}
	if code, page := press(t, c, link, "forged", "post"); code != http.StatusForbidden {
		t.Errorf("a forged form token: %d\n%s", code, page)
	}
	if code, page := press(t, c, link, csrf, "discard"); code != http.StatusOK || !strings.Contains(page, "discarded") {
		t.Fatalf("discard: %d\n%s", code, page)
	}
	if code, page := press(t, c, link, csrf, "post"); code != http.StatusGone || !strings.Contains(page, "discarded already") {
		t.Errorf("post after discard: %d\n%s", code, page)
	}
	if n := len(e.messages(t, "olivia", "falcon", "2.3")); n != 1 {
		t.Errorf("a discarded reply was posted: %d messages", n)
	}
}

// dialogue runs a raw SMTP conversation: each line is sent and the
// reply's code checked against the expected one ("" sends nothing and
// reads the greeting).
func dialogue(t *testing.T, addr string, steps [][2]string) []string {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	var replies []string
	for _, s := range steps {
		if s[0] != "" {
			fmt.Fprint(conn, s[0])
		}
		var reply string
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("after %q: %v", s[0], err)
			}
			reply += line
			if len(line) < 4 || line[3] != '-' {
				break
			}
		}
		replies = append(replies, reply)
		if !strings.HasPrefix(reply, s[1]) {
			t.Fatalf("after %q: %q, want %s", strings.TrimSpace(s[0]), strings.TrimSpace(reply), s[1])
		}
	}
	return replies
}

// TestForgedSenderIsRefused: a reply address leaked to someone else is
// of no use to them: the envelope sender is checked at RCPT, the header
// From at the end of DATA, and nothing is held either way.
func TestForgedSenderIsRefused(t *testing.T) {
	e := newEnv(t)
	to := e.ask(t, "falcon", "2.3")["elena@acme.example"]
	dialogue(t, e.smtpAddr, [][2]string{
		{"", "220"},
		{"EHLO attacker.example\r\n", "250"},
		{"MAIL FROM:<mallory@attacker.example>\r\n", "250"},
		{"RCPT TO:<" + to + ">\r\n", "550 5.7.1"},
		{"QUIT\r\n", "221"},
	})
	// The right envelope, a forged header From.
	msg := strings.ReplaceAll(reply("mallory@attacker.example", to, "Fake answer."), "\n", "\r\n")
	dialogue(t, e.smtpAddr, [][2]string{
		{"", "220"},
		{"EHLO attacker.example\r\n", "250"},
		{"MAIL FROM:<elena@acme.example>\r\n", "250"},
		{"RCPT TO:<" + to + ">\r\n", "250"},
		{"DATA\r\n", "354"},
		{msg + ".\r\n", "550 5.7.1"},
		{"QUIT\r\n", "221"},
	})
	// A bounce (empty sender) is no reply either.
	dialogue(t, e.smtpAddr, [][2]string{
		{"", "220"}, {"HELO x\r\n", "250"}, {"MAIL FROM:<>\r\n", "250"}, {"RCPT TO:<" + to + ">\r\n", "550"},
	})
	held, _ := e.db.HeldRepliesOf(context.Background(), e.ids.Deals["falcon"], e.clk.Now())
	if len(held) != 0 {
		t.Fatalf("a forged reply was held: %+v", held)
	}
	if !strings.Contains(e.logs.String(), "reason=sender_mismatch") {
		t.Errorf("no log line for the refusal:\n%s", e.logs.String())
	}
	// Addresses that are not reply addresses: unknown.
	for _, rcpt := range []string{"someone@" + domain, "reply+" + strings.Repeat("a", 48) + "@" + domain, strings.Replace(to, domain, "elsewhere.example", 1)} {
		if err := e.send("elena@acme.example", rcpt, reply("elena@acme.example", rcpt, "x")); smtpCode(err) != 550 {
			t.Errorf("mail to %s: %v, want 550", rcpt, err)
		}
	}
}

// TestExpiredAndReusedAddresses: an address past its month is refused,
// and so is a second reply to one that took a reply already.
func TestExpiredAndReusedAddresses(t *testing.T) {
	e := newEnv(t)
	addrs := e.ask(t, "falcon", "2.3")
	to := addrs["elena@acme.example"]
	if err := e.send("elena@acme.example", to, reply("elena@acme.example", to, "First.")); err != nil {
		t.Fatal(err)
	}
	err := e.send("elena@acme.example", to, reply("elena@acme.example", to, "Second."))
	if smtpCode(err) != 550 || !strings.Contains(err.Error(), "took a reply already") {
		t.Errorf("a second reply to the same address: %v", err)
	}
	ben := addrs["ben@acme.example"]
	e.clk.Add(31 * 24 * time.Hour)
	err = e.send("ben@acme.example", ben, reply("ben@acme.example", ben, "Late."))
	if smtpCode(err) != 550 || !strings.Contains(err.Error(), "expired") {
		t.Errorf("a reply after a month: %v", err)
	}
}

// TestReplyToAnArchivedDealIsRefused.
func TestReplyToAnArchivedDealIsRefused(t *testing.T) {
	e := newEnv(t)
	to := e.ask(t, "heron", "1.1")["elena@acme.example"]
	if err := e.db.SetDealArchived(context.Background(), e.ids.Deals["heron"], true); err != nil {
		t.Fatal(err)
	}
	err := e.send("elena@acme.example", to, reply("elena@acme.example", to, "Here."))
	if smtpCode(err) != 550 || !strings.Contains(err.Error(), "archived") {
		t.Errorf("a reply to an archived deal: %v", err)
	}
}

// TestHTMLOnlyForwardAndAttachments: an HTML-only mail is posted as its
// text; a forwarded message is kept; attachments are held and become
// the message's downloadable files.
func TestHTMLOnlyForwardAndAttachments(t *testing.T) {
	e := newEnv(t)
	addrs := e.ask(t, "falcon", "2.3")
	to := addrs["elena@acme.example"]
	htmlOnly := "From: elena@acme.example\nTo: " + to + "\nSubject: Re: 2.3\nMIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n" +
		`<div>Accounts <b>attached</b> &amp; signed.<br>See <a href="https://dr.example/2.3">the room</a>.</div><div class="gmail_quote">On Mon wrote:<blockquote>Please send them.</blockquote></div>`
	if err := e.send("elena@acme.example", to, htmlOnly); err != nil {
		t.Fatal(err)
	}
	held, _ := e.db.HeldRepliesOf(context.Background(), e.ids.Deals["falcon"], e.clk.Now())
	if len(held) != 1 || held[0].Text != "Accounts attached & signed.\nSee the room <https://dr.example/2.3>." {
		t.Fatalf("HTML-only reply held as %+v", held)
	}

	ben := addrs["ben@acme.example"]
	mixed := "From: Ben <ben@acme.example>\nTo: " + ben + "\nSubject: Fwd: accounts\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=XX\n\n" +
		"--XX\nContent-Type: text/plain; charset=utf-8\n\nOur auditor's answer below.\n\n---------- Forwarded message ---------\nFrom: Auditor <a@audit.example>\nDate: Fri, 26 Feb 2027\nSubject: Accounts\n\nThe 2025 accounts were signed on 20 February.\n" +
		"--XX\nContent-Type: application/pdf\nContent-Disposition: attachment; filename=\"../../accounts 2025.pdf\"\nContent-Transfer-Encoding: base64\n\nJVBERi0xLjQKJeLjz9MK\n" +
		"--XX\nContent-Type: image/png\nContent-Disposition: inline\nContent-ID: <logo>\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n" +
		"--XX--\n"
	if err := e.send("ben@acme.example", ben, mixed); err != nil {
		t.Fatal(err)
	}
	link := e.confirmLink(t, "falcon", "ben@acme.example")
	c := browser()
	_, page, csrf := open(t, c, link)
	for _, want := range []string{"The 2025 accounts were signed on 20 February.", "accounts 2025.pdf"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	if code, page := press(t, c, link, csrf, "post"); code != http.StatusOK {
		t.Fatalf("post: %d\n%s", code, page)
	}
	got := e.messages(t, "olivia", "falcon", "2.3")
	m := got[len(got)-1]
	if len(m.Files) != 1 || m.Files[0].Name == nil || *m.Files[0].Name != "accounts 2025.pdf" || !m.Files[0].Downloadable || *m.Files[0].Size != 15 {
		t.Fatalf("the posted reply's files: %+v", m.Files)
	}
}

// TestOversizedMailIsRefused: over the SIZE limit, 552, nothing held.
func TestOversizedMailIsRefused(t *testing.T) {
	e := newEnv(t)
	to := e.ask(t, "falcon", "2.3")["elena@acme.example"]
	big := reply("elena@acme.example", to, strings.Repeat(strings.Repeat("x", 76)+"\n", mailin.MaxMessageBytes/77+10))
	err := e.send("elena@acme.example", to, big)
	if smtpCode(err) != 552 {
		t.Fatalf("an oversized mail: %v, want 552", err)
	}
	long := reply("elena@acme.example", to, strings.Repeat(strings.Repeat("word ", 15)+"\n", 300))
	if err := e.send("elena@acme.example", to, long); smtpCode(err) != 550 || !strings.Contains(err.Error(), "over 20000 characters") {
		t.Errorf("text over the message limit: %v", err)
	}
	held, _ := e.db.HeldRepliesOf(context.Background(), e.ids.Deals["falcon"], e.clk.Now())
	if len(held) != 0 {
		t.Errorf("held: %+v", held)
	}
}

// TestViewerCannotReplyByMail: a viewer's reply address takes nothing.
func TestViewerCannotReplyByMail(t *testing.T) {
	e := newEnv(t)
	to := e.ask(t, "falcon", "2.3")["bianca@acme.example"]
	if err := e.send("bianca@acme.example", to, reply("bianca@acme.example", to, "Hi")); smtpCode(err) != 550 {
		t.Errorf("a viewer's reply: %v, want 550", err)
	}
}

// TestSenderMadeViewerCannotHaveItPosted: a reply whose sender has since
// been made a viewer is posted by no one: the page says so, and the reply
// stays held (a colleague's post is refused too).
func TestSenderMadeViewerCannotHaveItPosted(t *testing.T) {
	e := newEnv(t)
	to := e.ask(t, "falcon", "2.3")["elena@acme.example"]
	if err := e.send("elena@acme.example", to, reply("elena@acme.example", to, "Here.")); err != nil {
		t.Fatal(err)
	}
	link := e.confirmLink(t, "falcon", "elena@acme.example")
	c := browser()
	_, _, csrf := open(t, c, link)
	ctx := context.Background()
	_, people, err := e.db.Members(ctx, e.ids.Deals["falcon"])
	if err != nil {
		t.Fatal(err)
	}
	if err := e.db.Apply(ctx, func(tx store.AdminTx) error {
		for _, p := range people {
			if p.Email == "elena@acme.example" {
				p.Access = api.AccessViewer
				_, err := tx.PutPerson(p)
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if code, page := press(t, c, link, csrf, "post"); code != http.StatusForbidden || !strings.Contains(page, "may no longer answer") {
		t.Fatalf("post by a sender made viewer: %d\n%s", code, page)
	}
	held, _ := e.db.HeldRepliesOf(ctx, e.ids.Deals["falcon"], e.clk.Now())
	if len(held) != 1 {
		t.Fatalf("the reply is no longer held: %+v", held)
	}
	var errBody struct{ Params map[string]any }
	if code := e.api(t, "ben", "POST", "/api/v1/deals/"+e.ids.Deals["falcon"]+"/held-replies/"+held[0].ID+"/post", nil, &errBody); code != http.StatusConflict {
		t.Errorf("a colleague's post: %d", code)
	}
	if n := len(e.messages(t, "olivia", "falcon", "2.3")); n != 1 {
		t.Errorf("posted: %d messages", n)
	}
}

// TestOwningSideReplyIsAQuestion: the owning side replying to an answer
// asks a follow-up; its reply does not mark the request complete.
func TestOwningSideReplyIsAQuestion(t *testing.T) {
	e := newEnv(t)
	var m struct{ ID string }
	if code := e.api(t, "elena", "POST", e.requestPath("falcon", "2.4")+"/messages", map[string]any{"text": "Here they are.", "partial": true}, &m); code != http.StatusCreated {
		t.Fatalf("elena's answer: %d", code)
	}
	ns, _ := e.db.Notifications(context.Background(), e.ids.Deals["falcon"])
	var to string
	for _, n := range ns {
		if n.MessageID == m.ID && n.Email == "olivia@target.example" {
			to = e.signer.ForNotifications(domain, replyaddr.DefaultTTL)(n)
		}
	}
	msg := strings.ReplaceAll(reply("olivia@target.example", to, "Thanks; we also need Q3."), "Elena Rossi", "Olivia Owner")
	if err := e.send("olivia@target.example", to, msg); err != nil {
		t.Fatal(err)
	}
	c := browser()
	link := e.confirmLink(t, "falcon", "olivia@target.example")
	_, _, csrf := open(t, c, link)
	if code, page := press(t, c, link, csrf, "post"); code != http.StatusOK {
		t.Fatalf("post: %d\n%s", code, page)
	}
	got := e.messages(t, "elena", "falcon", "2.4")
	if last := got[len(got)-1]; last.Kind != "question" || last.Source != "email" {
		t.Errorf("the owning side's reply: %+v", last)
	}
	var row struct{ Status string }
	e.api(t, "olivia", "GET", e.requestPath("falcon", "2.4"), nil, &row)
	if row.Status != "partial" {
		t.Errorf("status %q, want partial (elena's answer's, unmoved by the question)", row.Status)
	}
}
