package client

import (
	"context"
	"io"
	"net/http"
)

// FetchLink streams the body behind a download link to w and returns the
// bytes written. The link is fetched with a client of its own that never
// carries the key: the link itself is the credential, and it may point at
// another host (a storage service) that must not see the key. Redirects
// are followed for the same reason. A non-2xx answer is an *Error, e.g. 410
// or 403 for a link that expired.
func (c *Client) FetchLink(ctx context.Context, link string, w io.Writer) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("User-Agent", c.userAgent)
	// No Timeout: large files take long; the context bounds the wait.
	hc := &http.Client{Transport: c.transport}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, &NetworkError{Method: http.MethodGet, URL: redactLink(link), Err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return 0, newError(http.MethodGet, redactLink(link), resp, body)
	}
	return io.Copy(w, resp.Body)
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
