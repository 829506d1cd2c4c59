package server_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// newRow creates a fresh request on falcon as olivia and moves it to
// status, so each case starts from a known state.
func newRow(t *testing.T, e *env, status api.RequestStatus) api.DealRequest {
	t.Helper()
	olivia := e.as(t, "olivia-write")
	falcon := e.deal("falcon")
	r := olivia.post(requestsPath(falcon), map[string]any{"title": "Transition", "parent_id": e.row("falcon/2")}).want(http.StatusCreated).request()
	if status != api.StatusOpen {
		r = olivia.patch(requestPath(falcon, r.ID), map[string]any{"status": status}).want(http.StatusOK).request()
	}
	return r
}

// TestPatchStatus covers the first two rows of docs/api.md#states-and-transitions with the
// allowed_statuses of docs/decisions.md: the owning side's workers may move a
// request to any other status, the counterparty's only forward; the
// current status itself is never allowed.
func TestPatchStatus(t *testing.T) {
	t.Parallel()
	const (
		open     = api.StatusOpen
		partial  = api.StatusPartial
		complete = api.StatusComplete
	)
	cases := []struct {
		key      string
		from, to api.RequestStatus
		allowed  []api.RequestStatus // the row's allowed_statuses for key, before the PATCH
		ok       bool
	}{
		{"olivia-write", open, partial, statuses(partial, complete), true},
		{"olivia-write", open, complete, statuses(partial, complete), true},
		{"olivia-write", partial, open, statuses(open, complete), true},
		{"olivia-write", partial, complete, statuses(open, complete), true},
		{"olivia-write", complete, open, statuses(open, partial), true},
		{"olivia-write", complete, partial, statuses(open, partial), true},
		{"olivia-write", open, open, statuses(partial, complete), false},
		{"olivia-write", complete, complete, statuses(open, partial), false},
		{"oscar-write", complete, open, statuses(open, partial), true},
		{"oscar-write", partial, partial, statuses(open, complete), false},
		{"bella-write", open, partial, statuses(partial, complete), true},
		{"bella-write", open, complete, statuses(partial, complete), true},
		{"bella-write", partial, complete, statuses(complete), true},
		{"bella-write", partial, open, statuses(complete), false},
		{"bella-write", complete, open, statuses(), false},
		{"bella-write", complete, partial, statuses(), false},
		{"ben-write", open, open, statuses(partial, complete), false},
		{"ben-write", complete, complete, statuses(), false},
		{"ben-write", partial, complete, statuses(complete), true},
	}
	e := newEnv(t)
	falcon := e.deal("falcon")
	for _, c := range cases {
		t.Run(c.key+"/"+string(c.from)+"→"+string(c.to), func(t *testing.T) {
			row := newRow(t, e, c.from)
			caller := e.as(t, c.key)
			before := caller.get(requestPath(falcon, row.ID)).want(http.StatusOK).request()
			if !slices.Equal(before.AllowedStatuses, c.allowed) {
				t.Errorf("allowed_statuses = %v, want %v", before.AllowedStatuses, c.allowed)
			}
			if before.Can.ChangeStatus != (len(c.allowed) > 0) {
				t.Errorf("can.change_status = %v with allowed %v", before.Can.ChangeStatus, c.allowed)
			}
			e.clock.Advance(time.Minute)
			r := caller.patch(requestPath(falcon, row.ID), map[string]any{"status": c.to})
			if c.ok {
				got := r.want(http.StatusOK).request()
				now := e.clock.Now()
				if got.Status != c.to || got.StatusChangedAt == nil || !got.StatusChangedAt.Equal(now) || !got.UpdatedAt.Equal(now) {
					t.Errorf("after the move: status %s, status_changed_at %v, updated_at %v; want %s and both %v",
						got.Status, got.StatusChangedAt, got.UpdatedAt, c.to, now)
				}
				return
			}
			er := r.wantErr(http.StatusConflict, api.CodeConflict, api.ReasonStatusNotAllowed)
			if er.Params["from"] != string(c.from) || er.Params["to"] != string(c.to) {
				t.Errorf("params = %v, want from %s to %s", er.Params, c.from, c.to)
			}
			var allowed []api.RequestStatus
			list, ok := er.Params["allowed"].([]any)
			if !ok {
				t.Fatalf("params.allowed = %#v, want an array", er.Params["allowed"])
			}
			for _, a := range list {
				allowed = append(allowed, api.RequestStatus(a.(string)))
			}
			if !slices.Equal(statuses(allowed...), c.allowed) {
				t.Errorf("params.allowed = %v, want %v", allowed, c.allowed)
			}
			after := caller.get(requestPath(falcon, row.ID)).want(http.StatusOK).request()
			if after.Status != c.from || !after.UpdatedAt.Equal(before.UpdatedAt) || !eqTime(after.StatusChangedAt, before.StatusChangedAt) {
				t.Errorf("a refused move changed the row: before %+v, after %+v", before, after)
			}
		})
	}
}

