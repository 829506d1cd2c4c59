package server

import (
	"net/http"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// deleteRequest answers DELETE /deals/{deal_id}/requests/{request_id}
// (extension "delete"): the owning side's admins and editors may delete
// a request, or a section with nothing under it, that has no messages.
// What could be lost with it (an answer, an internal note, rows under a
// section) makes it a 409 instead. The deletion is a request.deleted
// event carrying the row, so it can be made again (docs/api.md,
// "Deleting a request").
func (s *Server) deleteRequest(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx := r.Context()
	dc, row, err := s.reachRequest(ctx, c, r)
	if err != nil {
		return err
	}
	if err := denyWrite(dc); err != nil {
		return err
	}
	if !dc.caller.CanCreate() {
		return api.NewError(api.CodeForbidden, api.ReasonCannotDeleteRequest)
	}
	pre, err := preconditionOf(r)
	if err != nil {
		return err
	}
	_, err = s.store.DeleteRequest(store.WithActor(ctx, dc.seat.ID), dc.deal.ID, row.ID, func(cur store.Request, children, messages int) error {
		if err := pre.check(dc, cur); err != nil {
			return err
		}
		switch {
		case children > 0:
			return &api.ErrorResponse{Code: api.CodeConflict, Params: map[string]any{"reason": api.ReasonHasChildren, "number": cur.Number, "children": children}}
		case messages > 0:
			return &api.ErrorResponse{Code: api.CodeConflict, Params: map[string]any{"reason": api.ReasonHasMessages, "number": cur.Number}}
		}
		return nil
	})
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
