package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"
)

// FetchLink streams the body behind a download link to w and returns the
// bytes written. The link is fetched with a client of its own that never
// carries the key: the link itself is the credential, and it may point at
// another host (a storage service) that must not see the key. Redirects
// are followed for the same reason. A non-2xx answer is an *Error, e.g. 410
// or 403 for a link that expired. A fetch spends a call of the key's rate
// budget on a dealctl server (docs/api.md, "Download links"): a 429 is
// waited out as other calls' are, within the same bound, while the link
// lives.
func (c *Client) FetchLink(ctx context.Context, link string, w io.Writer) (int64, error) {
	var waited time.Duration
	for {
		n, wait, err := c.fetchLinkOnce(ctx, link, w)
		var e *Error
		if !errors.As(err, &e) || e.StatusCode != http.StatusTooManyRequests {
			return n, err
		}
		if c.maxRateWait <= 0 || waited+wait > c.maxRateWait {
			return 0, &RateLimitedError{RetryAfter: wait, Waited: waited, Err: e}
		}
		waited += wait
		if err := c.sleep(ctx, wait); err != nil {
			return 0, err
		}
	}
}

// fetchLinkOnce is one attempt of FetchLink; a 429 comes with its
// Retry-After.
func (c *Client) fetchLinkOnce(ctx context.Context, link string, w io.Writer) (int64, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("User-Agent", c.userAgent)
	// No Timeout: large files take long; the context bounds the wait.
	hc := &http.Client{Transport: c.transport}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, 0, &NetworkError{Method: http.MethodGet, URL: redactLink(link), Err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return 0, retryAfter(resp.Header), newError(http.MethodGet, redactLink(link), resp, body)
	}
	n, err := io.Copy(w, resp.Body)
	return n, 0, err
}

// redactLink hides a link's token in messages: it is a bearer credential
// for as long as it lives.
func redactLink(link string) string {
	for i := len(link) - 1; i >= 0; i-- {
		if link[i] == '/' {
			return link[:i+1] + "…"
		}
	}
	return link
}
