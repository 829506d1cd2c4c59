package client

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// Me answers GET /me: who the key acts as.
func (c *Client) Me(ctx context.Context) (*api.Me, error) {
	var out api.Me
	return &out, c.call(ctx, http.MethodGet, "/me", nil, &out)
}

// Deals answers GET /deals: the deals the key reaches.
func (c *Client) Deals(ctx context.Context) ([]api.Deal, error) {
	var out []api.Deal
	if err := c.call(ctx, http.MethodGet, "/deals", nil, &out); err != nil {
		return nil, err
	}
	c.remember("/deals", out)
	return out, nil
}

// Deal answers GET /deals/{id}, with the caller's seat.
func (c *Client) Deal(ctx context.Context, dealID string) (*api.DealDetail, error) {
	var out api.DealDetail
	if err := c.call(ctx, http.MethodGet, dealPath(dealID), nil, &out); err != nil {
		return &out, err
	}
	c.remember(dealPath(dealID), &out)
	return &out, nil
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
// Where the server advertises list-delta and etag is that of the list
// this client last returned for the deal, only what changed since is
// fetched, and the whole list put together here (list_delta.go).
func (c *Client) RequestsIfChanged(ctx context.Context, dealID, etag string) (rows []api.DealRequest, newETag string, changed bool, err error) {
	if rows, newETag, changed, ok, err := c.requestsSince(ctx, dealID, etag); ok {
		return rows, newETag, changed, err
	}
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
	if cursor := resp.Header.Get(api.ListCursorHeader); cursor != "" {
		c.held.put(dealID, &heldList{etag: resp.Header.Get("ETag"), cursor: cursor, rows: slices.Clone(rows)})
	}
	return rows, resp.Header.Get("ETag"), true, nil
}

// Request answers GET /deals/{id}/requests/{request_id}.
func (c *Client) Request(ctx context.Context, dealID, requestID string) (*api.DealRequest, error) {
	var out api.DealRequest
	return &out, c.call(ctx, http.MethodGet, requestPath(dealID, requestID), nil, &out)
}

// RequestWithETag is Request with the ETag of the answer, to send back as
// If-Match (UpdateRequestIfMatch). The ETag is "" when the server sent
// none.
func (c *Client) RequestWithETag(ctx context.Context, dealID, requestID string) (*api.DealRequest, string, error) {
	var out api.DealRequest
	h, err := c.callHdr(ctx, http.MethodGet, requestPath(dealID, requestID), nil, &out, nil)
	if err != nil {
		return nil, "", err
	}
	return &out, h.Get("ETag"), nil
}

// CreateRequest answers POST /deals/{id}/requests. Where the server
// advertises idempotency-key, the POST carries a fresh Idempotency-Key
// and is retried like a read after network errors and 5xx answers.
func (c *Client) CreateRequest(ctx context.Context, dealID string, in api.DealRequestCreate) (*api.DealRequest, error) {
	out, _, err := c.CreateRequestWithETag(ctx, dealID, in)
	return out, err
}

// CreateRequestWithETag is CreateRequest that also returns the new row's
// ETag, for a change that follows (MoveStatus) to name the version it
// changes.
func (c *Client) CreateRequestWithETag(ctx context.Context, dealID string, in api.DealRequestCreate) (*api.DealRequest, string, error) {
	var out api.DealRequest
	hdr, err := c.callHdr(ctx, http.MethodPost, requestsPath(dealID), in, &out, c.idempotencyHeader(ctx))
	return &out, hdr.Get("ETag"), err
}

// UpdateRequest answers PATCH /deals/{id}/requests/{request_id}; only the
// fields set in in are sent.
func (c *Client) UpdateRequest(ctx context.Context, dealID, requestID string, in api.DealRequestUpdate) (*api.DealRequest, error) {
	return c.UpdateRequestIfMatch(ctx, dealID, requestID, in, "")
}

// UpdateRequestIfMatch is UpdateRequest that, where the server advertises
// if-match and etag is not "", sends If-Match: etag, so that a change
// someone made since that read fails with 409 conflict_stale
// (IsConflictStale) instead of being overwritten. etag may also be a
// ListRowPrecondition.
func (c *Client) UpdateRequestIfMatch(ctx context.Context, dealID, requestID string, in api.DealRequestUpdate, etag string) (*api.DealRequest, error) {
	out, _, err := c.UpdateRequestWithETag(ctx, dealID, requestID, in, etag)
	return out, err
}

// UpdateRequestWithETag is UpdateRequestIfMatch that also returns the
// changed row's ETag, for a change that follows to name the version it
// changes.
func (c *Client) UpdateRequestWithETag(ctx context.Context, dealID, requestID string, in api.DealRequestUpdate, etag string) (*api.DealRequest, string, error) {
	var out api.DealRequest
	hdr, err := c.callHdr(ctx, http.MethodPatch, requestPath(dealID, requestID), in, &out, c.preconditionHeader(etag))
	return &out, hdr.Get("ETag"), err
}

// Messages answers GET .../requests/{request_id}/messages, oldest first.
func (c *Client) Messages(ctx context.Context, dealID, requestID string) ([]api.Message, error) {
	var out []api.Message
	return out, c.call(ctx, http.MethodGet, requestPath(dealID, requestID)+"/messages", nil, &out)
}

// PostMessage answers POST .../requests/{request_id}/messages.
func (c *Client) PostMessage(ctx context.Context, dealID, requestID string, in api.MessageCreate) (*api.Message, error) {
	var out api.Message
	_, err := c.callHdr(ctx, http.MethodPost, requestPath(dealID, requestID)+"/messages", in, &out, c.idempotencyHeader(ctx))
	return &out, err
}

// idempotencyHeader is the Idempotency-Key of one logical POST, or nil
// when the server does not advertise the extension: the caller's
// (WithIdempotencyKey), else a fresh one.
func (c *Client) idempotencyHeader(ctx context.Context) http.Header {
	if !c.Supports(api.ExtIdempotencyKey) {
		return nil
	}
	key, _ := ctx.Value(idempotencyKeyCtx{}).(string)
	if key == "" {
		key = newIdempotencyKey()
	}
	return http.Header{api.IdempotencyKeyHeader: {key}}
}

type idempotencyKeyCtx struct{}

// WithIdempotencyKey makes the creating POSTs made with ctx
// (CreateRequest, PostMessage) carry key as their Idempotency-Key, where
// the server advertises idempotency-key, instead of a fresh one per call.
// A caller that can tell a repeat of one logical write from a new one
// (dealctl mcp: an assistant may send the same tool call again; import:
// a row's key derived from the deal, the number and the body) gives
// the repeats one key, so the server replays the first answer and writes
// once. The key must be at most 255 characters.
func WithIdempotencyKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, idempotencyKeyCtx{}, key)
}

