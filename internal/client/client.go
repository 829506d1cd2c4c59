// Package client is a typed Go client of the Deal Request List Service API
// v1 (/api/v1). It adds the bearer key, retries reads that failed for
// transient reasons, honours 429 Retry-After within a bounded wait, keeps
// an on-disk ETag cache for conditional reads, and never sends the key to a
// host other than the server's.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// Options configures a Client. Only BaseURL is required.
type Options struct {
	BaseURL    string       // the server, e.g. https://deals.example.com; "/api/v1" is added
	Key        string       // the API key secret; empty sends no Authorization header
	UserAgent  string       // e.g. "dealctl/1.2.3"
	HTTPClient *http.Client // defaults to one with a 30 s timeout
	Cache      *Cache       // conditional-read cache; nil disables it

	// MaxRetries is how many times a GET is retried after a network error
	// or a 5xx answer (default 3; negative disables retries).
	MaxRetries int
	// MaxRateWait bounds the total time spent waiting on 429 Retry-After
	// answers within one call (default 30 s; negative waits never).
	MaxRateWait time.Duration
	// Sleep waits between attempts; tests replace it to run instantly.
	Sleep func(ctx context.Context, d time.Duration) error
	// OutageWait, when set, is told of each wait on a 503 with
	// Retry-After (a database restarting, an instance being replaced)
	// before the call is sent again: up to 30 s in all per call. reason
	// is the answer's params.reason ("database_unavailable", …) or "".
	OutageWait func(wait time.Duration, reason string)

	// NoExtensions makes the client use none of the server's extensions
	// (list filters, If-Match, Idempotency-Key) even where advertised.
	NoExtensions bool
	// Debug, when set, gets one line per HTTP attempt (DEALCTL_DEBUG=api).
	Debug io.Writer
}

// Client calls one server with one key. It is safe for concurrent use.
// Each call goes through the layers that layers.go stacks.
type Client struct {
	base        *url.URL
	key         string
	userAgent   string
	httpClient  *http.Client      // the caller's, for its timeout and transport
	transport   http.RoundTripper // under the layers; nil: http.DefaultTransport
	rt          http.RoundTripper // the layers
	cache       *Cache
	held        *heldLists // the lists RequestsIfChanged returned last, for delta sync
	maxRetries  int
	maxRateWait time.Duration
	sleep       func(ctx context.Context, d time.Duration) error
	outageWait  func(wait time.Duration, reason string)
	ext         *extensions
	debug       io.Writer
	batch       string // WithBatch: the run every write belongs to
}

// New builds a Client.
func New(o Options) (*Client, error) {
	base, err := ParseBaseURL(o.BaseURL)
	if err != nil {
		return nil, err
	}
	c := &Client{
		base:        base,
		key:         o.Key,
		userAgent:   o.UserAgent,
		httpClient:  o.HTTPClient,
		cache:       o.Cache,
		held:        &heldLists{},
		maxRetries:  o.MaxRetries,
		maxRateWait: o.MaxRateWait,
		sleep:       o.Sleep,
		outageWait:  o.OutageWait,
		ext:         &extensions{off: o.NoExtensions},
		debug:       o.Debug,
	}
	if c.cache != nil {
		c.ext.file = c.cache.extensionsFile(base.String())
		c.ext.load()
	}
	if c.userAgent == "" {
		c.userAgent = "dealctl"
	}
	if c.maxRetries == 0 {
		c.maxRetries = 3
	}
	if c.maxRateWait == 0 {
		c.maxRateWait = 30 * time.Second
	}
	if c.sleep == nil {
		c.sleep = Sleep
	}
	if c.httpClient == nil {
		c.httpClient = &http.Client{Timeout: 30 * time.Second}
	}
	c.transport = c.httpClient.Transport
	c.rt = c.layers(c.transport)
	return c, nil
}

// ParseBaseURL checks a server address and strips a trailing "/" or
// "/api/v1", so that both "https://h" and "https://h/api/v1" work.
func ParseBaseURL(s string) (*url.URL, error) {
	if s == "" {
		return nil, errors.New("no server configured")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("server %q is not an http(s) URL", s)
	}
	u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), "/api/v1")
	if m := otherAPIPath.FindString(u.Path); m != "" {
		// "/api/v1" is added to the address: "https://h/api/v2" would call
		// https://h/api/v2/api/v1/…, whose 404s read as missing deals.
		return nil, fmt.Errorf("server %q ends in %s, and dealctl speaks API v1: give the server's address (%s://%s%s) or its /api/v1", s, m, u.Scheme, u.Host, strings.TrimSuffix(u.Path, m))
	}
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// otherAPIPath is an address that names an API path other than v1's.
var otherAPIPath = regexp.MustCompile(`/api(/v[0-9][^/]*)?$`)

