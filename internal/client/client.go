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
	"strings"
	"time"
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

	// NoExtensions makes the client use none of the server's extensions
	// (list filters, If-Match, Idempotency-Key) even where advertised.
	NoExtensions bool
	// Debug, when set, gets one line per HTTP attempt (DEALCTL_DEBUG=api).
	Debug io.Writer
}

// Client calls one server with one key. It is safe for concurrent use.
type Client struct {
	base        *url.URL
	key         string
	userAgent   string
	http        *http.Client
	cache       *Cache
	maxRetries  int
	maxRateWait time.Duration
	sleep       func(ctx context.Context, d time.Duration) error
	ext         *extensions
	debug       io.Writer
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
		cache:       o.Cache,
		maxRetries:  o.MaxRetries,
		maxRateWait: o.MaxRateWait,
		sleep:       o.Sleep,
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
	hc := o.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	// A copy, so that the redirect policy below does not leak into a
	// client the caller shares with others.
	cp := *hc
	cp.CheckRedirect = c.checkRedirect
	c.http = &cp
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
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// checkRedirect refuses to follow a redirect to another host: the key must
// never leave the server it was issued for. net/http would drop the header
// on its own for a foreign domain, but following silently hides a
// misconfigured server from the user.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if !sameOrigin(req.URL, c.base) {
		return fmt.Errorf("refusing to follow a redirect to %s: the API key is only sent to %s", req.URL.Host, c.base.Host)
	}
	return nil
}

func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

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
	return c.do(ctx, method, path, body, hdr, nil)
}

// do is Do, and GetStream when sm is not nil.
func (c *Client) do(ctx context.Context, method, path string, body []byte, hdr http.Header, sm *streamMode) (*Response, error) {
	u := c.apiURL(path)
	var cached *cacheEntry
	if method == http.MethodGet && c.cache != nil {
		if sm != nil {
			cached = sm.cachedEntry(c.cache, c.cacheKey(u))
			defer sm.release()
		} else {
			cached = c.cache.get(c.cacheKey(u))
		}
	}
	var rateWaited time.Duration
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, u, bodyReader(body))
		if err != nil {
			return nil, err
		}
		for k, v := range hdr {
			req.Header[k] = v
		}
		req.Header.Set("User-Agent", c.userAgent)
		req.Header.Set("Accept", "application/json")
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if c.key != "" {
			req.Header.Set("Authorization", "Bearer "+c.key)
		}
		if cached != nil && req.Header.Get("If-None-Match") == "" {
			req.Header.Set("If-None-Match", cached.ETag)
		}

		// Reads are retried after transient failures; so is a POST sent
		// with an Idempotency-Key to a server that replays them. Other
		// writes are not: the first may have been applied.
		retryable := method == http.MethodGet ||
			(method == http.MethodPost && req.Header.Get("Idempotency-Key") != "" && c.ext.has(ExtIdempotencyKey))
		start := time.Now()
		resp, err := c.http.Do(req)
		if err != nil {
			c.debugf(req, 0, start, err)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if retryable && attempt < c.maxRetries && !isRedirectRefusal(err) {
				if err := c.sleep(ctx, backoff(attempt)); err != nil {
					return nil, err
				}
				continue
			}
			return nil, &NetworkError{Method: method, URL: u, Err: err}
		}
		var data []byte
		var stream io.ReadCloser
		switch {
		case sm == nil:
			data, err = io.ReadAll(resp.Body)
		case resp.StatusCode >= 200 && resp.StatusCode < 300:
			stream, err = sm.receive(c.cache, resp)
		default:
			data, err = io.ReadAll(receiveReader{resp.Body})
		}
		resp.Body.Close()
		c.debugf(req, resp.StatusCode, start, err)
		c.ext.learn(resp.StatusCode, resp.Header)
		if sm != nil && err != nil {
			var re *receiveError
			switch {
			case errors.As(err, &re):
				err = re.Err // the network failed: retried below, as for Do
			case sm.diskFailed(err):
				// Ask again, unconditionally, keeping the answer in memory.
				cached = nil
				attempt--
				continue
			default:
				return nil, err // the layout refused the answer
			}
		}
		if err != nil {
			if retryable && attempt < c.maxRetries {
				if err := c.sleep(ctx, backoff(attempt)); err != nil {
					return nil, err
				}
				continue
			}
			return nil, &NetworkError{Method: method, URL: u, Err: err}
		}

		switch {
		case resp.StatusCode == http.StatusNotModified && cached != nil:
			h := resp.Header
			if h.Get("ETag") == "" {
				h = h.Clone()
				h.Set("ETag", cached.ETag)
			}
			if sm == nil {
				return &Response{StatusCode: http.StatusOK, Header: h, Body: cached.Body, FromCache: true}, nil
			}
			return &Response{StatusCode: http.StatusOK, Header: h, Stream: sm.takeHeld(), FromCache: true}, nil
		case resp.StatusCode == http.StatusNotModified && sm != nil:
			return nil, &NetworkError{Method: method, URL: u, Err: errors.New("the server answered 304 Not Modified to a request that was not conditional")}
		case resp.StatusCode == http.StatusNotModified:
			// The caller sent its own If-None-Match and handles the 304.
			return &Response{StatusCode: resp.StatusCode, Header: resp.Header}, nil
		case resp.StatusCode >= 200 && resp.StatusCode < 300:
			if method == http.MethodGet && c.cache != nil && sm == nil {
				if etag := resp.Header.Get("ETag"); etag != "" {
					c.cache.put(c.cacheKey(u), &cacheEntry{ETag: etag, Body: data})
				}
			}
			if sm != nil {
				return &Response{StatusCode: resp.StatusCode, Header: resp.Header, Stream: stream}, nil
			}
			return &Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: data}, nil
		case resp.StatusCode == http.StatusTooManyRequests:
			// A 429 means the server did not act, so any method may be
			// sent again once the bucket has refilled.
			wait := retryAfter(resp.Header)
			if rateWaited+wait <= c.maxRateWait && c.maxRateWait > 0 {
				rateWaited += wait
				if err := c.sleep(ctx, wait); err != nil {
					return nil, err
				}
				attempt-- // rate waits do not use up the transient-error retries
				continue
			}
			return nil, &RateLimitedError{RetryAfter: wait, Waited: rateWaited, Err: newError(method, u, resp, data)}
		case resp.StatusCode >= 500 && retryable && attempt < c.maxRetries:
			if err := c.sleep(ctx, backoff(attempt)); err != nil {
				return nil, err
			}
			continue
		default:
			return nil, newError(method, u, resp, data)
		}
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

// debugf writes one line per attempt to Options.Debug: the call, its
// answer, and the conditional and extension headers sent (never the key).
func (c *Client) debugf(req *http.Request, status int, start time.Time, err error) {
	if c.debug == nil {
		return
	}
	var sent []string
	for _, h := range []string{"If-None-Match", "If-Match", "Idempotency-Key"} {
		if v := req.Header.Get(h); v != "" {
			sent = append(sent, h+": "+v)
		}
	}
	line := fmt.Sprintf("api: %s %s", req.Method, req.URL.RequestURI())
	if len(sent) > 0 {
		line += " [" + strings.Join(sent, "; ") + "]"
	}
	if err != nil {
		line += fmt.Sprintf(" -> error: %v", err)
	} else {
		line += fmt.Sprintf(" -> %d", status)
	}
	fmt.Fprintf(c.debug, "%s (%s)\n", line, time.Since(start).Round(100*time.Microsecond))
}
