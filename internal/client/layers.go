package client

import (
	"bytes"
	"context"
	"io"
	"net/http"

	"github.com/dealctl/dealctl/internal/api"
)

// The client sends every call through a stack of http.RoundTrippers, each
// doing one job and tested on its own (layers_test.go), outermost first:
//
//	cacheLayer       conditional GETs: If-None-Match, a 304 answered from disk
//	retryLayer       transient failures with backoff, 429 waits within a budget
//	extensionsLayer  learns X-Dealctl-Extensions from every answer
//	debugLayer       one line per attempt (DEALCTL_DEBUG=api)
//	attemptLayer     one attempt: an http.Client (timeout, redirect policy) whose
//	authLayer          transport adds the key, only for the server's own origin
//
// Every layer below retryLayer sees one attempt; every layer above it sees
// one call. retryLayer hands up answers whose body has arrived whole.

// layers builds the stack on transport (nil: http.DefaultTransport). It is
// built again by WithResponseObserver, with the observer under the key.
func (c *Client) layers(transport http.RoundTripper) http.RoundTripper {
	if transport == nil {
		transport = http.DefaultTransport
	}
	hc := *c.httpClient
	hc.Transport = &authLayer{next: transport, origin: c.base, key: c.key}
	hc.CheckRedirect = c.checkRedirect
	var rt http.RoundTripper = attemptLayer{&hc}
	if c.debug != nil {
		rt = &debugLayer{next: rt, w: c.debug}
	}
	rt = &extensionsLayer{next: rt, ext: c.ext}
	rt = &retryLayer{
		next:        rt,
		maxRetries:  c.maxRetries,
		maxRateWait: c.maxRateWait,
		sleep:       c.sleep,
		replays:     func() bool { return c.ext.has(api.ExtIdempotencyKey) },
		waiting:     c.outageWait,
	}
	return &cacheLayer{next: rt, cache: c.cache, keyOf: c.cacheKey}
}

// attemptLayer sends one attempt with an http.Client, so that each attempt
// (not the whole call, with its waits) has the client's timeout, and
// redirects follow its policy.
type attemptLayer struct{ hc *http.Client }

func (t attemptLayer) RoundTrip(req *http.Request) (*http.Response, error) {
	return t.hc.Do(req)
}

// exchange is what one call tells the layers beyond its request, and what
// they tell it back. It travels in the request's context.
type exchange struct {
	// receive takes in the body of an answer, whole; nil reads it into
	// memory. GetStream's writes it to disk as it arrives.
	receive func(*http.Response) (io.ReadCloser, error)
	// stream is GetStream's state: the cache layer answers a 304 with the
	// entry it holds open. nil for Do.
	stream *streamMode
	// noCache: the caller keeps its own validators (RequestsIfChanged).
	noCache bool
	// fromCache is set by the cache layer when it answered a 304 from disk.
	fromCache bool
}

type exchangeKey struct{}

func withExchange(ctx context.Context, x *exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, x)
}

// exchangeOf returns the call's exchange, or an empty one for a request
// sent without (a layer's own test, say).
func exchangeOf(ctx context.Context) *exchange {
	if x, ok := ctx.Value(exchangeKey{}).(*exchange); ok {
		return x
	}
	return &exchange{}
}

// memoryBody is a body held in memory, which layers and the client read
// without copying.
type memoryBody struct {
	*bytes.Reader
	data []byte
}

func newMemoryBody(data []byte) *memoryBody {
	return &memoryBody{Reader: bytes.NewReader(data), data: data}
}

func (memoryBody) Close() error { return nil }

// receiveInMemory reads a whole body; a failure to read it is a
// *receiveError, which the retry layer retries like a network error.
func receiveInMemory(resp *http.Response) (io.ReadCloser, error) {
	data, err := io.ReadAll(receiveReader{resp.Body})
	if err != nil {
		return nil, err
	}
	return newMemoryBody(data), nil
}

// readBody returns the bytes of a body, without a copy when it is in
// memory already.
func readBody(rc io.ReadCloser) ([]byte, error) {
	if mb, ok := rc.(*memoryBody); ok {
		return mb.data, nil
	}
	defer rc.Close()
	return io.ReadAll(rc)
}
