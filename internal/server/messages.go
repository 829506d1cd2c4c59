package server

import (
	"context"
	"net/http"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/service"
	"github.com/dealctl/dealctl/internal/store"
)

// listMessages answers a request's conversation as the caller may see it:
// the other side's internal messages are left out.
func (s *Server) listMessages(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx := r.Context()
	dc, row, err := s.reachRequest(ctx, c, r)
	if err != nil {
		return err
	}
	etag := etagOf("messages", row.ID, versionFor(dc), viewClass(dc))
	if notModified(w, r, etag) {
		return nil
	}
	msgs, err := s.store.Messages(ctx, dc.deal.ID, row.ID)
	if err != nil {
		return err
	}
	files, err := s.store.VisibleFiles(ctx, dc.deal.ID, row.ID, dc.seat.PartyID)
	if err != nil {
		return err
	}
	view := newDealView(dc)
	filesBy := map[string][]store.File{}
	for _, f := range files {
		filesBy[f.MessageID] = append(filesBy[f.MessageID], f)
	}
	out := make([]api.Message, 0, len(msgs))
	for _, m := range msgs {
		if dc.caller.MaySeeMessage(m.PartyID, m.Internal) {
			out = append(out, view.message(m, filesBy[m.ID]))
		}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// postMessage posts under the key owner's name with source api
// (service.Answer: the status move, the notifications).
func (s *Server) postMessageCall() create {
	return create{authorize: s.authorizePost, perform: s.postMessage, replay: s.replayMessage}
}

// authorizePost: who may post is known before the body is read, so a
// viewer's body is never read, let alone decoded.
func (s *Server) authorizePost(ctx context.Context, r *http.Request, c *call) (*target, error) {
	dc, row, err := s.reachRequest(ctx, c, r)
	if err != nil {
		return nil, err
	}
	if err := service.MayAnswer(dc.actor, row); err != nil {
		return nil, err
	}
	return &target{dc: dc, row: row}, nil
}

func (s *Server) postMessage(w http.ResponseWriter, r *http.Request, t *target) error {
	var in api.MessageCreate
	if err := decodeBody(r, &in); err != nil {
		return err
	}
	stored, files, err := s.svc.Answer(r.Context(), t.dc.actor, s.now(), t.row, service.Post{In: in, Source: api.SourceAPI})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, newDealView(t.dc).message(stored, files))
	return nil
}

// replayMessage answers a repeated post whose first answer was never
// saved with the message it posted.
func (s *Server) replayMessage(w http.ResponseWriter, r *http.Request, t *target, id string) error {
	ctx, dc, row := r.Context(), t.dc, t.row
	m, err := s.store.Message(ctx, dc.deal.ID, id)
	if err != nil {
		return err
	}
	// The same rule as reading the conversation: a caller whose seat
	// changed since the first post gets nothing it may no longer see.
	if m.RequestID != row.ID || !dc.caller.MaySeeMessage(m.PartyID, m.Internal) {
		return errNotFound
	}
	files, err := s.store.VisibleFiles(ctx, dc.deal.ID, row.ID, dc.seat.PartyID)
	if err != nil {
		return err
	}
	var mine []store.File
	for _, f := range files {
		if f.MessageID == m.ID {
			mine = append(mine, f)
		}
	}
	view := newDealView(dc)
	writeJSON(w, http.StatusCreated, view.message(m, mine))
	return nil
}
