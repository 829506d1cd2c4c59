package client

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// Each layer on its own, over a scripted next layer.

// scripted answers the requests it is sent with answers in order, and
// keeps the requests.
type scripted struct {
	answers []func(*http.Request) (*http.Response, error)
	sent    []*http.Request
}

func (s *scripted) RoundTrip(req *http.Request) (*http.Response, error) {
	s.sent = append(s.sent, req)
	if len(s.sent) > len(s.answers) {
		return nil, errors.New("scripted: no answer left")
	}
	return s.answers[len(s.sent)-1](req)
}

func answer(status int, hdr http.Header, body string) func(*http.Request) (*http.Response, error) {
	return func(req *http.Request) (*http.Response, error) {
		if hdr == nil {
			hdr = http.Header{}
		}
		return &http.Response{StatusCode: status, Header: hdr.Clone(), Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
	}
}

func failure(err error) func(*http.Request) (*http.Response, error) {
	return func(*http.Request) (*http.Response, error) { return nil, err }
}

func newRequest(t *testing.T, method, u string, body string, hdr http.Header) *http.Request {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, r)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	return req
}

func TestAuthLayerSendsTheKeyOnlyToItsOrigin(t *testing.T) {
	origin, _ := url.Parse("https://deals.example")
	next := &scripted{answers: []func(*http.Request) (*http.Response, error){
		answer(200, nil, ""), answer(200, nil, ""), answer(200, nil, ""),
	}}
	layer := &authLayer{next: next, origin: origin, key: "dlk_secret"}
	own := newRequest(t, "GET", "https://DEALS.example/api/v1/me", "", nil)
	for _, u := range []string{"https://deals.example/api/v1/me", "https://storage.example/f", "http://deals.example/api/v1/me"} {
		req := own
		if u != own.URL.String() {
			req = newRequest(t, "GET", u, "", nil)
		}
		if _, err := layer.RoundTrip(req); err != nil {
			t.Fatal(err)
		}
	}
	if got := next.sent[0].Header.Get("Authorization"); got != "Bearer dlk_secret" {
		t.Errorf("own origin: Authorization %q", got)
	}
	for _, r := range next.sent[1:] {
		if got := r.Header.Get("Authorization"); got != "" {
			t.Errorf("%s got the key: %q", r.URL, got)
		}
	}
	if own.Header.Get("Authorization") != "" {
		t.Error("the layer changed the caller's request")
	}
}

// A redirect that a looser policy would follow still goes without the key:
// the layer sees every hop.
func TestAuthLayerOnARedirectToAnotherHost(t *testing.T) {
	var elsewhere string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere = r.Header.Get("Authorization") + "|seen"
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/x", http.StatusFound)
	}))
	defer srv.Close()
	origin, _ := url.Parse(srv.URL)
	hc := &http.Client{Transport: &authLayer{next: http.DefaultTransport, origin: origin, key: "dlk_secret"}}
	resp, err := hc.Get(srv.URL + "/api/v1/me")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if elsewhere != "|seen" {
		t.Errorf("the other host saw %q, want no key (and a request)", elsewhere)
	}
}

func newRetryLayer(next http.RoundTripper, replays bool) (*retryLayer, *[]time.Duration) {
	var waits []time.Duration
	return &retryLayer{
		next: next, maxRetries: 3, maxRateWait: 10 * time.Second,
		sleep:   func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil },
		replays: func() bool { return replays },
	}, &waits
}

func TestRetryLayerRetriesReadsAndResendsTheBody(t *testing.T) {
	cut := func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(iotest.ErrReader(io.ErrUnexpectedEOF))}, nil
	}
	next := &scripted{answers: []func(*http.Request) (*http.Response, error){
		failure(errors.New("connection reset")), answer(503, nil, "busy"), cut, answer(200, nil, "ok"),
	}}
	layer, waits := newRetryLayer(next, true)
	req := newRequest(t, "POST", "https://h/api/v1/x", `{"a":1}`, http.Header{"Idempotency-Key": {"dealctl-1"}})
	resp, err := layer.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(resp.Body); string(b) != "ok" {
		t.Errorf("body %q", b)
	}
	if len(next.sent) != 4 || len(*waits) != 3 {
		t.Fatalf("%d attempts, %d waits; want 4 and 3", len(next.sent), len(*waits))
	}
	for i, r := range next.sent {
		if b, _ := io.ReadAll(r.Body); string(b) != `{"a":1}` {
			t.Errorf("attempt %d sent body %q", i, b)
		}
	}
}

