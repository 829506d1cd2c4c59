package notify

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// SignatureHeader carries "sha256=" and the hex HMAC-SHA256 of the request
// body under the shared secret.
const SignatureHeader = "X-Dealctl-Signature"

// DeliveryHeader carries the notification id, the same on every retry, so
// that a receiver can drop a delivery it already has.
const DeliveryHeader = "X-Dealctl-Delivery"

// WebhookPayload is the JSON body a webhook receives. SentAt is inside the
// signed body so that a receiver can refuse old replays. Kind is
// "message" (a message was posted: MessageID names it) or "digest" (a
// person's daily digest, which has no MessageID).
type WebhookPayload struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	DealID    string    `json:"deal_id"`
	MessageID string    `json:"message_id,omitempty"`
	PersonID  string    `json:"person_id"`
	Email     string    `json:"email"`
	Subject   string    `json:"subject"`
	Body      string    `json:"body"`
	Attempt   int       `json:"attempt"`
	CreatedAt time.Time `json:"created_at"`
	SentAt    time.Time `json:"sent_at"`
}

// WebhookSender posts each notification as JSON to one URL; a 2xx answer
// means delivered.
type WebhookSender struct {
	URL    string
	Secret []byte
	Client *http.Client // nil: a client with a 10 s timeout that does not follow redirects
	Now    func() time.Time
}

// NewWebhookSender checks the URL and the secret; a webhook is always
// signed, so an empty secret is an error.
func NewWebhookSender(rawURL, secret string) (*WebhookSender, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, errors.New("webhook url does not parse; want http(s)://host/path")
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("webhook url %q: want http(s)://host/path", u.Redacted())
	}
	if secret == "" {
		return nil, errors.New("a webhook notifier needs a secret to sign with (--webhook-secret or DEALCTL_WEBHOOK_SECRET)")
	}
	return &WebhookSender{URL: u.String(), Secret: []byte(secret)}, nil
}

// defaultClient does not follow redirects: a redirect would re-send a
// signed body to a URL nobody configured.
var defaultClient = &http.Client{
	Timeout:       10 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// Sign returns the SignatureHeader value for body under secret.
func Sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Send posts n. A 4xx other than 408 and 429 is permanent: the receiver
// understood and refused it.
func (s *WebhookSender) Send(ctx context.Context, n store.Notification) error {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	n = cleaned(n)
	body, err := json.Marshal(WebhookPayload{
		ID: n.ID, Kind: kindOf(n), DealID: n.DealID, MessageID: n.MessageID, PersonID: n.PersonID, Email: n.Email,
		Subject: n.Subject, Body: n.Body, Attempt: n.Attempts, CreatedAt: n.CreatedAt.UTC(), SentAt: now().UTC(),
	})
	if err != nil {
		return Permanent(fmt.Errorf("webhook: %w", err))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, bytes.NewReader(body))
	if err != nil {
		return Permanent(fmt.Errorf("webhook: %w", withoutURL(err)))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "dealctl-notify/1")
	req.Header.Set(SignatureHeader, Sign(s.Secret, body))
	req.Header.Set(DeliveryHeader, n.ID)
	client := s.Client
	if client == nil {
		client = defaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		// Worker.fail logs this error and stores it in last_error.
		return fmt.Errorf("webhook: %w", withoutURL(err))
	}
	defer resp.Body.Close()
	// A little of the answer helps whoever reads last_error; the rest is
	// drained so the connection can be reused.
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	// The URL stays out of the error: webhook URLs often embed a token.
	err = fmt.Errorf("webhook: answered %s: %s", resp.Status, strings.TrimSpace(string(snippet)))
	if resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusRequestTimeout && resp.StatusCode != http.StatusTooManyRequests {
		return Permanent(err)
	}
	return err
}