// RequestsQuery is the server-side filter of a requests list (the
// list-filters extension). Zero fields filter nothing.
type RequestsQuery struct {
	Statuses     []api.RequestStatus
	Priorities   []api.Priority
	Categories   []api.RequestCategory
	AssigneeID   string // a person id, or "none" for unassigned requests
	UpdatedSince time.Time
}

// QueryOf is the part of f the list-filters extension applies, asked
// of the server by the CLI and dealctl mcp alike: status, priority,
// category, the first assignee and updated-since. OverdueOn is not among
// them; the caller filters the answer again (domain.ListFilter.Keep).
func QueryOf(f *domain.RequestFilter) RequestsQuery {
	q := RequestsQuery{Statuses: f.Statuses, Priorities: f.Priorities, Categories: f.Categories}
	if len(f.Assignees) > 0 {
		q.AssigneeID = f.Assignees[0]
	}
	if f.UpdatedSince != nil {
		q.UpdatedSince = *f.UpdatedSince
	}
	return q
}

// IsZero reports whether q filters nothing.
func (q RequestsQuery) IsZero() bool {
	return len(q.Statuses) == 0 && len(q.Priorities) == 0 && len(q.Categories) == 0 && q.AssigneeID == "" && q.UpdatedSince.IsZero()
}