func TestRetryLayerDoesNotResendWrites(t *testing.T) {
	for _, tc := range []struct {
		name    string
		hdr     http.Header
		replays bool
	}{
		{"plain POST", nil, true},
		{"keyed POST, server does not replay", http.Header{"Idempotency-Key": {"dealctl-1"}}, false},
	} {
		next := &scripted{answers: []func(*http.Request) (*http.Response, error){
			failure(errors.New("connection reset")), answer(200, nil, "ok"),
		}}
		layer, _ := newRetryLayer(next, tc.replays)
		_, err := layer.RoundTrip(newRequest(t, "POST", "https://h/api/v1/x", "{}", tc.hdr))
		var ne *NetworkError
		if !errors.As(err, &ne) || len(next.sent) != 1 {
			t.Errorf("%s: err %v after %d attempts; want a NetworkError after 1", tc.name, err, len(next.sent))
		}
	}
}

// TestRetryLayerResendsWritesAfterA503ThatDidNotAct: an instance left
// behind by a schema upgrade answers writes 503 with Retry-After before
// reading them, so even a PATCH is sent again; a 503 without it is not.
func TestRetryLayerResendsWritesAfterA503ThatDidNotAct(t *testing.T) {
	drained := answer(503, http.Header{"Retry-After": {"5"}}, `{"code":"internal","params":{"reason":"schema_newer"}}`)
	next := &scripted{answers: []func(*http.Request) (*http.Response, error){drained, answer(200, nil, "ok")}}
	layer, waits := newRetryLayer(next, false)
	resp, err := layer.RoundTrip(newRequest(t, "PATCH", "https://h/api/v1/x", `{"status":"complete"}`, nil))
	if err != nil || resp.StatusCode != 200 || len(next.sent) != 2 || len(*waits) != 1 || (*waits)[0] != 5*time.Second {
		t.Fatalf("err %v, %d attempts, waits %v; want 200 after one 5 s wait", err, len(next.sent), *waits)
	}

	plain := &scripted{answers: []func(*http.Request) (*http.Response, error){answer(503, nil, `{"code":"internal"}`), answer(200, nil, "ok")}}
	layer, _ = newRetryLayer(plain, false)
	resp, err = layer.RoundTrip(newRequest(t, "PATCH", "https://h/api/v1/x", `{"status":"complete"}`, nil))
	if err != nil || resp.StatusCode != 503 || len(plain.sent) != 1 {
		t.Errorf("a 503 without Retry-After: err %v, %d attempts; want the 503 after 1", err, len(plain.sent))
	}
}

func TestRetryLayerWaitsOn429WithinTheBudget(t *testing.T) {
	limited := answer(429, http.Header{"Retry-After": {"4"}}, `{"code":"rate_limited"}`)
	next := &scripted{answers: []func(*http.Request) (*http.Response, error){limited, limited, limited, answer(200, nil, "ok")}}
	layer, waits := newRetryLayer(next, false)
	_, err := layer.RoundTrip(newRequest(t, "PATCH", "https://h/api/v1/x", "{}", nil))
	var rl *RateLimitedError
	if !errors.As(err, &rl) {
		t.Fatalf("err %v, want a RateLimitedError", err)
	}
	// 4 s + 4 s fit in 10 s; a third 4 s does not.
	if rl.Waited != 8*time.Second || rl.RetryAfter != 4*time.Second || len(*waits) != 2 || len(next.sent) != 3 {
		t.Errorf("waited %s, asked %s, %d sleeps, %d attempts", rl.Waited, rl.RetryAfter, len(*waits), len(next.sent))
	}
	if rl.Err == nil || rl.Err.StatusCode != 429 || !rl.Err.Decoded {
		t.Errorf("the 429's answer is not kept: %+v", rl.Err)
	}
}

