package client

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

func TestMoveStatusReadsFreshAndSendsIfMatch(t *testing.T) {
	ls := startLive(t)
	c := ls.client(t, aliceKey)
	dealID, row := ls.falconRow(t, c, "1.1")
	ls.reset()

	after, changed, err := c.MoveStatus(context.Background(), dealID, row, "", api.StatusPartial)
	if err != nil || !changed || after.Status != api.StatusPartial {
		t.Fatalf("MoveStatus: %+v changed=%v err=%v", after, changed, err)
	}
	calls := ls.recorded()
	if len(calls) != 2 || calls[0].Method != http.MethodGet || calls[1].Method != http.MethodPatch {
		t.Fatalf("calls %v, want a GET of the request then the PATCH", methods(calls))
	}
	if calls[1].Header.Get("If-Match") == "" {
		t.Error("the PATCH carried no If-Match although the server advertises if-match")
	}
}

func TestMoveStatusAlreadyThereCallsNothing(t *testing.T) {
	ls := startLive(t)
	c := ls.client(t, aliceKey)
	dealID, row := ls.falconRow(t, c, "1.2")
	ls.reset()

	after, changed, err := c.MoveStatus(context.Background(), dealID, row, "*", api.StatusComplete)
	if err != nil || changed || after.Status != api.StatusComplete {
		t.Fatalf("MoveStatus: %+v changed=%v err=%v", after, changed, err)
	}
	if calls := ls.recorded(); len(calls) != 0 {
		t.Errorf("already there made calls %v", methods(calls))
	}
}

func TestMoveStatusRefusedBeforeAnyCall(t *testing.T) {
	ls := startLive(t)
	alice, bob := ls.client(t, aliceKey), ls.client(t, bobKey)
	dealID, row := ls.falconRow(t, alice, "1.1")
	if _, _, err := alice.MoveStatus(context.Background(), dealID, row, "", api.StatusPartial); err != nil {
		t.Fatal(err)
	}
	_, row = ls.falconRow(t, bob, "1.1") // partial: the counterparty may only go forward
	ls.reset()

	_, changed, err := bob.MoveStatus(context.Background(), dealID, row, "*", api.StatusOpen)
	var refused *MoveRefusedError
	if !errors.As(err, &refused) || changed {
		t.Fatalf("err %v changed=%v, want a *MoveRefusedError", err, changed)
	}
	if refused.From != api.StatusPartial || refused.To != api.StatusOpen ||
		!slices.Equal(refused.Allowed, []api.RequestStatus{api.StatusComplete}) || refused.Err != nil {
		t.Errorf("refused %+v", refused)
	}
	if want := "cannot move 1.1 from partial to open; allowed moves: complete"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	if calls := ls.recorded(); len(calls) != 0 {
		t.Errorf("a refused move made calls %v", methods(calls))
	}
}

// A row read before someone else moved it: the client's check passes on
// the old copy, the server refuses, and the refusal carries the server's
// current status and allowed list.
func TestMoveStatusRefusedByServerIsTyped(t *testing.T) {
	ls := startLive(t)
	alice, bob := ls.client(t, aliceKey), ls.client(t, bobKey)
	dealID, old := ls.falconRow(t, bob, "1.1") // open
	_, row := ls.falconRow(t, alice, "1.1")
	if _, _, err := alice.MoveStatus(context.Background(), dealID, row, "", api.StatusComplete); err != nil {
		t.Fatal(err)
	}

	_, _, err := bob.MoveStatus(context.Background(), dealID, old, "*", api.StatusPartial)
	var refused *MoveRefusedError
	if !errors.As(err, &refused) || refused.Err == nil {
		t.Fatalf("err %v, want a *MoveRefusedError from the server", err)
	}
	if refused.From != api.StatusComplete || len(refused.Allowed) != 0 || StatusOf(err) != http.StatusConflict {
		t.Errorf("refused %+v status %d", refused, StatusOf(err))
	}
}

func TestMoveStatusStaleETagIsConflictStale(t *testing.T) {
	ls := startLive(t)
	c := ls.client(t, aliceKey)
	dealID, row := ls.falconRow(t, c, "1.1")
	r, etag, err := c.RequestWithETag(context.Background(), dealID, row.ID)
	if err != nil || etag == "" {
		t.Fatalf("read: %q %v", etag, err)
	}
	if _, err := c.UpdateRequest(context.Background(), dealID, row.ID, api.DealRequestUpdate{Title: api.Some("Certificate, renamed")}); err != nil {
		t.Fatal(err)
	}

	_, changed, err := c.MoveStatus(context.Background(), dealID, r, etag, api.StatusComplete)
	if !IsConflictStale(err) || changed {
		t.Fatalf("err %v changed=%v, want conflict_stale", err, changed)
	}
	now, err := c.Request(context.Background(), dealID, row.ID)
	if err != nil || now.Status != api.StatusOpen {
		t.Errorf("after a stale move the request is %+v (%v), want it still open", now, err)
	}
}

func methods(calls []*http.Request) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.Method + " " + c.URL.Path
	}
	return out
}

// TestMoveStatusAfterALostAnswer: a move whose answer was lost to a
// database outage (it applied, then 503) is sent again by the retry
// layer, fails its If-Match, and is found done: success, not a conflict.
func TestMoveStatusAfterALostAnswer(t *testing.T) {
	ls := startLive(t)
	c, err := New(Options{BaseURL: ls.URL, Key: aliceKey, MaxRateWait: -1, Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	dealID, row := ls.falconRow(t, c, "1.1")
	ls.mu.Lock()
	ls.lostPATCH = 1
	ls.mu.Unlock()
	after, _, err := c.MoveStatus(context.Background(), dealID, row, "", api.StatusPartial)
	if err != nil || after.Status != api.StatusPartial {
		t.Fatalf("MoveStatus after a lost answer: %+v, %v; want success at partial", after, err)
	}
	patches := 0
	for _, r := range ls.recorded() {
		if r.Method == http.MethodPatch {
			patches++
		}
	}
	if patches != 2 {
		t.Errorf("%d PATCHes, want the lost one and its repeat", patches)
	}
}
