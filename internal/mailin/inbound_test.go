package mailin_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// inbound posts a raw mail to the webhook as a provider would.
func (e *env) inbound(t *testing.T, secret, to, from, raw string) (int, map[string]any) {
	t.Helper()
	q := url.Values{"to": {to}}
	if from != "" {
		q.Set("from", from)
	}
	req, _ := http.NewRequest("POST", e.baseURL+"/mail/inbound?"+q.Encode(), strings.NewReader(raw))
	req.Header.Set("Content-Type", "message/rfc822")
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(res.Body).Decode(&body)
	return res.StatusCode, body
}

// TestInboundWebhook: a provider's forward is taken only with the
// secret, checked as SMTP checks (the header From standing in for an
// envelope the provider does not give), and held like any reply.
func TestInboundWebhook(t *testing.T) {
	e := newEnv(t)
	addrs := e.ask(t, "falcon", "2.3")
	to := addrs["elena@acme.example"]
	raw := reply("elena@acme.example", to, "Sent through the provider.")
	for _, secret := range []string{"", "wrong-secret-0123456789"} {
		if code, _ := e.inbound(t, secret, to, "", raw); code != http.StatusUnauthorized {
			t.Errorf("secret %q: %d, want 401", secret, code)
		}
	}
	if code, body := e.inbound(t, inboundSecret, to, "mallory@attacker.example", raw); code != http.StatusForbidden || body["reason"] != "sender_mismatch" {
		t.Errorf("a forged envelope: %d %v", code, body)
	}
	if code, body := e.inbound(t, inboundSecret, "reply+nope@"+domain, "", raw); code != http.StatusNotFound || body["reason"] != "unknown_address" {
		t.Errorf("an unknown address: %d %v", code, body)
	}
	if code, body := e.inbound(t, inboundSecret, to, "", raw); code != http.StatusAccepted || body["held"] != true {
		t.Fatalf("a good reply: %d %v", code, body)
	}
	if code, body := e.inbound(t, inboundSecret, to, "", raw); code != http.StatusConflict || body["reason"] != "address_used" {
		t.Errorf("the same address again: %d %v", code, body)
	}
	held, _ := e.db.HeldRepliesOf(context.Background(), e.ids.Deals["falcon"], e.clk.Now())
	if len(held) != 1 || held[0].Text != "Sent through the provider." {
		t.Fatalf("held: %+v", held)
	}
}
