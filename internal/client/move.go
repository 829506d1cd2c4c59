package client

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
)

// MoveRefusedError is a status move the caller may not make from the
// request's current status: found before any call from the request's
// allowed_statuses, or answered by the server (409 status_not_allowed),
// in which case Err is that answer.
type MoveRefusedError struct {
	Number   string
	From, To api.RequestStatus
	Allowed  []api.RequestStatus
	Err      *Error // the server's answer; nil when refused before calling
}

func (e *MoveRefusedError) Error() string {
	allowed := make([]string, len(e.Allowed))
	for i, s := range e.Allowed {
		allowed[i] = string(s)
	}
	list := strings.Join(allowed, ", ")
	if list == "" {
		list = "none"
	}
	return fmt.Sprintf("cannot move %s from %s to %s; allowed moves: %s", e.Number, e.From, e.To, list)
}

// Unwrap exposes the server's answer, when there was one.
func (e *MoveRefusedError) Unwrap() error {
	if e.Err == nil {
		return nil
	}
	return e.Err
}

// MoveStatus moves r to status to: the one path by which the CLI and the
// TUI move a status, so that a rule is never missing in one of them.
//
// etag is r's ETag, sent back as If-Match where the server advertises
// if-match, so the move lands on the version its checks ran on or fails
// with 409 conflict_stale (IsConflictStale). ListRowPrecondition(r), for
// r read from a list, makes the move land only while the row's updated_at
// is still r's. "*" says r is current and only asks that the request
// still exists.
// With "", r may be old: where if-match is advertised, r is read again
// first and the checks run on that fresh copy.
//
// A request already at to is success without a write (changed is false,
// after is r as checked); so is a row found at to after the move failed
// on its precondition (a repeat of a move that had applied). A move outside r's allowed_statuses is a
// *MoveRefusedError without a call; an empty allowed list is the server's
// to explain (read-only key, viewer, archived deal), so the call is made
// and its answer returned.
func (c *Client) MoveStatus(ctx context.Context, dealID string, r *api.DealRequest, etag string, to api.RequestStatus) (after *api.DealRequest, changed bool, err error) {
	if etag == "" && c.Supports(api.ExtIfMatch) {
		if r, etag, err = c.RequestWithETag(ctx, dealID, r.ID); err != nil {
			return nil, false, err
		}
	}
	switch {
	case r.Status == to:
		return r, false, nil
	case len(r.AllowedStatuses) > 0 && !api.OneOf(to, r.AllowedStatuses):
		return nil, false, &MoveRefusedError{Number: r.Number, From: r.Status, To: to, Allowed: r.AllowedStatuses}
	}
	after, err = c.UpdateRequestIfMatch(ctx, dealID, r.ID, api.DealRequestUpdate{Status: api.Some(to)}, etag)
	if IsConflictStale(err) {
		// The retry layer sends a PATCH with a precondition again after
		// an answer that does not say whether it applied (a database
		// outage's 503): when it had, the repeat no longer matches. A
		// row now at to is what was asked, as when it was there before.
		if fresh, rerr := c.Request(ctx, dealID, r.ID); rerr == nil && fresh.Status == to {
			return fresh, false, nil
		}
	}
	if err != nil {
		return nil, false, refusedByServer(r, to, err)
	}
	return after, true, nil
}

// refusedByServer turns a 409 status_not_allowed into a
// *MoveRefusedError carrying the server's from and allowed list; other
// errors are returned as they are.
func refusedByServer(r *api.DealRequest, to api.RequestStatus, err error) error {
	var e *Error
	if !errors.As(err, &e) || e.Response.Code != api.CodeConflict || e.Response.Reason() != api.ReasonStatusNotAllowed {
		return err
	}
	refused := &MoveRefusedError{Number: r.Number, From: r.Status, To: to, Err: e}
	if from, ok := e.Response.Params["from"].(string); ok {
		refused.From = api.RequestStatus(from)
	}
	if allowed, ok := e.Response.Params["allowed"].([]any); ok {
		for _, a := range allowed {
			if s, ok := a.(string); ok {
				refused.Allowed = append(refused.Allowed, api.RequestStatus(s))
			}
		}
	}
	return refused
}
