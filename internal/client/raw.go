package client

import (
	"context"
	"net/http"
)

// Raw sends any method to any API path (relative to /api/v1, or a full
// path beginning with /api/) with a JSON body (nil for none), for
// `dealctl api`. Reads go through the ETag cache like any other.
func (c *Client) Raw(ctx context.Context, method, path string, body []byte) (*Response, error) {
	return c.Do(ctx, method, path, body, http.Header{})
}
