package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/dealctl/dealctl/internal/api"
)

// ErrSearchUnsupported: the server does not advertise the search
// extension, so Search cannot ask it (callers fall back, or say so).
var ErrSearchUnsupported = errors.New("this server does not offer search (the search extension)")

// SearchQuery is one search of a deal (docs/api.md, "Search").
type SearchQuery struct {
	Q     string       // the words: plain words, "a phrase", prefix*
	In    api.SearchIn // api.SearchInRequests or api.SearchInMessages; "" both
	Match string       // api.SearchMatchAll (the default, "") or api.SearchMatchAny
	Limit int          // 0: the server's default (api.SearchDefaultLimit)
	// Filter keeps hits whose request passes it, as requests ls filters.
	Filter RequestsQuery
}

// Encode is q as a query string, in a stable order.
func (q SearchQuery) Encode() string {
	v, _ := url.ParseQuery(q.Filter.Encode())
	v.Set("q", q.Q)
	if q.In != "" {
		v.Set("in", string(q.In))
	}
	if q.Match != "" {
		v.Set("match", q.Match)
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	return v.Encode()
}

// SupportsSearch reports whether the server advertises the search
// extension (as far as the client knows: from the last answer, or the
// cache of an earlier run; a caller that has made no call yet may Me
// first).
func (c *Client) SupportsSearch() bool { return c.Supports(api.ExtSearch) }

// Search answers GET /deals/{id}/search: the hits, best first, of what
// the caller may see. It returns ErrSearchUnsupported, without a call,
// where the server is known not to offer it or Options.NoExtensions is
// set.
func (c *Client) Search(ctx context.Context, dealID string, q SearchQuery) (*api.SearchResults, error) {
	// Known not to be offered: the server advertised others, or the
	// client was told to use none. Not known yet (no answer so far):
	// asked, and a 404 from a server without it says so.
	if !c.SupportsSearch() && (len(c.Extensions()) > 0 || c.ext.off) {
		return nil, ErrSearchUnsupported
	}
	var out api.SearchResults
	err := c.call(ctx, http.MethodGet, dealPath(dealID)+"/search?"+q.Encode(), nil, &out)
	if err != nil {
		var apiErr *api.ErrorResponse
		if errors.As(err, &apiErr) && apiErr.Code == api.CodeNotFound && !c.SupportsSearch() {
			return nil, ErrSearchUnsupported
		}
		return nil, err
	}
	if out.Hits == nil {
		out.Hits = []api.SearchHit{}
	}
	return &out, nil
}
