package client

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// authLayer adds the API key to requests for the server's own origin, and
// to nothing else. It sits under the http.Client's redirect handling, so
// it sees every hop: a redirect to another host (which checkRedirect
// refuses anyway) would go without the key.
type authLayer struct {
	next   http.RoundTripper
	origin *url.URL
	key    string
}

func (t *authLayer) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.key == "" || !sameOrigin(req.URL, t.origin) {
		return t.next.RoundTrip(req)
	}
	r := req.Clone(req.Context()) // a RoundTripper must not change its request
	r.Header.Set("Authorization", "Bearer "+t.key)
	return t.next.RoundTrip(r)
}

// checkRedirect refuses to follow a redirect to another host: the key must
// never leave the server it was issued for. authLayer would not send it,
// but following silently hides a misconfigured server from the user.
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