// TestPostMoves covers the last three rows of docs/api.md#states-and-transitions: a shared response
// with update_status (default true) moves the request to partial or
// complete, within the caller's allowed moves (docs/decisions.md: the
// counterparty does not reopen a complete request by answering it);
// update_status false, internal responses and every other kind leave it.
func TestPostMoves(t *testing.T) {
	t.Parallel()
	const (
		open     = api.StatusOpen
		partial  = api.StatusPartial
		complete = api.StatusComplete
	)
	cases := []struct {
		name string
		key  string
		from api.RequestStatus
		body map[string]any
		want api.RequestStatus
	}{
		{"partial response", "bella-write", open, map[string]any{"text": "part", "partial": true}, partial},
		{"complete response", "bella-write", open, map[string]any{"text": "all"}, complete},
		{"explicit kind and update_status", "ben-write", partial, map[string]any{"text": "all", "kind": "response", "update_status": true}, complete},
		{"counterparty's partial answer does not reopen a complete request", "ben-write", complete, map[string]any{"text": "more", "partial": true}, complete},
		{"owner's partial answer reopens a complete request", "oscar-write", complete, map[string]any{"text": "more", "partial": true}, partial},
		{"counterparty's partial answer on a partial request", "ben-write", partial, map[string]any{"text": "more", "partial": true}, partial},
		{"owner's response", "oscar-write", open, map[string]any{"text": "done"}, complete},
		{"owner's internal response leaves the status", "olivia-write", open, map[string]any{"text": "done", "internal": true}, open},
		{"complete stays complete", "bella-write", complete, map[string]any{"text": "again"}, complete},
		{"update_status false", "bella-write", open, map[string]any{"text": "fyi", "update_status": false}, open},
		{"update_status false, partial", "bella-write", complete, map[string]any{"text": "fyi", "partial": true, "update_status": false}, complete},
		{"question", "ben-write", open, map[string]any{"text": "?", "kind": "question"}, open},
		{"reference", "ben-write", partial, map[string]any{"text": "see", "kind": "reference"}, partial},
		{"partial question", "ben-write", open, map[string]any{"text": "?", "kind": "question", "partial": true}, open},
		{"internal note", "oscar-write", open, map[string]any{"text": "note", "kind": "internal_note"}, open},
	}
	e := newEnv(t)
	falcon := e.deal("falcon")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			row := newRow(t, e, c.from)
			e.clock.Advance(time.Minute)
			e.as(t, c.key).post(messagesPath(falcon, row.ID), c.body).want(http.StatusCreated)
			got := e.as(t, "olivia-write").get(requestPath(falcon, row.ID)).want(http.StatusOK).request()
			if got.Status != c.want {
				t.Errorf("status = %s, want %s", got.Status, c.want)
			}
			moved := c.want != c.from
			switch {
			case moved && (got.StatusChangedAt == nil || !got.StatusChangedAt.Equal(e.clock.Now())):
				t.Errorf("status_changed_at = %v, want %v", got.StatusChangedAt, e.clock.Now())
			case !moved && !eqTime(got.StatusChangedAt, row.StatusChangedAt):
				t.Errorf("status_changed_at moved from %v to %v without a status change", row.StatusChangedAt, got.StatusChangedAt)
			}
		})
	}
}
