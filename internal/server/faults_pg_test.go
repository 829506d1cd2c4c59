package server_test

// A PostgreSQL of the test's own, restarted (-m fast, -m immediate) and
// frozen (SIGSTOP) under keyed writes and notification deliveries on two
// instances: no acknowledged write lost, each key written once, every
// attempt answered within its deadline, every notification delivered and
// none twice (docs/server.md "Database outages"). It runs in the full
// suite; -short skips it (pgtest.Own).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/notify"
	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// deliveries counts the webhook deliveries a receiver got, by delivery id.
type deliveries struct {
	mu  sync.Mutex
	got map[string]int
}

func (d *deliveries) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	d.got[r.Header.Get(notify.DeliveryHeader)]++
	d.mu.Unlock()
}

func TestPostgresRestartAndFreezeUnderLoad(t *testing.T) {
	t.Parallel()
	if os.Getenv(storeEnv) != "" {
		t.Skip("the child run of the API suite: this test owns its PostgreSQL and runs once")
	}
	cluster := pgtest.Own(t)
	ctx := context.Background()
	start := time.Now()
	now := func() time.Time { return t0.Add(time.Hour + time.Since(start)) }
	const deadline = time.Second
	quiet := slog.New(slog.DiscardHandler)

	rcv := &deliveries{got: map[string]int{}}
	hook := httptest.NewServer(rcv)
	t.Cleanup(hook.Close)

	// Two instances, each with its pool, server and notification worker.
	var ids *worldIDs
	var bases []string
	var first *sqlstore.DB
	for i := range 2 {
		st, err := sqlstore.OpenWith(ctx, cluster.URL(), sqlstore.OpenOptions{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = st.Close() })
		if i == 0 {
			first = st
			w, err := applyWorld(ctx, st, "testdata/world.yaml")
			if err != nil {
				t.Fatal(err)
			}
			ids = &worldIDs{deal: w.Deals["falcon"], row: w.Requests["falcon/2.1"], secret: w.Keys["ben-write"].Secret}
		}
		sender, err := notify.NewWebhookSender(hook.URL, "s3cret")
		if err != nil {
			t.Fatal(err)
		}
		worker := &notify.Worker{Store: st, Sender: sender, Log: quiet, Interval: 100 * time.Millisecond, Now: now}
		wctx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); _ = worker.Run(wctx) }()
		t.Cleanup(func() { stop(); <-done })
		srv, err := server.New(ctx, server.Config{Store: st, BaseURL: "http://x.invalid", Now: now, Logger: quiet, DBTimeout: deadline, Posted: worker.Poke})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv)
		t.Cleanup(ts.Close)
		bases = append(bases, ts.URL)
	}

	// Writers: keyed posts, each retried with its key until acknowledged.
	stopWriting := make(chan struct{})
	var mu sync.Mutex
	acked := map[string]string{} // message id → text
	var outages atomic.Int64     // 503 database_unavailable answers seen
	var wg sync.WaitGroup
	for i, base := range bases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stopWriting:
					return
				default:
				}
				text := fmt.Sprintf("instance %d, write %d", i, n)
				id, err := postUntilAcknowledged(base, ids, text, fmt.Sprintf("fault-%d-%d", i, n), deadline, &outages)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				acked[id] = text
				mu.Unlock()
				time.Sleep(50 * time.Millisecond) // a steady load, not a flood: each post queues notifications
			}
		}()
	}
	faultsFrom := time.Now()
	pause := func() { time.Sleep(300 * time.Millisecond) }
	pause()
	cluster.Restart(t, "fast")
	pause()
	cluster.Restart(t, "immediate")
	pause()
	cluster.Freeze(t, 2*time.Second)
	pause()
	close(stopWriting)
	wg.Wait()
	t.Logf("set up in %v, faults and writes in %v", faultsFrom.Sub(start), time.Since(faultsFrom))
	drainFrom := time.Now()
	if t.Failed() {
		return
	}

	// Every acknowledged write is there, once.
	msgs, err := first.Messages(ctx, ids.deal, ids.row)
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]int{}
	byID := map[string]bool{}
	for _, m := range msgs {
		texts[m.Text]++
		byID[m.ID] = true
	}
	for id, text := range acked {
		if !byID[id] {
			t.Errorf("acknowledged write %q (%s) is lost", text, id)
		}
		if texts[text] != 1 {
			t.Errorf("write %q is stored %d times", text, texts[text])
		}
	}
	if len(acked) < 4 || outages.Load() == 0 {
		t.Errorf("%d writes acknowledged, %d answered 503: the load did not meet the faults", len(acked), outages.Load())
	}

	// Every notification is delivered, and no delivery id comes twice.
	var rows int
	waitUntil := time.Now().Add(15 * time.Second)
	for {
		ns, err := first.Notifications(ctx, ids.deal)
		if err != nil {
			t.Fatal(err)
		}
		pending := 0
		for _, n := range ns {
			if n.DeliveredAt == nil {
				pending++
			}
		}
		rows = len(ns)
		if pending == 0 {
			break
		}
		if time.Now().After(waitUntil) {
			t.Fatalf("%d of %d notifications still undelivered 15 s after the faults", pending, rows)
		}
		time.Sleep(100 * time.Millisecond)
	}
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	for id, k := range rcv.got {
		if k != 1 {
			t.Errorf("delivery %s reached the receiver %d times", id, k)
		}
	}
	if len(rcv.got) != rows || rows == 0 {
		t.Errorf("the receiver got %d distinct deliveries of %d notifications", len(rcv.got), rows)
	}
	t.Logf("%d 503s ridden out; %d writes acknowledged, %d notifications delivered once each, the last %v after the faults", outages.Load(), len(acked), rows, time.Since(drainFrom))
}

type worldIDs struct{ deal, row, secret string }

// postUntilAcknowledged posts text with key until the server answers 201,
// as a client that retries with its key would, for at most 30 s. Every
// attempt must answer within the deadline (plus slack for the machine).
func postUntilAcknowledged(base string, ids *worldIDs, text, key string, deadline time.Duration, outages *atomic.Int64) (string, error) {
	body, _ := json.Marshal(map[string]any{"text": text})
	hc := &http.Client{Timeout: 10 * time.Second}
	giveUp := time.Now().Add(30 * time.Second)
	for time.Now().Before(giveUp) {
		req, _ := http.NewRequest(http.MethodPost, base+messagesPath(ids.deal, ids.row), bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+ids.secret)
		req.Header.Set("Idempotency-Key", key)
		req.Header.Set("Content-Type", "application/json")
		began := time.Now()
		resp, err := hc.Do(req)
		if took := time.Since(began); took > deadline+3*time.Second {
			return "", fmt.Errorf("%s: an attempt took %v, past the %v deadline", key, took, deadline)
		}
		if err != nil {
			return "", fmt.Errorf("%s: %v", key, err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusCreated:
			var m struct{ ID string }
			if err := json.Unmarshal(data, &m); err != nil || m.ID == "" {
				return "", fmt.Errorf("%s: 201 without an id: %s", key, data)
			}
			return m.ID, nil
		case http.StatusServiceUnavailable, http.StatusConflict:
			if resp.StatusCode == http.StatusServiceUnavailable {
				if resp.Header.Get("Retry-After") == "" {
					return "", fmt.Errorf("%s: 503 without Retry-After: %s", key, data)
				}
				outages.Add(1)
			}
			time.Sleep(100 * time.Millisecond)
		default:
			return "", fmt.Errorf("%s: answered %d during the faults: %s", key, resp.StatusCode, data)
		}
	}
	return "", fmt.Errorf("%s: not acknowledged within 30 s", key)
}
