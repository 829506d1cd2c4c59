package client

import (
	"net/http"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
)

// WithWriteObserver returns a copy of c (WithResponseObserver) that calls
// wrote after every attempt the server answered with success and that
// wrote (api.IsWriteCall): a command whose output then fails can say that
// its write was made, so that it is not run again. wrote must be quick
// and safe for concurrent use.
func (c *Client) WithWriteObserver(wrote func(method, path string)) *Client {
	root := strings.TrimSuffix(c.base.Path, "/") + "/api/v1"
	return c.WithResponseObserver(func(r *http.Response) {
		if r.StatusCode < 200 || r.StatusCode > 299 || r.Request == nil {
			return
		}
		path, ok := strings.CutPrefix(r.Request.URL.Path, root)
		if ok && api.IsWriteCall(r.Request.Method, path) {
			wrote(r.Request.Method, path)
		}
	})
}
