package server

import (
	"net/http"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// X-Dealctl-If-Updated-At (api.IfUpdatedAtHeader) is the *extension*
// precondition for a PATCH of a row read from a list, which carries no
// ETag per row: the row's updated_at as the list showed it (RFC 3339, to
// the microsecond). The PATCH applies
// only while the row's updated_at is still that; otherwise 409
// conflict_stale. docs/decisions.md, "Calls per command", says why a
// second precondition beside If-Match.

// precondition is what a PATCH asks of the row before it changes it.
type precondition struct {
	ifMatch   string    // an ETag, "*" or ""
	updatedAt time.Time // zero: not asked
}

var (
	// errIfMatchFailed answers a PATCH whose If-Match names an ETag the
	// request no longer has.
	errIfMatchFailed = &api.ErrorResponse{Code: api.CodeConflictStale, Params: map[string]any{"reason": "if_match_failed"}}
	// errIfUpdatedAtFailed answers a PATCH whose row was updated since the
	// updated_at it names.
	errIfUpdatedAtFailed = &api.ErrorResponse{Code: api.CodeConflictStale, Params: map[string]any{"reason": "if_updated_at_failed"}}
)

// preconditionOf reads a PATCH's preconditions; a malformed updated_at is
// 400, since guessing what it meant could overwrite someone's change.
func preconditionOf(r *http.Request) (precondition, error) {
	p := precondition{ifMatch: r.Header.Get("If-Match")}
	if v := r.Header.Get(api.IfUpdatedAtHeader); v != "" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return p, &api.ErrorResponse{Code: api.CodeBadRequest, Params: map[string]any{"reason": "malformed_precondition",
				"header": api.IfUpdatedAtHeader, "detail": "want the row's updated_at as RFC 3339, e.g. 2027-03-01T09:00:00.123456Z"}}
		}
		p.updatedAt = t
	}
	return p, nil
}

// check holds row, as it stands inside the write, to the preconditions.
func (p precondition) check(dc *dealCall, row store.Request) error {
	if p.ifMatch != "" && p.ifMatch != "*" && p.ifMatch != requestETag(dc, row) {
		return errIfMatchFailed
	}
	// Stored times are whole microseconds; so is what the API shows.
	if !p.updatedAt.IsZero() && p.updatedAt.UnixMicro() != row.UpdatedAt.UnixMicro() {
		return errIfUpdatedAtFailed
	}
	return nil
}