func TestCacheLayerAnswersANotModifiedFromDisk(t *testing.T) {
	cache := NewCache(t.TempDir())
	next := &scripted{answers: []func(*http.Request) (*http.Response, error){
		answer(200, http.Header{"Etag": {`"v1"`}}, `[1]`),
		answer(304, nil, ""),
		answer(304, nil, ""),
	}}
	layer := &cacheLayer{next: next, cache: cache, keyOf: func(u string) string { return strings.Repeat("ab", 32) }}
	if _, err := layer.RoundTrip(newRequest(t, "GET", "https://h/api/v1/l", "", nil)); err != nil {
		t.Fatal(err)
	}
	x := &exchange{}
	req := newRequest(t, "GET", "https://h/api/v1/l", "", nil)
	resp, err := layer.RoundTrip(req.WithContext(withExchange(context.Background(), x)))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if got := next.sent[1].Header.Get("If-None-Match"); got != `"v1"` {
		t.Errorf("If-None-Match %q", got)
	}
	if resp.StatusCode != 200 || string(body) != "[1]" || !x.fromCache || resp.Header.Get("ETag") != `"v1"` {
		t.Errorf("status %d body %q fromCache %v ETag %q", resp.StatusCode, body, x.fromCache, resp.Header.Get("ETag"))
	}
	// A caller's own validator is the caller's: its 304 is handed up.
	req = newRequest(t, "GET", "https://h/api/v1/l", "", http.Header{"If-None-Match": {`"v0"`}})
	resp, err = layer.RoundTrip(req)
	if err != nil || resp.StatusCode != 304 {
		t.Errorf("caller's own If-None-Match: %v, %v", resp, err)
	}
}

func TestCacheLayerPassesWritesAndNoCacheCallsThrough(t *testing.T) {
	cache := NewCache(t.TempDir())
	next := &scripted{answers: []func(*http.Request) (*http.Response, error){
		answer(200, http.Header{"Etag": {`"v1"`}}, `{}`), answer(200, http.Header{"Etag": {`"v1"`}}, `[]`), answer(200, nil, `[]`),
	}}
	layer := &cacheLayer{next: next, cache: cache, keyOf: func(u string) string { return strings.Repeat("cd", 32) }}
	layer.RoundTrip(newRequest(t, "PATCH", "https://h/api/v1/l", "{}", nil))
	noCache := newRequest(t, "GET", "https://h/api/v1/l", "", nil)
	layer.RoundTrip(noCache.WithContext(withExchange(context.Background(), &exchange{noCache: true})))
	layer.RoundTrip(newRequest(t, "GET", "https://h/api/v1/l", "", nil))
	if got := next.sent[2].Header.Get("If-None-Match"); got != "" {
		t.Errorf("a PATCH or a noCache read was kept: the next read sent If-None-Match %q", got)
	}
}

func TestExtensionsLayerLearnsFromEveryAnswer(t *testing.T) {
	x := &extensions{}
	next := &scripted{answers: []func(*http.Request) (*http.Response, error){
		answer(404, http.Header{api.ExtensionsHeader: {"if-match, list-filters"}}, ""),
		answer(502, nil, ""), // a proxy's: says nothing of the server
		answer(200, nil, ""), // the server's, without the header: it has none now
	}}
	layer := &extensionsLayer{next: next, ext: x}
	want := [][]string{{api.ExtIfMatch, api.ExtListFilters}, {api.ExtIfMatch, api.ExtListFilters}, nil}
	for i, w := range want {
		if _, err := layer.RoundTrip(newRequest(t, "GET", "https://h/api/v1/me", "", nil)); err != nil {
			t.Fatal(err)
		}
		if got := x.all(); strings.Join(got, ",") != strings.Join(w, ",") {
			t.Errorf("after answer %d: %v, want %v", i+1, got, w)
		}
	}
}

func TestDebugLayerLogsOnceTheBodyIsIn(t *testing.T) {
	var log bytes.Buffer
	next := &scripted{answers: []func(*http.Request) (*http.Response, error){
		answer(200, nil, `[]`), failure(errors.New("connection refused")),
	}}
	layer := &debugLayer{next: next, w: &log}
	req := newRequest(t, "GET", "https://h/api/v1/l?x=1", "", http.Header{"If-None-Match": {`"v1"`}, "Authorization": {"Bearer dlk_secret"}})
	resp, err := layer.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if log.Len() != 0 {
		t.Errorf("logged before the body arrived: %q", log.String())
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	layer.RoundTrip(newRequest(t, "POST", "https://h/api/v1/l", "{}", nil))
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `api: GET /api/v1/l?x=1 [If-None-Match: "v1"] -> 200 (`) ||
		!strings.HasPrefix(lines[1], "api: POST /api/v1/l -> error: connection refused (") {
		t.Errorf("log:\n%s", log.String())
	}
	if strings.Contains(log.String(), "dlk_secret") {
		t.Error("the key was logged")
	}
}
