package notify

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

func smtpSender(t *testing.T, raw string) *SMTPSender {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSMTPSender(u)
	if err != nil {
		t.Fatalf("NewSMTPSender(%s): %v", raw, err)
	}
	return s
}

func note(id, email string) store.Notification {
	return store.Notification{ID: id, DealID: "deal-1", MessageID: "msg-1", PersonID: "person-1",
		Email: email, Subject: "New answer on 2.1", Body: "Here it is.", Attempts: 1}
}

func TestSMTPSendWritesAProperMessage(t *testing.T) {
	srv := newSMTPServer(t)
	s := smtpSender(t, "smtp://"+srv.Addr+"?from="+url.QueryEscape("Dealctl <dealctl@example.com>"))
	n := note("0190-abc", "bob@acme.example")
	n.Subject = "Réponse : comptes audités 2.1 — Falcon\r\nBcc: evil@example.net"
	// A lone dot would end DATA if net/smtp did not stuff it; the long
	// line passes the 998-byte limit unless quoted-printable wraps it.
	n.Body = "Bonjour Bob,\n.\n.hidden line\nÜberweisung erhalten ✓\n" + strings.Repeat("x", 1200) + "\nEnd."
	before := time.Now().Add(-time.Second)
	if err := s.Send(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	msgs := srv.Messages()
	if len(msgs) != 1 {
		t.Fatalf("server received %d messages, want 1", len(msgs))
	}
	got := msgs[0]
	if got.From != "dealctl@example.com" || len(got.To) != 1 || got.To[0] != "bob@acme.example" {
		t.Errorf("envelope = from %q to %q", got.From, got.To)
	}
	for _, line := range strings.Split(got.Data, "\r\n") {
		if len(line) > 998 {
			t.Errorf("line of %d bytes exceeds SMTP's 998", len(line))
		}
	}
	m := parseMessage(t, got.Data)
	h := m.Header
	if from, err := mail.ParseAddress(h.Get("From")); err != nil || from.Address != "dealctl@example.com" || from.Name != "Dealctl" {
		t.Errorf("From = %q (%v)", h.Get("From"), err)
	}
	if to, err := mail.ParseAddress(h.Get("To")); err != nil || to.Address != "bob@acme.example" {
		t.Errorf("To = %q (%v)", h.Get("To"), err)
	}
	if !strings.HasPrefix(h.Get("Subject"), "=?utf-8?q?") {
		t.Errorf("non-ASCII Subject not RFC 2047 encoded: %q", h.Get("Subject"))
	}
	subj, err := new(mime.WordDecoder).DecodeHeader(h.Get("Subject"))
	if want := "Réponse : comptes audités 2.1 — Falcon Bcc: evil@example.net"; err != nil || subj != want {
		t.Errorf("Subject decodes to %q (%v), want %q", subj, err, want)
	}
	if h.Get("Bcc") != "" {
		t.Errorf("a CRLF in the subject injected a Bcc header")
	}
	if d, err := h.Date(); err != nil || d.Before(before) || d.After(time.Now().Add(time.Second)) {
		t.Errorf("Date = %q (%v)", h.Get("Date"), err)
	}
	if id := h.Get("Message-ID"); id != "<0190-abc@example.com>" {
		t.Errorf("Message-ID = %q", id)
	}
	for k, want := range map[string]string{
		"MIME-Version":              "1.0",
		"Content-Type":              "text/plain; charset=utf-8",
		"Content-Transfer-Encoding": "quoted-printable",
		"Auto-Submitted":            "auto-generated",
	} {
		if h.Get(k) != want {
			t.Errorf("%s = %q, want %q", k, h.Get(k), want)
		}
	}
	body, err := io.ReadAll(quotedprintable.NewReader(m.Body))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.ReplaceAll(n.Body, "\n", "\r\n") + "\r\n"; string(body) != want {
		t.Errorf("body = %q\nwant %q", body, want)
	}
}

// TestSMTPShowsControlsVisibly: a subject with a title's CR/LF and bidi
// override, and a body with an escape sequence, arrive with those shown
// visibly, as the terminal view shows them, never acted on.
func TestSMTPShowsControlsVisibly(t *testing.T) {
	srv := newSMTPServer(t)
	s := smtpSender(t, "smtp://"+srv.Addr+"?from=dealctl@example.com")
	n := note("0190-def", "bob@acme.example")
	n.Subject = "[Falcon] 2.1 Accounts\r\nBcc: evil@example.net \u202egpj.exe\x1b]0;pwned\x07"
	n.Body = "Here\r\nthey are \x1b[2J\u202e\x00.\n"
	if err := s.Send(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	msgs := srv.Messages()
	if len(msgs) != 1 {
		t.Fatalf("server received %d messages, want 1", len(msgs))
	}
	m := parseMessage(t, msgs[0].Data)
	if m.Header.Get("Bcc") != "" {
		t.Errorf("a CRLF in the subject injected a Bcc header")
	}
	subj, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if want := "[Falcon] 2.1 Accounts Bcc: evil@example.net <U+202E>gpj.exe␛]0;pwned␇"; err != nil || subj != want {
		t.Errorf("Subject decodes to %q (%v), want %q", subj, err, want)
	}
	body, err := io.ReadAll(quotedprintable.NewReader(m.Body))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Here\r\nthey are ␛[2J<U+202E>␀.\r\n"; string(body) != want {
		t.Errorf("body = %q, want %q", body, want)
	}
}

func TestSMTPLongASCIISubjectIsBounded(t *testing.T) {
	got := subject(strings.Repeat("word ", 300))
	if n := len([]rune(got)); n != maxSubject || !strings.HasSuffix(got, "...") {
		t.Errorf("subject of %d runes, want %d", n, maxSubject)
	}
	enc := subject(strings.Repeat("é", 150))
	for _, line := range strings.Split(enc, "\r\n") {
		if len(line) > 78 {
			t.Errorf("encoded subject line of %d bytes: %q", len(line), line)
		}
	}
	if dec, _ := new(mime.WordDecoder).DecodeHeader(strings.ReplaceAll(enc, "\r\n", "")); dec != strings.Repeat("é", 150) {
		t.Errorf("folded subject decodes to %q", dec)
	}
}

func TestSMTP451IsTemporary(t *testing.T) {
	srv := newSMTPServer(t)
	srv.FailNext(1)
	s := smtpSender(t, srv.URL(""))
	err := s.Send(context.Background(), note("n1", "bob@acme.example"))
	if err == nil || !strings.Contains(err.Error(), "451") || IsPermanent(err) {
		t.Fatalf("first send: %v, want a temporary 451 error", err)
	}
	if err := s.Send(context.Background(), note("n1", "bob@acme.example")); err != nil {
		t.Fatalf("second send: %v", err)
	}
	if n := len(srv.Messages()); n != 1 {
		t.Errorf("accepted %d messages, want 1", n)
	}
}

func TestSMTPRejectedRecipientIsPermanent(t *testing.T) {
	srv := newSMTPServer(t)
	srv.mu.Lock()
	srv.rejectRcp = "gone@acme.example"
	srv.mu.Unlock()
	s := smtpSender(t, srv.URL(""))
	err := s.Send(context.Background(), note("n1", "gone@acme.example"))
	if err == nil || !IsPermanent(err) || !strings.Contains(err.Error(), "550") {
		t.Fatalf("send to a rejected recipient: %v, want a permanent 550 error", err)
	}
	if err := s.Send(context.Background(), note("n2", "not an address")); !IsPermanent(err) {
		t.Errorf("send to a malformed address: %v, want permanent", err)
	}
}

func TestSMTPStartTLSAndAuth(t *testing.T) {
	srv := newSMTPServer(t)
	serverTLS, roots := selfSigned(t)
	srv.TLS, srv.Auth = serverTLS, true
	s := smtpSender(t, "smtp://mailer:s3cret@"+srv.Addr+"?from=dealctl@example.com&starttls=true")
	s.TLSConfig = &tls.Config{RootCAs: roots}
	if err := s.Send(context.Background(), note("n1", "bob@acme.example")); err != nil {
		t.Fatal(err)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.logins) != 1 || srv.logins[0] != "mailer:s3cret" {
		t.Errorf("logins = %q", srv.logins)
	}
	if len(srv.tlsUsed) != 1 || !srv.tlsUsed[0] {
		t.Errorf("message was not sent under TLS")
	}
}

func TestSMTPStartTLSWhenOffered(t *testing.T) {
	srv := newSMTPServer(t)
	serverTLS, roots := selfSigned(t)
	srv.TLS = serverTLS
	s := smtpSender(t, srv.URL(""))
	s.TLSConfig = &tls.Config{RootCAs: roots}
	if err := s.Send(context.Background(), note("n1", "bob@acme.example")); err != nil {
		t.Fatal(err)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.tlsUsed) != 1 || !srv.tlsUsed[0] {
		t.Errorf("offered STARTTLS was not used")
	}
}

func TestSMTPStartTLSRequiredButNotOffered(t *testing.T) {
	srv := newSMTPServer(t)
	s := smtpSender(t, srv.URL("&starttls=true"))
	err := s.Send(context.Background(), note("n1", "bob@acme.example"))
	if err == nil || !strings.Contains(err.Error(), "STARTTLS") {
		t.Fatalf("send: %v, want a STARTTLS error", err)
	}
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("a message went out in clear text")
	}
}

func TestSMTPStalledServerTimesOut(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			defer c.Close()
			io.Copy(io.Discard, c) // never greets
		}
	}()
	s := smtpSender(t, "smtp://"+ln.Addr().String()+"?from=dealctl@example.com")
	s.Timeout = 200 * time.Millisecond
	start := time.Now()
	if err := s.Send(context.Background(), note("n1", "bob@acme.example")); err == nil {
		t.Fatal("send to a silent server succeeded")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("send took %v despite a 200ms timeout", d)
	}
}

// selfSigned makes a certificate for 127.0.0.1 and a pool that trusts it.
func selfSigned(t *testing.T) (*tls.Config, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "test relay"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}, pool
}
