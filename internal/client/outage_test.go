package client

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

var databaseAway = answer(503, http.Header{"Retry-After": {"2"}}, `{"code":"internal","params":{"reason":"database_unavailable"}}`)

// A database outage's 503 is ridden out, with a note per wait, for a call
// that is safe to repeat: a read, a PATCH naming its version, a keyed POST.
func TestRetryLayerRidesOutADatabaseRestart(t *testing.T) {
	for _, tc := range []struct {
		method string
		hdr    http.Header
	}{
		{"GET", nil},
		{"PATCH", http.Header{"If-Match": {`"v7"`}}},
		{"PATCH", http.Header{api.IfUpdatedAtHeader: {"2026-03-02T09:30:00Z"}}},
		{"POST", http.Header{"Idempotency-Key": {"dealctl-1"}}},
	} {
		// A restart of some 8 s: four 503s, then the answer.
		next := &scripted{answers: []func(*http.Request) (*http.Response, error){databaseAway, databaseAway, databaseAway, databaseAway, answer(200, nil, "ok")}}
		layer, waits := newRetryLayer(next, true)
		var notes []string
		layer.waiting = func(_ time.Duration, reason string) { notes = append(notes, reason) }
		resp, err := layer.RoundTrip(newRequest(t, tc.method, "https://h/api/v1/x", "{}", tc.hdr))
		if err != nil || resp.StatusCode != 200 || len(next.sent) != 5 {
			t.Errorf("%s %v: err %v, %d attempts; want 200 after 5", tc.method, tc.hdr, err, len(next.sent))
			continue
		}
		if len(notes) != 4 || notes[0] != reasonDatabaseUnavailable || len(*waits) != 4 || (*waits)[0] < 2*time.Second {
			t.Errorf("%s: notes %q, waits %v; want 4 of at least Retry-After", tc.method, notes, *waits)
		}
	}
}

// A write that is not safe to repeat gets the outage's 503 at once: its
// first attempt may have committed.
func TestRetryLayerDoesNotRepeatAnUnsafeWriteAfterAnOutage(t *testing.T) {
	for _, tc := range []struct {
		method string
		hdr    http.Header
	}{
		{"PATCH", nil},
		{"PATCH", http.Header{"If-Match": {"*"}}},
		{"POST", nil},
	} {
		next := &scripted{answers: []func(*http.Request) (*http.Response, error){databaseAway, answer(200, nil, "ok")}}
		layer, _ := newRetryLayer(next, true)
		resp, err := layer.RoundTrip(newRequest(t, tc.method, "https://h/api/v1/x", "{}", tc.hdr))
		if err != nil || resp.StatusCode != 503 || len(next.sent) != 1 {
			t.Errorf("%s %v: err %v, %d attempts; want the 503 after 1", tc.method, tc.hdr, err, len(next.sent))
		}
	}
}

// The waits stop at maxOutageWait in all: a server that stays down ends
// the command with its 503.
func TestRetryLayerOutageWaitIsBounded(t *testing.T) {
	answers := make([]func(*http.Request) (*http.Response, error), 100)
	for i := range answers {
		answers[i] = databaseAway
	}
	next := &scripted{answers: answers}
	layer, waits := newRetryLayer(next, true)
	resp, err := layer.RoundTrip(newRequest(t, "GET", "https://h/api/v1/x", "", nil))
	if err != nil || resp.StatusCode != 503 {
		t.Fatalf("err %v, status %v; want the last 503", err, resp)
	}
	var total time.Duration
	for _, w := range *waits {
		total += w
	}
	if total > maxOutageWait || total < maxOutageWait-maxUnavailableWait {
		t.Errorf("waited %v in %d waits, want close to but within %v", total, len(*waits), maxOutageWait)
	}
}

// A keyed POST told its key's first call is still running (as while the
// server releases the claim of a call the outage failed) waits and sends
// again.
func TestRetryLayerWaitsOnAKeyInProgress(t *testing.T) {
	inProgress := answer(409, http.Header{"Retry-After": {"1"}}, `{"code":"conflict","params":{"reason":"idempotency_in_progress"}}`)
	next := &scripted{answers: []func(*http.Request) (*http.Response, error){databaseAway, inProgress, answer(201, nil, "ok")}}
	layer, _ := newRetryLayer(next, true)
	resp, err := layer.RoundTrip(newRequest(t, "POST", "https://h/api/v1/x", "{}", http.Header{"Idempotency-Key": {"dealctl-1"}}))
	if err != nil || resp.StatusCode != 201 || len(next.sent) != 3 {
		t.Errorf("err %v, %d attempts; want 201 after 3", err, len(next.sent))
	}
}

// A PATCH sent with a RepeatSafe context is sent again after a dropped
// connection and after a database outage's 503, as a PATCH naming its
// version is; the same PATCH without it is not (import's field updates,
// whose only retries these are).
func TestRetryLayerRepeatsARepeatSafePatch(t *testing.T) {
	for _, first := range []func(*http.Request) (*http.Response, error){failure(errors.New("connection reset")), databaseAway} {
		for _, safe := range []bool{true, false} {
			next := &scripted{answers: []func(*http.Request) (*http.Response, error){first, answer(200, nil, "ok")}}
			layer, _ := newRetryLayer(next, false)
			req := newRequest(t, "PATCH", "https://h/api/v1/x", `{"title":"T"}`, nil)
			if safe {
				req = req.WithContext(RepeatSafe(req.Context()))
			}
			resp, err := layer.RoundTrip(req)
			repeated := err == nil && resp.StatusCode == 200 && len(next.sent) == 2
			if repeated != safe {
				t.Errorf("RepeatSafe %v: err %v, %d attempts; repeated %v, want %v", safe, err, len(next.sent), repeated, safe)
			}
		}
	}
}
