package notify

import (
	"bytes"
	"context"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/syncbuf"
)

func quietLog() *slog.Logger { return slog.New(slog.DiscardHandler) }

func TestWorkerDeliversThroughSMTP(t *testing.T) {
	f := newFixture(t)
	srv := newSMTPServer(t)
	ids := f.post(t, "The audited accounts are in the data room.", f.bob(), f.dave())
	at := t0.Add(time.Second)
	w := &Worker{Store: f.st, Sender: smtpSender(t, srv.URL("")), Log: quietLog(), Now: func() time.Time { return at }}

	d, fl, err := w.RunOnce(context.Background())
	if err != nil || d != 2 || fl != 0 {
		t.Fatalf("RunOnce = %d delivered, %d failed, %v; want 2, 0", d, fl, err)
	}
	msgs := srv.Messages()
	var rcpts, msgIDs []string
	for _, m := range msgs {
		rcpts = append(rcpts, m.To...)
		pm := parseMessage(t, m.Data)
		msgIDs = append(msgIDs, pm.Header.Get("Message-ID"))
	}
	sort.Strings(rcpts)
	if strings.Join(rcpts, ",") != "bob@acme.example,dave@acme.example" {
		t.Errorf("recipients = %q", rcpts)
	}
	for _, id := range ids {
		if !contains(msgIDs, "<"+id+"@example.com>") {
			t.Errorf("no message carries Message-ID of row %s: %q", id, msgIDs)
		}
		n := f.rows(t)[id]
		if n.DeliveredAt == nil || !n.DeliveredAt.Equal(at) || n.Attempts != 1 || n.LastError != "" {
			t.Errorf("row %s = delivered %v attempts %d error %q; want delivered at %v after 1 attempt", id, n.DeliveredAt, n.Attempts, n.LastError, at)
		}
	}

	// Delivered rows are never claimed again, however late.
	at = at.Add(48 * time.Hour)
	if d, fl, err := w.RunOnce(context.Background()); d+fl != 0 || err != nil {
		t.Errorf("second RunOnce = %d, %d, %v; want nothing to do", d, fl, err)
	}
	if n := len(srv.Messages()); n != 2 {
		t.Errorf("server has %d messages after a second run, want 2", n)
	}
}

func TestWorkerRetriesWithBackoff(t *testing.T) {
	f := newFixture(t)
	srv := newSMTPServer(t)
	srv.FailNext(2)
	id := f.post(t, "Answer.", f.bob())[0]
	clk := &clock{t0}
	w := &Worker{Store: f.st, Sender: smtpSender(t, srv.URL("")), Log: quietLog(), Now: clk.Now}
	run := func(wantDelivered, wantFailed int) store.Notification {
		t.Helper()
		d, fl, err := w.RunOnce(context.Background())
		if err != nil || d != wantDelivered || fl != wantFailed {
			t.Fatalf("RunOnce at +%v = %d delivered, %d failed, %v; want %d, %d", clk.t.Sub(t0), d, fl, err, wantDelivered, wantFailed)
		}
		return f.rows(t)[id]
	}

	n := run(0, 1)
	if n.Attempts != 1 || !strings.Contains(n.LastError, "451") || n.DeliveredAt != nil {
		t.Fatalf("after a 451: %+v", n)
	}
	if wait := n.NextAttemptAt.Sub(t0); wait < 24*time.Second || wait > 30*time.Second {
		t.Errorf("first retry in %v, want 30s less up to a fifth of jitter", wait)
	}

	clk.t = t0.Add(20 * time.Second) // not due yet
	run(0, 0)
	if srv.Attempts() != 1 {
		t.Errorf("server saw %d attempts before the retry was due, want 1", srv.Attempts())
	}

	clk.t = n.NextAttemptAt
	n = run(0, 1)
	if wait := n.NextAttemptAt.Sub(clk.t); n.Attempts != 2 || wait < 48*time.Second || wait > 60*time.Second {
		t.Errorf("second failure: attempts %d, retry in %v; want 2, 60s less jitter", n.Attempts, wait)
	}

	clk.t = n.NextAttemptAt
	n = run(1, 0)
	if n.DeliveredAt == nil || n.Attempts != 3 || n.LastError != "" {
		t.Errorf("after delivery: %+v", n)
	}
	if got := len(srv.Messages()); got != 1 || srv.Attempts() != 3 {
		t.Errorf("server accepted %d of %d attempts, want 1 of 3", got, srv.Attempts())
	}
}

