package client

import "net/http"

// WithResponseObserver returns a copy of c that shows every HTTP answer's
// status and headers to observe before the client reads it. The TUI uses
// it to show the rate budget left (X-RateLimit-Remaining, an extension of
// this project's server) without a second HTTP layer: the copy shares the
// cache, retries and redirect policy of c. observe must be quick and safe
// for concurrent use; it must not read the body.
func (c *Client) WithResponseObserver(observe func(*http.Response)) *Client {
	cp := *c
	base := c.transport
	if base == nil {
		base = http.DefaultTransport
	}
	cp.transport = observingTransport{base: base, observe: observe} // FetchLink's too
	cp.rt = cp.layers(cp.transport)
	return &cp
}

type observingTransport struct {
	base    http.RoundTripper
	observe func(*http.Response)
}

func (t observingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err == nil {
		t.observe(resp)
	}
	return resp, err
}
