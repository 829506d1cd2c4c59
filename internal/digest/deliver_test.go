package digest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/dealctl/dealctl/internal/notify"
)

// TestDigestDeliveredByTheNotifier: a queued digest goes out through the
// notification worker like any notification — here a signed webhook,
// whose payload says it is a digest and names no message — and the
// scheduler's Queued hook wakes the worker.
func TestDigestDeliveredByTheNotifier(t *testing.T) {
	const secret = "webhook-secret"
	var mu sync.Mutex
	var got []notify.WebhookPayload
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get(notify.SignatureHeader) != notify.Sign([]byte(secret), body) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var p notify.WebhookPayload
		if err := json.Unmarshal(body, &p); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		got = append(got, p)
		mu.Unlock()
	}))
	defer hook.Close()
	sender, err := notify.NewWebhookSender(hook.URL, secret)
	if err != nil {
		t.Fatal(err)
	}

	st, _ := openSQLite(t)
	clk := newClock(day(8, 12, 0))
	w := seed(t, st, testWorld("UTC"), clk.Now())
	s := newScheduler(st, clk)
	worker := &notify.Worker{Store: st, Sender: sender, Now: clk.Now, Log: s.Log}
	woken := 0
	s.Queued = func() { woken++ }
	clk.Set(day(9, 7, 30))
	runOnce(t, s)
	if woken != 1 {
		t.Errorf("Queued called %d times after a run that queued a digest, want 1", woken)
	}
	if delivered, failed, err := worker.RunOnce(context.Background()); delivered != 1 || failed != 0 || err != nil {
		t.Fatalf("worker: %d delivered, %d failed, %v", delivered, failed, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 {
		t.Fatalf("the webhook got %d payloads, want 1", len(got))
	}
	p := got[0]
	if p.Kind != "digest" || p.MessageID != "" || p.PersonID != w.person("bob") || p.Email != "bob@acme.example" ||
		!strings.HasPrefix(p.Subject, "[Falcon] Daily digest") || !strings.Contains(p.Body, "Overdue (1):") {
		t.Errorf("payload %+v", p)
	}
	if n := digests(t, st, w.deal()); len(n) != 1 || n[0].DeliveredAt == nil {
		t.Errorf("the outbox row is not marked delivered: %+v", n)
	}
	runOnce(t, s)
	if woken != 1 {
		t.Errorf("a run that queued nothing called Queued")
	}
}
