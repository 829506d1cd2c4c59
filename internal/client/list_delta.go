package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"sync"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// Delta sync (extension list-delta): RequestsIfChanged keeps the last
// list it returned for each deal with its cursor, and, where the server
// advertises list-delta, asks for what changed since instead of the whole
// list, which it then puts together here. A server without it, or a list
// the client does not hold, is read whole (docs/client.md, "Extensions").

// heldList is the list RequestsIfChanged last returned for a deal.
type heldList struct {
	etag, cursor string
	rows         []api.DealRequest
}

// heldLists are the lists held, by deal id; shared by the copies a
// Client makes of itself (WithBatch), which talk to the same server.
type heldLists struct {
	mu    sync.Mutex
	deals map[string]*heldList
}

func (h *heldLists) get(dealID string) *heldList {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.deals[dealID]
}

func (h *heldLists) put(dealID string, l *heldList) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.deals == nil {
		h.deals = map[string]*heldList{}
	}
	h.deals[dealID] = l
}

// requestsSince asks for the list changed since the held one; ok is false
// when there is no held list to ask from (then the list is read whole).
func (c *Client) requestsSince(ctx context.Context, dealID, etag string) (rows []api.DealRequest, newETag string, changed, ok bool, err error) {
	held := c.held.get(dealID)
	if etag == "" || !c.Supports(api.ExtListDelta) || held == nil || held.etag != etag || held.cursor == "" {
		return nil, etag, false, false, nil
	}
	hdr := http.Header{}
	hdr.Set("If-None-Match", etag)
	resp, err := c.doUncached(ctx, http.MethodGet, requestsDeltaPath(dealID)+"?since="+url.QueryEscape(held.cursor), hdr)
	if err != nil {
		return nil, etag, false, true, err
	}
	if resp.StatusCode == http.StatusNotModified {
		return nil, etag, false, true, nil
	}
	var d api.ListDelta
	if err := json.Unmarshal(resp.Body, &d); err != nil {
		return nil, etag, false, true, err
	}
	rows = d.Changed
	if !d.Full {
		rows = ApplyListDelta(held.rows, d)
	}
	newETag = resp.Header.Get("ETag")
	c.held.put(dealID, &heldList{etag: newETag, cursor: d.Cursor, rows: rows})
	return slices.Clone(rows), newETag, true, true, nil
}

// ApplyListDelta is rows, a list as the server answered it, with d
// applied (d.Full aside): the rows d removes dropped, those it changes
// replaced or added, in list order.
func ApplyListDelta(rows []api.DealRequest, d api.ListDelta) []api.DealRequest {
	byID := make(map[string]int, len(rows))
	out := make([]api.DealRequest, 0, len(rows)+len(d.Changed))
	drop := make(map[string]bool, len(d.Removed))
	for _, id := range d.Removed {
		drop[id] = true
	}
	for _, r := range rows {
		if !drop[r.ID] {
			byID[r.ID] = len(out)
			out = append(out, r)
		}
	}
	for _, r := range d.Changed {
		if i, ok := byID[r.ID]; ok {
			out[i] = r
			continue
		}
		byID[r.ID] = len(out)
		out = append(out, r)
	}
	adapted := make([]listRow, len(out))
	for i := range out {
		adapted[i] = listRow{&out[i]}
	}
	ordered := make([]api.DealRequest, 0, len(out))
	for _, i := range domain.TreeOrder(adapted) {
		ordered = append(ordered, out[i])
	}
	return ordered
}

// listRow adapts a row to domain.Row, for list order.
type listRow struct{ r *api.DealRequest }

func (l listRow) RowID() string     { return l.r.ID }
func (l listRow) RowNumber() string { return l.r.Number }
func (l listRow) RowParentID() string {
	if l.r.ParentID == nil {
		return ""
	}
	return *l.r.ParentID
}

// RequestsNow is the deal's whole list as it is now, for a client that
// reads a deal's list again and again (dealctl mcp, call after call):
// where the server advertises list-delta, the list held from the last read
// brought up to date with what changed since (nothing read on a 304), so a
// one-row write costs the rows it changed, not the deal; elsewhere the
// list read whole, through the cache as Requests reads it.
func (c *Client) RequestsNow(ctx context.Context, dealID string) ([]api.DealRequest, error) {
	if !c.Supports(api.ExtListDelta) {
		return c.Requests(ctx, dealID)
	}
	etag := ""
	if held := c.held.get(dealID); held != nil {
		etag = held.etag
	}
	rows, _, changed, err := c.RequestsIfChanged(ctx, dealID, etag)
	if err != nil || changed {
		return rows, err
	}
	return slices.Clone(c.held.get(dealID).rows), nil
}
