package server

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// eventsPage is a parsed events query: where to start and how many.
type eventsPage struct {
	after store.Cursor
	limit int
}

// key names the page in an ETag: two spellings of one page share it.
func (p eventsPage) key() string {
	return strconv.FormatInt(p.after.Seq, 10) + "." + strconv.Itoa(p.after.Index) + "/" + strconv.Itoa(p.limit)
}

// parseEventsPage reads after and limit. An after that is not an id of
// this deal's events is a 400 that says so, never an empty page: a client
// that lost its place must learn it rather than wait for events that will
// never come after a place that does not exist.
func (s *Server) parseEventsPage(q url.Values, dc *dealCall) (eventsPage, error) {
	p := eventsPage{limit: api.DefaultEventsLimit}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > api.MaxEventsLimit {
			var errs fieldErrors
			errs.add("limit", api.FieldInvalid, map[string]any{"min": 1, "max": api.MaxEventsLimit})
			return p, errs.err()
		}
		p.limit = n
	}
	if v := q.Get("after"); v != "" {
		c, err := s.eventIDs.decode(dc.deal.ID, v)
		switch {
		case errors.Is(err, errCursorMalformed):
			return p, cursorError(api.ReasonInvalidCursor, "after is not an event id this server gave out: pass the id of an event from this endpoint, or omit after to start from the first event")
		case err != nil, c.Seq > dc.deal.EventSeq:
			return p, cursorError(api.ReasonUnknownCursor, "after is not the id of an event of this deal: pass the id of an event read from this deal's events, or omit after to start from the first event")
		}
		p.after = c
	}
	return p, nil
}

func cursorError(reason, message string) error {
	return &api.ErrorResponse{Code: api.CodeBadRequest, Params: map[string]any{"reason": reason, "param": "after", "message": message}}
}

// eventsVersion is what an events page's ETag is built on. It must move
// with every event the caller may read and with nothing else it may not
// learn of: the counterparty's moves with what both sides see, the owning
// side's with its internal notes too, and its project admins', who read
// downloads, with those too (event_seq; version as well, which moves
// with the people whose names the events show).
func eventsVersion(dc *dealCall) string {
	if canReadAudit(dc) {
		return versionFor(dc) + "e" + strconv.FormatInt(dc.deal.EventSeq, 10)
	}
	return versionFor(dc)
}

// canReadAudit: download events are the owning side's audit trail, read
// by its project admins only.
func canReadAudit(dc *dealCall) bool { return dc.caller.OwnerSide && dc.seat.IsProjectAdmin }

// listEvents answers GET /deals/{deal_id}/events (extension "events"):
// the deal's events after `after` that the caller may read, oldest first.
// A poll with nothing new costs what a list 304 does: the deal row, read
// by every call, decides it.
func (s *Server) listEvents(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx := r.Context()
	dc, err := s.reachDeal(ctx, c, r.PathValue("deal_id"))
	if err != nil {
		return err
	}
	page, err := s.parseEventsPage(r.URL.Query(), dc)
	if err != nil {
		return err
	}
	if notModified(w, r, etagOf("events", dc.deal.ID, eventsVersion(dc), viewClass(dc), page.key())) {
		return nil
	}
	events, err := s.store.Events(ctx, dc.deal.ID, store.EventQuery{
		After: page.after, Limit: page.limit, PartyID: dc.seat.PartyID, Audit: canReadAudit(dc)})
	if err != nil {
		return err
	}
	view := newDealView(dc)
	out := make([]api.Event, 0, len(events))
	for _, e := range events {
		out = append(out, api.Event{ID: s.eventIDs.encode(dc.deal.ID, e.Cursor()), Type: e.Type, At: e.At,
			Actor: view.author(e.ActorID), RequestID: e.RequestID, Data: e.Data})
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