// apiURL joins an API path such as "/deals" onto {base}/api/v1. A path that
// already starts with "/api/" is taken as it is (used by `dealctl api`).
func (c *Client) apiURL(path string) string {
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	if !strings.HasPrefix(path, "/api/") {
		path = "/api/v1" + path
	}
	return strings.TrimSuffix(c.base.String(), "/") + path
}

// Response is a raw answer, as returned by Do.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
	FromCache  bool // answered 304 and served from the ETag cache

	// Stream is the body of a 2xx answer to GetStream (Body is then nil),
	// read from a file, or from memory where no file could be written.
	// The caller closes it.
	Stream io.ReadCloser
}

// Do sends one API call and returns the raw answer for any 2xx status, a
// 304 answered from the cache (as a 200 with FromCache set), or a 304 to an
// If-None-Match the caller put in hdr. Other statuses become an *Error, a 429 that
// outlasts the wait budget a *RateLimitedError. body may be nil.
func (c *Client) Do(ctx context.Context, method, path string, body []byte, hdr http.Header) (*Response, error) {
	return c.do(ctx, method, path, body, hdr, &exchange{})
}

// do is Do with what the call tells the layers (GetStream's stream mode,
// doUncached's noCache): it builds the request, sends it through the
// layers, and turns the answer into a Response or an error.
func (c *Client) do(ctx context.Context, method, path string, body []byte, hdr http.Header, x *exchange) (*Response, error) {
	u := c.apiURL(path)
	sm := x.stream
	if sm != nil {
		sm.key = c.cacheKey(u) + sm.keySuffix()
		x.receive = sm.receiver(c.cache)
		defer sm.release()
	}
	req, err := http.NewRequestWithContext(withExchange(ctx, x), method, u, bodyReader(body))
	if err != nil {
		return nil, err
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "application/json")
	if c.batch != "" && method != http.MethodGet && method != http.MethodHead && c.Supports(api.ExtBatch) {
		req.Header.Set(api.BatchHeader, c.batch)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.rt.RoundTrip(req)
	for err != nil && sm != nil && sm.diskFailed(err) {
		// The disk could not keep the answer: ask again, unconditionally,
		// keeping it in memory. The cache only saves calls.
		resp, err = c.rt.RoundTrip(req)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case x.fromCache && sm != nil:
		return &Response{StatusCode: resp.StatusCode, Header: resp.Header, Stream: resp.Body, FromCache: true}, nil
	case resp.StatusCode == http.StatusNotModified && sm != nil:
		resp.Body.Close()
		return nil, &NetworkError{Method: method, URL: u, Err: errors.New("the server answered 304 Not Modified to a request that was not conditional")}
	case resp.StatusCode >= 200 && resp.StatusCode < 300 && sm != nil:
		return &Response{StatusCode: resp.StatusCode, Header: resp.Header, Stream: resp.Body}, nil
	}
	data, err := readBody(resp.Body)
	if err != nil {
		return nil, &NetworkError{Method: method, URL: u, Err: err}
	}
	switch {
	case resp.StatusCode == http.StatusNotModified:
		// The caller sent its own If-None-Match and handles the 304.
		return &Response{StatusCode: resp.StatusCode, Header: resp.Header}, nil
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return &Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: data, FromCache: x.fromCache}, nil
	default:
		return nil, newError(method, u, resp, data)
	}
}

func bodyReader(b []byte) io.Reader {
	if b == nil {
		return nil
	}
	return bytes.NewReader(b)
}

// call sends in (JSON-encoded, unless nil) and decodes the answer into out
// (unless nil).
func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	_, err := c.callHdr(ctx, method, path, in, out, nil)
	return err
}

// callHdr is call with extra request headers; it returns the answer's
// headers.
func (c *Client) callHdr(ctx context.Context, method, path string, in, out any, hdr http.Header) (http.Header, error) {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return nil, err
		}
	}
	resp, err := c.Do(ctx, method, path, body, hdr)
	if err != nil {
		return nil, err
	}
	if out == nil || len(resp.Body) == 0 {
		return resp.Header, nil
	}
	if err := json.Unmarshal(resp.Body, out); err != nil {
		return resp.Header, fmt.Errorf("%s %s: the server's answer is not the JSON expected: %w", method, path, err)
	}
	return resp.Header, nil
}
