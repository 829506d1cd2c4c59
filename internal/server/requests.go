package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// listRequests answers the deal's list in list order. The body depends
// only on the deal's version, the caller's view class and the filters, so
// it is cached by its ETag: an unchanged list costs two small reads.
func (s *Server) listRequests(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx := r.Context()
	dc, err := s.reachDeal(ctx, c, r.PathValue("deal_id"))
	if err != nil {
		return err
	}
	filter, err := parseListFilter(r.URL.Query())
	if err != nil {
		return err
	}
	etag := etagOf("requests", dc.deal.ID, versionFor(dc), viewClass(dc), filter.key())
	if notModified(w, r, etag) {
		return nil
	}
	if body, ok := s.lists.get(etag); ok {
		writeBody(w, http.StatusOK, body)
		return nil
	}
	// Readers polling a list that just changed all want the same new
	// body: one of them builds it, the others wait for it.
	body, err := s.listBuilds.do(etag, func() ([]byte, error) {
		if body, ok := s.lists.get(etag); ok {
			return body, nil // built by a call that finished just before
		}
		build, cancel := s.detached(ctx) // others may be waiting for it
		defer cancel()
		body, err := s.buildList(build, dc, filter)
		if err == nil {
			s.lists.put(dc.deal.ID+"|"+viewClass(dc)+"|"+filter.key(), etag, body)
		}
		return body, err
	})
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, body)
	return nil
}

// buildList reads and encodes the list as dc's caller sees it.
func (s *Server) buildList(ctx context.Context, dc *dealCall, filter listFilter) ([]byte, error) {
	all, err := s.store.Requests(ctx, dc.deal.ID)
	if err != nil {
		return nil, err
	}
	rows, err := s.requestViews(ctx, dc, newDealView(dc), listOrder(all), "")
	if err != nil {
		return nil, err
	}
	return json.Marshal(filter.apply(rows))
}

// requestViews builds what the caller sees of rows, in their order. The
// rows are already read: all of the deal's (scope "") or the one request
// scope names, which limits the answers and files read to that request.
func (s *Server) requestViews(ctx context.Context, dc *dealCall, view *dealView, rows []store.Request, scope string) ([]api.DealRequest, error) {
	latest, err := s.store.LatestAnswers(ctx, dc.deal.ID, scope, dc.seat.PartyID, api.MaxPreviewLen)
	if err != nil {
		return nil, err
	}
	files, err := s.store.VisibleFiles(ctx, dc.deal.ID, scope, dc.seat.PartyID)
	if err != nil {
		return nil, err
	}
	latestBy := make(map[string]*store.Message, len(latest))
	for i := range latest {
		latestBy[latest[i].RequestID] = &latest[i]
	}
	filesBy := make(map[string][]store.File)
	for _, f := range files {
		filesBy[f.RequestID] = append(filesBy[f.RequestID], f)
	}
	out := make([]api.DealRequest, 0, len(rows))
	for _, row := range rows {
		out = append(out, view.request(row, latestBy[row.ID], filesBy[row.ID]))
	}
	return out, nil
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

// getRequest reads the deal's row, the request, its latest answer and its
// files in one statement.
func (s *Server) getRequest(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx := r.Context()
	st, id, err := s.seatAndRequestID(ctx, c, r)
	if err != nil {
		return err
	}
	rv, err := s.store.RequestView(ctx, st.dealID, id, st.seat.PartyID, api.MaxPreviewLen)
	dc, err := st.reach(c, rv.Deal, err)
	if err != nil {
		return err
	}
	etag := requestETag(dc, rv.Request)
	if notModified(w, r, etag) {
		return nil
	}
	w.Header().Set("ETag", etag)
	writeJSON(w, http.StatusOK, newDealView(dc).request(rv.Request, rv.Latest, rv.Files))
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
	st, id, err := s.seatAndRequestID(ctx, c, r)
	if err != nil {
		return nil, store.Request{}, err
	}
	deal, row, err := s.store.DealRequest(ctx, st.dealID, id)
	dc, err := st.reach(c, deal, err)
	return dc, row, err
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
