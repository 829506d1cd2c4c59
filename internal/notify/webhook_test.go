package notify

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/syncbuf"
)

// webhookReceiver checks signatures as a receiver would and answers the
// statuses it is given, one per call, then 200.
type webhookReceiver struct {
	secret   string
	mu       sync.Mutex
	statuses []int
	got      []WebhookPayload
	bad      []string // why a request was refused
}

func (rcv *webhookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	sig := r.Header.Get(SignatureHeader)
	switch {
	case r.Method != http.MethodPost:
		rcv.bad = append(rcv.bad, "method "+r.Method)
	case r.Header.Get("Content-Type") != "application/json":
		rcv.bad = append(rcv.bad, "content type "+r.Header.Get("Content-Type"))
	case !hmac.Equal([]byte(sig), []byte(Sign([]byte(rcv.secret), body))):
		rcv.bad = append(rcv.bad, "signature "+sig)
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	var p WebhookPayload
	if err := json.Unmarshal(body, &p); err != nil {
		rcv.bad = append(rcv.bad, "json: "+err.Error())
	}
	if r.Header.Get(DeliveryHeader) != p.ID {
		rcv.bad = append(rcv.bad, "delivery header "+r.Header.Get(DeliveryHeader))
	}
	if len(rcv.statuses) > 0 {
		st := rcv.statuses[0]
		rcv.statuses = rcv.statuses[1:]
		http.Error(w, "receiver says no", st)
		return
	}
	rcv.got = append(rcv.got, p)
}

func TestWebhookSignsAndPosts(t *testing.T) {
	rcv := &webhookReceiver{secret: "hook-secret", statuses: []int{http.StatusServiceUnavailable}}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	sender, err := ParseURL(srv.URL+"/hooks/dealctl", "hook-secret")
	if err != nil {
		t.Fatal(err)
	}
	s := sender.(*WebhookSender)
	sentAt := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return sentAt }
	n := note("n1", "bob@acme.example")
	n.Body = "Ünïcode body"
	n.CreatedAt = sentAt.Add(-time.Minute)

	err = s.Send(context.Background(), n)
	if err == nil || IsPermanent(err) || !strings.Contains(err.Error(), "503") {
		t.Fatalf("send to a 503: %v, want a temporary error naming 503", err)
	}
	if err := s.Send(context.Background(), n); err != nil {
		t.Fatalf("send: %v", err)
	}
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	if len(rcv.bad) > 0 {
		t.Errorf("receiver refused: %q", rcv.bad)
	}
	if len(rcv.got) != 1 {
		t.Fatalf("receiver accepted %d payloads, want 1", len(rcv.got))
	}
	want := WebhookPayload{ID: "n1", Kind: "message", DealID: "deal-1", MessageID: "msg-1", PersonID: "person-1", Email: "bob@acme.example",
		Subject: "New answer on 2.1", Body: "Ünïcode body", Attempt: 1, CreatedAt: n.CreatedAt, SentAt: sentAt}
	if rcv.got[0] != want {
		t.Errorf("payload = %+v\nwant %+v", rcv.got[0], want)
	}
}

func TestWebhookWrongSecretIsRefused(t *testing.T) {
	rcv := &webhookReceiver{secret: "right"}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	s, err := NewWebhookSender(srv.URL, "wrong")
	if err != nil {
		t.Fatal(err)
	}
	// The receiver's 401 is a 4xx: retrying with the same secret cannot help.
	if err := s.Send(context.Background(), note("n1", "bob@acme.example")); err == nil || !IsPermanent(err) {
		t.Fatalf("send with the wrong secret: %v, want a permanent error", err)
	}
	if len(rcv.got) != 0 {
		t.Error("receiver accepted a payload signed with the wrong secret")
	}
}

func TestWebhookStatuses(t *testing.T) {
	for _, tc := range []struct {
		status    int
		ok, perm  bool
		redirects bool
	}{
		{status: 204, ok: true},
		{status: 429},
		{status: 408},
		{status: 500},
		{status: 404, perm: true},
		{status: 302, redirects: true},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if tc.redirects {
				http.Redirect(w, r, "http://elsewhere.invalid/", tc.status)
				return
			}
			w.WriteHeader(tc.status)
		}))
		s, _ := NewWebhookSender(srv.URL, "k")
		err := s.Send(context.Background(), note("n1", "bob@acme.example"))
		srv.Close()
		if (err == nil) != tc.ok || IsPermanent(err) != tc.perm {
			t.Errorf("status %d: err = %v (permanent %v), want ok=%v permanent=%v", tc.status, err, IsPermanent(err), tc.ok, tc.perm)
		}
	}
	if defaultClient.Timeout != 10*time.Second {
		t.Errorf("webhook timeout = %v, want 10s", defaultClient.Timeout)
	}
}

// A webhook URL often carries its receiver's token. A transport error
// (*url.Error) quotes the whole URL, and the Worker logs the error and keeps
// it as last_error, so the URL must be gone from it.
func TestWebhookTransportErrorKeepsTheURLsTokenOut(t *testing.T) {
	const secret = "SUPERSECRET"
	f := newFixture(t)
	id := f.post(t, "Answer.", f.bob())[0]
	sender, err := ParseURL("http://127.0.0.1:1/hook?token="+secret, "k")
	if err != nil {
		t.Fatal(err)
	}
	var logBuf syncbuf.Buffer
	w := &Worker{Store: f.st, Sender: sender, Now: func() time.Time { return t0 },
		Log: slog.New(slog.NewTextHandler(&logBuf, nil))}

	if d, fl, err := w.RunOnce(context.Background()); d != 0 || fl != 1 || err != nil {
		t.Fatalf("RunOnce = %d, %d, %v; want 0 delivered, 1 failed", d, fl, err)
	}
	n := f.rows(t)[id]
	if n.LastError == "" || n.NextAttemptAt.Equal(Abandoned) {
		t.Errorf("row = %+v; want a failure to retry, with its error kept", n)
	}
	if strings.Contains(n.LastError, secret) {
		t.Errorf("last_error carries the webhook token: %q", n.LastError)
	}
	if logs := logBuf.String(); strings.Contains(logs, secret) {
		t.Errorf("the webhook token reached the log:\n%s", logs)
	}
}

// TestWebhookSubjectIsOneVisibleLine: a row queued with a title's CR/LF,
// an escape sequence and a bidi override (as an older release stored
// them) reaches the webhook on one line with those shown visibly, as the
// terminal view and the digest show them.
func TestWebhookSubjectIsOneVisibleLine(t *testing.T) {
	rcv := &webhookReceiver{secret: "hook-secret"}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	sender, err := ParseURL(srv.URL, "hook-secret")
	if err != nil {
		t.Fatal(err)
	}
	n := note("n1", "bob@acme.example")
	n.Subject = "[Falcon] 2.1 Accounts\r\nBcc: evil@example.net \u202egpj.exe\x1b]0;pwned\x07: new response"
	n.Body = "Here\r\nthey are \x1b[2J\u202e\n"
	if err := sender.Send(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	if len(rcv.got) != 1 {
		t.Fatalf("receiver accepted %d payloads, want 1 (refused: %q)", len(rcv.got), rcv.bad)
	}
	got := rcv.got[0]
	if want := "[Falcon] 2.1 Accounts Bcc: evil@example.net <U+202E>gpj.exe␛]0;pwned␇: new response"; got.Subject != want {
		t.Errorf("subject = %q, want %q", got.Subject, want)
	}
	if want := "Here\nthey are ␛[2J<U+202E>\n"; got.Body != want {
		t.Errorf("body = %q, want %q", got.Body, want)
	}
}
