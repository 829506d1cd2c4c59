package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/dealctl/dealctl/internal/api"
)

// Me answers GET /me: who the key acts as.
func (c *Client) Me(ctx context.Context) (*api.Me, error) {
	var out api.Me
	return &out, c.call(ctx, http.MethodGet, "/me", nil, &out)
}

// Deals answers GET /deals: the deals the key reaches.
func (c *Client) Deals(ctx context.Context) ([]api.Deal, error) {
	var out []api.Deal
	return out, c.call(ctx, http.MethodGet, "/deals", nil, &out)
}

// Deal answers GET /deals/{id}, with the caller's seat.
func (c *Client) Deal(ctx context.Context, dealID string) (*api.DealDetail, error) {
	var out api.DealDetail
	return &out, c.call(ctx, http.MethodGet, dealPath(dealID), nil, &out)
}

// People answers GET /deals/{id}/people: everyone on the deal.
func (c *Client) People(ctx context.Context, dealID string) ([]api.Person, error) {
	var out []api.Person
	return out, c.call(ctx, http.MethodGet, dealPath(dealID)+"/people", nil, &out)
}

// Requests answers GET /deals/{id}/requests: the whole list in list order.
func (c *Client) Requests(ctx context.Context, dealID string) ([]api.DealRequest, error) {
	var out []api.DealRequest
	return out, c.call(ctx, http.MethodGet, requestsPath(dealID), nil, &out)
}

// RequestsIfChanged reads the list only when its ETag differs from etag
// (which may be empty). It returns changed=false on a 304, and the ETag to
// send next time. The on-disk cache is bypassed: a poller keeps its own.
func (c *Client) RequestsIfChanged(ctx context.Context, dealID, etag string) (rows []api.DealRequest, newETag string, changed bool, err error) {
	hdr := http.Header{}
	if etag != "" {
		hdr.Set("If-None-Match", etag)
	}
	resp, err := c.doUncached(ctx, http.MethodGet, requestsPath(dealID), hdr)
	if err != nil {
		return nil, etag, false, err
	}
	if resp.StatusCode == http.StatusNotModified {
		return nil, etag, false, nil
	}
	if err := json.Unmarshal(resp.Body, &rows); err != nil {
		return nil, etag, false, err
	}
	return rows, resp.Header.Get("ETag"), true, nil
}

// Request answers GET /deals/{id}/requests/{request_id}.
func (c *Client) Request(ctx context.Context, dealID, requestID string) (*api.DealRequest, error) {
	var out api.DealRequest
	return &out, c.call(ctx, http.MethodGet, requestPath(dealID, requestID), nil, &out)
}

// CreateRequest answers POST /deals/{id}/requests.
func (c *Client) CreateRequest(ctx context.Context, dealID string, in api.DealRequestCreate) (*api.DealRequest, error) {
	var out api.DealRequest
	return &out, c.call(ctx, http.MethodPost, requestsPath(dealID), in, &out)
}

// UpdateRequest answers PATCH /deals/{id}/requests/{request_id}; only the
// fields set in in are sent.
func (c *Client) UpdateRequest(ctx context.Context, dealID, requestID string, in api.DealRequestUpdate) (*api.DealRequest, error) {
	var out api.DealRequest
	return &out, c.call(ctx, http.MethodPatch, requestPath(dealID, requestID), in, &out)
}

// Messages answers GET .../requests/{request_id}/messages, oldest first.
func (c *Client) Messages(ctx context.Context, dealID, requestID string) ([]api.Message, error) {
	var out []api.Message
	return out, c.call(ctx, http.MethodGet, requestPath(dealID, requestID)+"/messages", nil, &out)
}

// PostMessage answers POST .../requests/{request_id}/messages.
func (c *Client) PostMessage(ctx context.Context, dealID, requestID string, in api.MessageCreate) (*api.Message, error) {
	var out api.Message
	return &out, c.call(ctx, http.MethodPost, requestPath(dealID, requestID)+"/messages", in, &out)
}

// DownloadLink answers POST /deals/{id}/files/{version_id}/download-link.
func (c *Client) DownloadLink(ctx context.Context, dealID, versionID string) (*api.DownloadLink, error) {
	var out api.DownloadLink
	return &out, c.call(ctx, http.MethodPost, dealPath(dealID)+"/files/"+url.PathEscape(versionID)+"/download-link", nil, &out)
}

func dealPath(dealID string) string { return "/deals/" + url.PathEscape(dealID) }

func requestsPath(dealID string) string { return dealPath(dealID) + "/requests" }

func requestPath(dealID, requestID string) string {
	return requestsPath(dealID) + "/" + url.PathEscape(requestID)
}

// doUncached is Do without the on-disk cache, for callers that manage
// their own validators.
func (c *Client) doUncached(ctx context.Context, method, path string, hdr http.Header) (*Response, error) {
	cp := *c
	cp.cache = nil
	return cp.Do(ctx, method, path, nil, hdr)
}