func TestWorkerGivesUpAfterMaxAttempts(t *testing.T) {
	f := newFixture(t)
	srv := newSMTPServer(t)
	srv.FailNext(100)
	id := f.post(t, "Answer.", f.bob())[0]
	var logBuf syncbuf.Buffer
	clk := &clock{t0}
	w := &Worker{Store: f.st, Sender: smtpSender(t, srv.URL("")), MaxAttempts: 3, Now: clk.Now,
		Log: slog.New(slog.NewTextHandler(&logBuf, nil))}
	failed := 0
	for range 6 {
		_, fl, err := w.RunOnce(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		failed += fl
		clk.t = clk.t.Add(2 * time.Hour) // past any backoff
	}
	n := f.rows(t)[id]
	if failed != 3 || srv.Attempts() != 3 {
		t.Errorf("failed %d times, server saw %d attempts; want 3 and 3", failed, srv.Attempts())
	}
	if n.DeliveredAt != nil || n.Attempts != 3 || !strings.Contains(n.LastError, "451") || !n.NextAttemptAt.Equal(Abandoned) {
		t.Errorf("abandoned row = %+v; want undelivered, 3 attempts, the 451 kept, next attempt %v", n, Abandoned)
	}
	logs := logBuf.String()
	if c := strings.Count(logs, "giving up"); c != 1 || !strings.Contains(logs, "level=ERROR") {
		t.Errorf("logged giving up %d times, want once at error level:\n%s", c, logs)
	}
	if strings.Contains(logs, "Answer.") {
		t.Errorf("the message body reached the log:\n%s", logs)
	}
}

func TestWorkerAbandonsPermanentFailureAtOnce(t *testing.T) {
	f := newFixture(t)
	srv := newSMTPServer(t)
	srv.mu.Lock()
	srv.rejectRcp = "bob@acme.example"
	srv.mu.Unlock()
	ids := f.post(t, "Answer.", f.bob(), f.dave())
	w := &Worker{Store: f.st, Sender: smtpSender(t, srv.URL("")), Log: quietLog(), Now: func() time.Time { return t0 }}
	if d, fl, err := w.RunOnce(context.Background()); d != 1 || fl != 1 || err != nil {
		t.Fatalf("RunOnce = %d, %d, %v; want 1 delivered, 1 failed", d, fl, err)
	}
	rows := f.rows(t)
	if bob := rows[ids[0]]; bob.Attempts != 1 || !bob.NextAttemptAt.Equal(Abandoned) || !strings.Contains(bob.LastError, "550") {
		t.Errorf("rejected recipient's row = %+v; want abandoned after 1 attempt with the 550", bob)
	}
	if dave := rows[ids[1]]; dave.DeliveredAt == nil {
		t.Errorf("dave's row was not delivered: %+v", dave)
	}
}

// A row a Worker claimed but never finished (it died mid-send) comes back
// when its lease ends; once it has had MaxAttempts claims it is abandoned
// without another send.
func TestWorkerAbandonsRowClaimedTooOften(t *testing.T) {
	f := newFixture(t)
	id := f.post(t, "Answer.", f.bob())[0]
	at := t0
	for range 2 {
		if got, err := f.st.ClaimNotifications(context.Background(), at, 10, time.Minute); err != nil || len(got) != 1 {
			t.Fatalf("claim = %d rows, %v", len(got), err)
		}
		at = at.Add(2 * time.Minute)
	}
	sent := 0
	w := &Worker{Store: f.st, MaxAttempts: 2, Log: quietLog(), Now: func() time.Time { return at },
		Sender: senderFunc(func(context.Context, store.Notification) error { sent++; return nil })}
	if d, fl, err := w.RunOnce(context.Background()); d != 0 || fl != 1 || err != nil {
		t.Fatalf("RunOnce = %d, %d, %v; want 0 delivered, 1 failed", d, fl, err)
	}
	if n := f.rows(t)[id]; sent != 0 || !n.NextAttemptAt.Equal(Abandoned) || n.LastError == "" {
		t.Errorf("sent %d, row = %+v; want no send and an abandoned row with a reason", sent, n)
	}
}

// Two server instances, each with its own connection pool on one database,
// drain one outbox: every row reaches the relay exactly once.
func TestWorkersRacingDeliverEachRowOnce(t *testing.T) {
	f := newFixture(t)
	srv := newSMTPServer(t)
	var ids []string
	for range 15 {
		ids = append(ids, f.post(t, "Answer.", f.bob(), f.dave())...)
	}
	other, err := sqlstore.Open(context.Background(), f.path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	var errs []error
	for _, st := range []store.Outbox{f.st, other} {
		w := &Worker{Store: st, Sender: smtpSender(t, srv.URL("")), Batch: 3, Log: quietLog()}
		wg.Go(func() {
			for {
				d, fl, err := w.RunOnce(context.Background())
				mu.Lock()
				total += d
				if err != nil || fl != 0 {
					errs = append(errs, err)
				}
				mu.Unlock()
				if d+fl == 0 || err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("workers failed: %v", errs)
	}
	seen := map[string]int{}
	for _, m := range srv.Messages() {
		seen[parseMessage(t, m.Data).Header.Get("Message-ID")]++
	}
	for _, id := range ids {
		if c := seen["<"+id+"@example.com>"]; c != 1 {
			t.Errorf("row %s reached the relay %d times", id, c)
		}
	}
	if total != len(ids) || len(srv.Messages()) != len(ids) {
		t.Errorf("workers delivered %d, relay got %d, rows %d", total, len(srv.Messages()), len(ids))
	}
	for id, n := range f.rows(t) {
		if n.DeliveredAt == nil || n.Attempts != 1 {
			t.Errorf("row %s: delivered %v after %d attempts", id, n.DeliveredAt, n.Attempts)
		}
	}
}

func TestWorkerRunWakesOnPokeAndStops(t *testing.T) {
	f := newFixture(t)
	srv := newSMTPServer(t)
	w := &Worker{Store: f.st, Sender: smtpSender(t, srv.URL("")), Interval: time.Hour, Log: quietLog()}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()

	// Run's first pass finds nothing; with an hour's interval only the
	// Poke can bring the row out.
	time.Sleep(50 * time.Millisecond)
	f.post(t, "Answer.", f.bob())
	w.Poke()
	w.Poke() // merged, must not block
	deadline := time.Now().Add(5 * time.Second)
	for len(srv.Messages()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if len(srv.Messages()) != 1 {
		t.Fatalf("relay has %d messages after a Poke, want 1", len(srv.Messages()))
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run returned %v on cancellation, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancellation")
	}
}

func TestWorkerNeedsStoreAndSender(t *testing.T) {
	if err := (&Worker{}).Run(context.Background()); err == nil {
		t.Error("Run without Store and Sender succeeded")
	}
}

func TestBackoff(t *testing.T) {
	for _, tc := range []struct {
		attempt int
		want    time.Duration
	}{
		{0, 30 * time.Second}, {1, 30 * time.Second}, {2, time.Minute}, {3, 2 * time.Minute},
		{7, 32 * time.Minute}, {8, time.Hour}, {9, time.Hour}, {100, time.Hour},
	} {
		if got := backoff(tc.attempt, func() float64 { return 0 }); got != tc.want {
			t.Errorf("backoff(%d) without jitter = %v, want %v", tc.attempt, got, tc.want)
		}
		if got := backoff(tc.attempt, func() float64 { return 0.999999 }); got < tc.want*4/5 || got >= tc.want {
			t.Errorf("backoff(%d) with most jitter = %v, want within [%v, %v)", tc.attempt, got, tc.want*4/5, tc.want)
		}
	}
}

func TestLogSenderKeepsContentAtDebug(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var buf bytes.Buffer
		s := &LogSender{Log: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: level}))}
		n := note("n1", "bob@acme.example")
		n.Body = "secret figures"
		if err := s.Send(context.Background(), n); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, want := range []string{"notification_id=n1", "deal_id=deal-1", "message_id=msg-1", "person_id=person-1", "email=bob@acme.example"} {
			if !strings.Contains(out, want) {
				t.Errorf("level %v: log lacks %q:\n%s", level, want, out)
			}
		}
		if hasBody := strings.Contains(out, "secret figures"); hasBody != (level == slog.LevelDebug) {
			t.Errorf("level %v: body logged = %v:\n%s", level, hasBody, out)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// TestWorkerLogsEachDelivery: an SMTP delivery logs one info line with
// the message and recipient ids, and never the subject or body.
func TestWorkerLogsEachDelivery(t *testing.T) {
	f := newFixture(t)
	srv := newSMTPServer(t)
	const text = "The confidential accounts are in the data room."
	ids := f.post(t, text, f.bob())
	var logs bytes.Buffer
	w := &Worker{Store: f.st, Sender: smtpSender(t, srv.URL("")), Log: slog.New(slog.NewTextHandler(&logs, nil)),
		Now: func() time.Time { return t0.Add(time.Second) }}
	if d, _, err := w.RunOnce(context.Background()); err != nil || d != 1 {
		t.Fatalf("RunOnce = %d delivered, %v; want 1", d, err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if strings.Contains(l, "notify: delivered") {
			lines = append(lines, l)
		}
	}
	n := f.rows(t)[ids[0]]
	if len(lines) != 1 {
		t.Fatalf("%d delivery lines, want 1:\n%s", len(lines), logs.String())
	}
	for _, want := range []string{"level=INFO", "notification_id=" + n.ID, "message_id=" + n.MessageID, "person_id=" + n.PersonID} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("delivery line lacks %q: %s", want, lines[0])
		}
	}
	if strings.Contains(logs.String(), "confidential") || strings.Contains(logs.String(), n.Subject) {
		t.Errorf("the log carries the notification's content:\n%s", logs.String())
	}
}
