package client

import (
	"context"
	"net/http"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
)

// DeleteRequest answers DELETE /deals/{id}/requests/{request_id}. etag,
// when not "", is sent as If-Match where the server advertises if-match
// (or, for a ListRowPrecondition, as X-Dealctl-If-Updated-At), so that a
// row changed since it was read is not deleted (409 conflict_stale).
func (c *Client) DeleteRequest(ctx context.Context, dealID, requestID, etag string) error {
	_, err := c.callHdr(ctx, http.MethodDelete, requestPath(dealID, requestID), nil, nil, c.preconditionHeader(etag))
	return err
}

// preconditionHeader is the header that makes a write to a row land only
// while the row is as etag says: If-Match for an ETag, the updated_at
// precondition for a row read from a list (ListRowPrecondition); nil
// where the server advertises neither or etag is "".
func (c *Client) preconditionHeader(etag string) http.Header {
	updatedAt, fromList := strings.CutPrefix(etag, listRowPrefix)
	switch {
	case fromList && c.Supports(api.ExtIfUpdatedAt):
		return http.Header{api.IfUpdatedAtHeader: {updatedAt}}
	case fromList && c.Supports(api.ExtIfMatch):
		// A server without if-updated-at: the row is as current as the
		// list it came from, and only its existence can be asked.
		return http.Header{"If-Match": {"*"}}
	case etag != "" && c.Supports(api.ExtIfMatch):
		return http.Header{"If-Match": {etag}}
	}
	return nil
}
