package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// listRequests answers the deal's list in list order. The body depends
// only on the deal's version, the caller's view class and the filters:
// an unchanged list costs two small reads, and a changed one the rows
// that changed (listRows).
func (s *Server) listRequests(w http.ResponseWriter, r *http.Request, c *call) error {
	return s.serveList(w, r, c, false)
}

// listRequestsDelta answers GET …/requests-delta?since=CURSOR (extension
// list-delta): what changed in the list since the one the cursor came
// with. It has a path of its own, not a parameter of the list, so that
// the list's 200 is always an array for generated clients, and a delta
// always a ListDelta.
func (s *Server) listRequestsDelta(w http.ResponseWriter, r *http.Request, c *call) error {
	return s.serveList(w, r, c, true)
}

// serveList answers the list, or with delta its ListDelta since the
// cursor the call sends.
func (s *Server) serveList(w http.ResponseWriter, r *http.Request, c *call, delta bool) error {
	ctx := r.Context()
	dc, err := s.reachDeal(ctx, c, r.PathValue("deal_id"))
	if err != nil {
		return err
	}
	q := r.URL.Query()
	filter, err := parseListFilter(q)
	if err != nil {
		return err
	}
	since := ""
	if delta {
		if since, err = sinceParam(q); err != nil {
			return err
		}
	}
	// A delta leaves the client with the list this ETag names, so the
	// same ETag validates both: a client holding the current list gets a
	// 304 either way.
	etag := etagOf("requests", dc.deal.ID, versionFor(dc), viewClass(dc), filter.key())
	if notModified(w, r, etag) {
		return nil
	}
	set, err := s.listRows(ctx, dc)
	if err != nil {
		return err
	}
	if delta {
		return s.writeListDelta(w, r, dc, filter, set, since)
	}
	w.Header().Set(api.ListCursorHeader, cursorFor(dc, filter, set.context).at(set.version))
	writeRows(w, http.StatusOK, listBody(dc, set, filter))
	return nil
}

// requestETag validates one request for one view class; it changes with
// the request's updated_at, which every edit, status move and shared
// message advances, and, for the owning side, which sees internal
// messages, with internal_updated_at too.
func requestETag(dc *dealCall, r store.Request) string {
	internal := ""
	if dc.caller.OwnerSide && r.InternalUpdatedAt != nil {
		internal = strconv.FormatInt(r.InternalUpdatedAt.UnixMicro(), 10)
	}
	return etagOf("request", r.ID, strconv.FormatInt(r.UpdatedAt.UnixMicro(), 10), internal, viewClass(dc), strconv.FormatBool(dc.deal.Archived))
}

// getRequest answers one request from the caller's list (listRows): the
// deal's row is read, as for a list, and the request's row is the
// list's, encoded once per version. Reading the request from the
// database on each call instead stopped scaling at two cores on SQLite,
// whose page cache is one for all connections behind one mutex
// (docs/server.md, "Scaling with cores").
func (s *Server) getRequest(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx := r.Context()
	id := r.PathValue("request_id")
	dc, err := s.reachDeal(ctx, c, r.PathValue("deal_id"))
	if err != nil {
		return err
	}
	if !api.IsID(id) {
		return errNotFound
	}
	slot := rowSlot(dc)
	cached := s.lists.get(slot)
	if cached == nil {
		// No list of this party's is kept (the deal is cold, or went
		// quiet and was dropped): read the one row rather than build the
		// whole list for it (0.4 s on a 21,000-row deal). A kept list,
		// even of an older version, is brought up to date for less.
		return s.getRequestAlone(w, r, dc, id)
	}
	set, err := s.listRowsFrom(ctx, dc, slot, cached)
	if err != nil {
		return err
	}
	row, ok := set.byID.get(canonicalID(id))
	if !ok {
		return errNotFound
	}
	if notModified(w, r, requestETag(dc, row.req.stamps())) {
		return nil
	}
	writeBody(w, http.StatusOK, row.appendFor(nil, newCallerParts(dc.caller)))
	return nil
}

// seatAndRequestID finds the caller's seat on the deal of the path and
// checks the request id of the path; a malformed one is 404.
func (s *Server) seatAndRequestID(ctx context.Context, c *call, r *http.Request) (seating, string, error) {
	st, err := s.seatOn(ctx, c, r.PathValue("deal_id"))
	if err != nil {
		return seating{}, "", err
	}
	id := r.PathValue("request_id")
	if !api.IsID(id) {
		return seating{}, "", errNotFound
	}
	return st, canonicalID(id), nil
}

// reachRequest resolves the deal and the request of the path, reading
// both rows in one statement.
func (s *Server) reachRequest(ctx context.Context, c *call, r *http.Request) (*dealCall, store.Request, error) {
	if c.fresh {
		return s.reachRequestToWrite(ctx, c, r)
	}
	st, id, err := s.seatAndRequestID(ctx, c, r)
	if err != nil {
		return nil, store.Request{}, err
	}
	deal, row, err := s.store.DealRequest(ctx, st.dealID, id)
	dc, err := st.reach(c, deal, err)
	return dc, row, err
}

// reachRequestToWrite is reachRequest for a write: the deal's row and
// the request's are read first, in one statement, and the deal's members
// version tells whether the members kept from an earlier write are
// current, so a write reads them only after they changed (membersAt).
// What is refused, and how, is reachRequest's: 404 for a deal or request
// the caller cannot reach.
func (s *Server) reachRequestToWrite(ctx context.Context, c *call, r *http.Request) (*dealCall, store.Request, error) {
	dealID, ok := keyReaches(c, r.PathValue("deal_id"))
	id := r.PathValue("request_id")
	if !ok || !api.IsID(id) {
		return nil, store.Request{}, errNotFound
	}
	deal, row, err := s.store.DealRequest(ctx, dealID, canonicalID(id))
	dc, err := s.reachToWrite(ctx, c, deal, err)
	return dc, row, err
}

// getRequestAlone answers one request from its own row, its latest
// answer and its files, read in one statement.
func (s *Server) getRequestAlone(w http.ResponseWriter, r *http.Request, dc *dealCall, id string) error {
	rv, err := s.store.RequestView(r.Context(), dc.deal.ID, canonicalID(id), dc.seat.PartyID, api.MaxPreviewLen)
	if errors.Is(err, store.ErrNotFound) {
		return errNotFound // not a request of this deal
	}
	if err != nil {
		return err
	}
	if notModified(w, r, requestETag(dc, rv.Request)) {
		return nil
	}
	writeJSON(w, http.StatusOK, newDealView(dc).request(rv.Request, rv.Latest, rv.Files))
	return nil
}

// respondRequest writes row, as just written, as the caller sees it, with
// its ETag: its latest answer and files are read with it in one statement.
func (s *Server) respondRequest(ctx context.Context, w http.ResponseWriter, dc *dealCall, view *dealView, status int, row store.Request) error {
	rv, err := s.store.RequestView(ctx, dc.deal.ID, row.ID, dc.seat.PartyID, api.MaxPreviewLen)
	if err != nil {
		return err
	}
	w.Header().Set("ETag", requestETag(dc, row))
	writeJSON(w, status, view.request(row, rv.Latest, rv.Files))
	return nil
}

// respondCreated writes a request just created: it has no answers and
// no files yet, so nothing more is read.
func respondCreated(w http.ResponseWriter, dc *dealCall, view *dealView, row store.Request) {
	w.Header().Set("ETag", requestETag(dc, row))
	writeJSON(w, http.StatusCreated, view.request(row, nil, nil))
}