// Encode is q as a query string, in a stable order (it is part of the
// ETag cache's key).
func (q RequestsQuery) Encode() string {
	v := url.Values{}
	if len(q.Statuses) > 0 {
		v.Set("status", joinStrings(q.Statuses))
	}
	if len(q.Priorities) > 0 {
		v.Set("priority", joinStrings(q.Priorities))
	}
	if len(q.Categories) > 0 {
		v.Set("category", joinStrings(q.Categories))
	}
	if q.AssigneeID != "" {
		v.Set("assignee_id", q.AssigneeID)
	}
	if !q.UpdatedSince.IsZero() {
		v.Set("updated_since", q.UpdatedSince.UTC().Format(time.RFC3339))
	}
	return v.Encode()
}

func joinStrings[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, ",")
}

// RequestsFiltered lists the deal's rows, asking the server to filter
// them by q where it advertises list-filters; filtered says whether it
// did. The server keeps the sections above matching rows, so callers
// filter the answer again themselves: that makes the result the same
// whether or not the server filtered, and is how a server without the
// extension is served.
func (c *Client) RequestsFiltered(ctx context.Context, dealID string, q RequestsQuery) (rows []api.DealRequest, filtered bool, err error) {
	path := requestsPath(dealID)
	if !q.IsZero() && c.Supports(api.ExtListFilters) {
		path += "?" + q.Encode()
		filtered = true
	}
	err = c.call(ctx, http.MethodGet, path, nil, &rows)
	if err == nil && rows == nil {
		rows = []api.DealRequest{}
	}
	return rows, filtered, err
}

// RequestsJSON is the deal's whole list undecoded, read from disk, in
// layout's form, for printing it as JSON. The caller closes it.
func (c *Client) RequestsJSON(ctx context.Context, dealID string, layout *Layout) (io.ReadCloser, error) {
	resp, err := c.GetStream(ctx, requestsPath(dealID), layout)
	if err != nil {
		return nil, err
	}
	return resp.Stream, nil
}

// DownloadLink answers POST /deals/{id}/files/{version_id}/download-link.
func (c *Client) DownloadLink(ctx context.Context, dealID, versionID string) (*api.DownloadLink, error) {
	var out api.DownloadLink
	return &out, c.call(ctx, http.MethodPost, dealPath(dealID)+"/files/"+url.PathEscape(versionID)+"/download-link", nil, &out)
}

func dealPath(dealID string) string { return "/deals/" + url.PathEscape(dealID) }

func requestsPath(dealID string) string { return dealPath(dealID) + "/requests" }

// requestsDeltaPath is the list-delta extension's path: what changed in
// the list since a cursor.
func requestsDeltaPath(dealID string) string { return dealPath(dealID) + "/requests-delta" }

func requestPath(dealID, requestID string) string {
	return requestsPath(dealID) + "/" + url.PathEscape(requestID)
}

// doUncached is Do without the on-disk cache, for callers that manage
// their own validators.
func (c *Client) doUncached(ctx context.Context, method, path string, hdr http.Header) (*Response, error) {
	return c.do(ctx, method, path, nil, hdr, &exchange{noCache: true})
}

// api.IfUpdatedAtHeader carries a ListRowPrecondition (extension
// if-updated-at).

// listRowPrefix marks a ListRowPrecondition; an ETag is a quoted string,
// so it never starts with it.
const listRowPrefix = "updated-at "

// ListRowPrecondition is the precondition for a change to r, a row read
// from a list, which carries no ETag per row: pass it where an ETag goes
// (UpdateRequestIfMatch, MoveStatus). Where the server advertises
// if-updated-at, the change lands only while the row's updated_at is
// still r's, so a change someone made since the list was read is a 409
// conflict_stale (IsConflictStale) and not overwritten; elsewhere it is
// If-Match: *, as for a row as current as the list.
func ListRowPrecondition(r *api.DealRequest) string {
	return listRowPrefix + r.UpdatedAt.UTC().Format(time.RFC3339Nano)
}
