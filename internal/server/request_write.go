package server

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/service"
	"github.com/dealctl/dealctl/internal/store"
)

// createRequestCall creates a request or a section.
func (s *Server) createRequestCall() create {
	return create{authorize: s.authorizeCreateRequest, perform: s.createRequest, replay: s.replayRequest, keptHeaders: keptRequestETag}
}

// keptRequestETag gives a replayed creation the ETag its first answer
// had, which the document declares on every 201: that of the row as the
// kept body shows it, just created (no internal note yet), for the same
// caller on a deal still open to writes. A row changed since has another
// ETag, so an If-Match with this one fails as it should.
func keptRequestETag(w http.ResponseWriter, t *target, body []byte) {
	var first struct {
		ID        string    `json:"id"`
		UpdatedAt time.Time `json:"updated_at"`
	}
	if err := json.Unmarshal(body, &first); err != nil || first.ID == "" {
		return // not a row: nothing to validate
	}
	w.Header().Set("ETag", requestETag(t.dc, store.Request{ID: first.ID, UpdatedAt: first.UpdatedAt}))
}

// authorizeCreateRequest: only the owning side's admins and editors may
// create, on a deal that is not archived, with a write key.
func (s *Server) authorizeCreateRequest(ctx context.Context, r *http.Request, c *call) (*target, error) {
	dc, err := s.reachDeal(ctx, c, r.PathValue("deal_id"))
	if err != nil {
		return nil, err
	}
	if err := service.MayCreate(dc.actor); err != nil {
		return nil, err
	}
	return &target{dc: dc}, nil
}

func (s *Server) createRequest(w http.ResponseWriter, r *http.Request, t *target) error {
	var in api.DealRequestCreate
	if err := decodeBody(r, &in); err != nil {
		return err
	}
	created, err := s.svc.CreateRequest(r.Context(), t.dc.actor, s.now(), in)
	if err != nil {
		return err
	}
	respondCreated(w, t.dc, newDealView(t.dc), created)
	return nil
}

// updateRequest edits, assigns and moves the status in one call
// (service.UpdateRequest). Who may send which fields is known from the
// fields' names: a viewer is refused before the body is read, anyone
// else once its names are scanned and before it is decoded.
func (s *Server) updateRequest(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx := r.Context()
	dc, row, err := s.reachRequest(ctx, c, r)
	if err != nil {
		return err
	}
	// A caller who may change nothing on the row (a viewer) is refused
	// before a byte of the body is read: whatever it sends, it costs the
	// server no memory and no wait.
	if err := service.MayUpdate(dc.actor, row, nil); err != nil {
		return err
	}
	var in api.DealRequestUpdate
	body, err := readBody(r, &in)
	if err != nil {
		return err
	}
	if err := service.MayUpdate(dc.actor, row, body.has); err != nil {
		return err
	}
	if err := body.decode(&in); err != nil {
		return err
	}
	// A malformed precondition is answered after the body's own
	// mistakes, as the service checks preconditions after the fields.
	pre, preErr := preconditionOf(r)
	updated, err := s.svc.UpdateRequest(ctx, dc.actor, s.now(), row, in, func(cur store.Request) error {
		if preErr != nil {
			return preErr
		}
		return pre.check(dc, cur)
	})
	if err != nil {
		return err
	}
	return s.respondRequest(ctx, w, dc, newDealView(dc), http.StatusOK, updated)
}

// replayRequest answers a repeated create whose first answer was never
// saved with the request it created, as created.
func (s *Server) replayRequest(w http.ResponseWriter, r *http.Request, t *target, id string) error {
	ctx, dc := r.Context(), t.dc
	row, err := s.store.Request(ctx, dc.deal.ID, id)
	if err != nil {
		return err
	}
	view := newDealView(dc)
	return s.respondRequest(ctx, w, dc, view, http.StatusCreated, row)
}
