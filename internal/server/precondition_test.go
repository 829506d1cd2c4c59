package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// TestPatchIfUpdatedAt: a change to a row read from a list is conditional
// on the updated_at the list showed: it lands while that is still the
// row's, and is refused (409 conflict_stale, nothing written) once someone
// else has changed the row since.
func TestPatchIfUpdatedAt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/1.1")
	olivia, oscar := e.as(t, "olivia-write"), e.as(t, "oscar-write")
	listed := func() api.DealRequest {
		t.Helper()
		for _, r := range olivia.get(requestsPath(falcon)).want(http.StatusOK).requests() {
			if r.ID == id {
				return r
			}
		}
		t.Fatal("1.1 is not in the list")
		return api.DealRequest{}
	}
	since := func(r api.DealRequest) header {
		return header("X-Dealctl-If-Updated-At: " + r.UpdatedAt.Format(time.RFC3339Nano))
	}
	row := listed()
	moved := olivia.patch(requestPath(falcon, id), map[string]any{"status": "partial"}, since(row)).want(http.StatusOK).request()
	if moved.Status != api.StatusPartial {
		t.Fatalf("status %s after the move, want partial", moved.Status)
	}

	// Someone else changes the row between the list read and the move.
	row = listed()
	e.clock.Advance(time.Second)
	oscar.patch(requestPath(falcon, id), map[string]any{"title": "Renamed by Oscar"}).want(http.StatusOK)
	olivia.patch(requestPath(falcon, id), map[string]any{"status": "complete"}, since(row)).
		wantErr(http.StatusConflict, api.CodeConflictStale, "if_updated_at_failed")
	// A PATCH that changes nothing answers the precondition too.
	olivia.patch(requestPath(falcon, id), map[string]any{}, since(row)).
		wantErr(http.StatusConflict, api.CodeConflictStale, "if_updated_at_failed")
	if now := listed(); now.Status != api.StatusPartial || now.Title != "Renamed by Oscar" {
		t.Errorf("after the refused move the row is %s %q, want partial and Oscar's title", now.Status, now.Title)
	}

	olivia.patch(requestPath(falcon, id), map[string]any{"status": "complete"}, header("X-Dealctl-If-Updated-At: yesterday")).
		wantErr(http.StatusBadRequest, api.CodeBadRequest, "malformed_precondition")
	if got := olivia.get("/api/v1/me").want(http.StatusOK).header.Get("X-Dealctl-Extensions"); !strings.Contains(got, "if-updated-at") {
		t.Errorf("extensions %q, want if-updated-at advertised", got)
	}
}
