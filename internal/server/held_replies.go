package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/mailin"
	"github.com/dealctl/dealctl/internal/store"
)

// The inbox of replies by e-mail (extension held-replies, docs/mail.md):
// a side's admins and editors see the replies its people mailed that wait
// for confirmation, and may post one for its sender (on_behalf) or
// discard it. The other side's held replies are not reachable (404);
// viewers are refused (403 cannot_confirm_reply), as are read keys and
// archived deals for the writes.

// heldCaller reaches the deal and refuses a viewer.
func (s *Server) heldCaller(ctx context.Context, c *call, r *http.Request) (*dealCall, error) {
	dc, err := s.reachDeal(ctx, c, r.PathValue("deal_id"))
	if err != nil {
		return nil, err
	}
	if dc.seat.Access != api.AccessAdmin && dc.seat.Access != api.AccessEditor {
		return nil, api.NewError(api.CodeForbidden, api.ReasonCannotConfirmReply)
	}
	return dc, nil
}

// mine reports whether h was mailed by someone of the caller's side.
func mine(dc *dealCall, h store.HeldReply) bool {
	for _, p := range dc.members.people {
		if p.ID == h.PersonID {
			return p.PartyID == dc.seat.PartyID
		}
	}
	return false
}

func (s *Server) listHeldReplies(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx := r.Context()
	dc, err := s.heldCaller(ctx, c, r)
	if err != nil {
		return err
	}
	held, err := s.store.HeldRepliesOf(ctx, dc.deal.ID, s.now())
	if err != nil {
		return err
	}
	rows, err := s.store.Requests(ctx, dc.deal.ID)
	if err != nil {
		return err
	}
	byID := make(map[string]store.Request, len(rows))
	for _, row := range rows {
		byID[row.ID] = row
	}
	view := newDealView(dc)
	out := []api.HeldReply{}
	for _, h := range held {
		if row, ok := byID[h.RequestID]; ok && mine(dc, h) {
			out = append(out, view.heldReply(h, row))
		}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// reachHeld finds the held reply in the path among the caller's side's.
func (s *Server) reachHeld(ctx context.Context, c *call, r *http.Request) (*dealCall, store.HeldReply, store.Request, error) {
	dc, err := s.heldCaller(ctx, c, r)
	if err != nil {
		return nil, store.HeldReply{}, store.Request{}, err
	}
	h, err := s.store.HeldReply(ctx, canonicalID(r.PathValue("held_id")))
	if errors.Is(err, store.ErrNotFound) || (err == nil && (h.DealID != dc.deal.ID || !mine(dc, h))) {
		return nil, h, store.Request{}, errNotFound
	}
	if err != nil {
		return nil, h, store.Request{}, err
	}
	_, row, err := s.store.DealRequest(ctx, dc.deal.ID, h.RequestID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, h, row, errNotFound // the request was deleted since
	}
	return dc, h, row, err
}

func (s *Server) getHeldReply(w http.ResponseWriter, r *http.Request, c *call) error {
	dc, h, row, err := s.reachHeld(r.Context(), c, r)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, newDealView(dc).heldReply(h, row))
	return nil
}

func (s *Server) postHeldReply(w http.ResponseWriter, r *http.Request, c *call) error {
	return s.decideHeld(w, r, c, true)
}

func (s *Server) discardHeldReply(w http.ResponseWriter, r *http.Request, c *call) error {
	return s.decideHeld(w, r, c, false)
}

// decideHeld posts or discards, once: a reply decided already (by its
// sender's link, or another colleague) is 409 reply_not_held.
func (s *Server) decideHeld(w http.ResponseWriter, r *http.Request, c *call, post bool) error {
	ctx := r.Context()
	dc, h, row, err := s.reachHeld(ctx, c, r)
	if err != nil {
		return err
	}
	if err := denyWrite(dc); err != nil {
		return err
	}
	now := s.now().UTC()
	switch {
	case h.State != store.HeldStateHeld:
		return api.NewError(api.CodeConflict, api.ReasonReplyNotHeld)
	case !now.Before(h.ExpiresAt):
		return api.NewError(api.CodeConflict, api.ReasonReplyExpired)
	}
	poster := mailin.ServicePoster{Service: s.svc, Store: s.store, Now: s.now}
	m, err := mailin.Decide(ctx, s.store, poster, h, dc.seat, post, now)
	switch {
	case errors.Is(err, store.ErrNotHeld):
		return api.NewError(api.CodeConflict, api.ReasonReplyNotHeld)
	case errors.Is(err, mailin.ErrSenderCannotAnswer):
		return api.NewError(api.CodeConflict, api.ReasonSenderCannotAnswer)
	case err != nil:
		return err
	}
	if !post {
		h.State = store.HeldStateDiscarded
		writeJSON(w, http.StatusOK, newDealView(dc).heldReply(h, row))
		return nil
	}
	files, err := s.store.Files(ctx, dc.deal.ID, row.ID)
	if err != nil {
		return err
	}
	var mineFiles []store.File
	for _, f := range files {
		if f.MessageID == m.ID {
			mineFiles = append(mineFiles, f)
		}
	}
	// The people read before the post name its author.
	writeJSON(w, http.StatusCreated, newDealView(dc).message(m, mineFiles))
	return nil
}

func (v *dealView) heldReply(h store.HeldReply, row store.Request) api.HeldReply {
	out := api.HeldReply{ID: h.ID, RequestID: row.ID, RequestNumber: row.Number, RequestTitle: row.Title,
		Sender: v.author(&h.PersonID), From: h.Sender, Subject: h.Subject, Text: h.Text, Format: api.FormatText,
		Files: []api.HeldFile{}, State: h.State, ReceivedAt: h.CreatedAt, ExpiresAt: h.ExpiresAt}
	for _, f := range h.Files {
		out.Files = append(out.Files, api.HeldFile{Name: f.Name, Size: f.Size, ContentType: f.ContentType})
	}
	return out
}
