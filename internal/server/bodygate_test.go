package server_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// countedBody is a body that counts the reads the server makes of it.
type countedBody struct {
	mu    sync.Mutex
	reads int
	r     io.Reader
}

func (b *countedBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	b.reads++
	b.mu.Unlock()
	return b.r.Read(p)
}

// A viewer may change nothing on a row: its PATCH is refused before a
// byte of the body is read, whatever it declares.
func TestViewerPatchIsRefusedBeforeItsBody(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path := requestPath(e.deal("falcon"), e.row("falcon/2.1"))
	for _, key := range []string{"bianca-write", "owen-write"} {
		body := &countedBody{r: strings.NewReader(`{"title": "` + strings.Repeat("a", api.MaxRequestBody-20) + `"}`)}
		req := httptest.NewRequest(http.MethodPatch, path, body)
		req.ContentLength = api.MaxRequestBody
		req.Header.Set("Authorization", "Bearer "+e.secret(key))
		rec := httptest.NewRecorder()
		e.srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), api.ReasonCannotChangeRequest) {
			t.Errorf("%s: %d %s, want 403 %s", key, rec.Code, rec.Body, api.ReasonCannotChangeRequest)
		}
		if body.reads != 0 {
			t.Errorf("%s: the server read the body %d times before refusing", key, body.reads)
		}
	}
}

// slowPatch starts a PATCH as key whose body does not arrive until the
// returned func is called; meanwhile the server is reading it.
func slowPatch(t *testing.T, e *env, key, path string) (finish func()) {
	t.Helper()
	pr, pw := io.Pipe()
	req, err := http.NewRequest(http.MethodPatch, e.ts.URL+path, pr)
	if err != nil {
		t.Fatal(err)
	}
	body := `{"title": "slow"}`
	req.ContentLength = int64(len(body))
	req.Header.Set("Authorization", "Bearer "+e.secret(key))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := e.ts.Client().Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	return func() {
		_, _ = pw.Write([]byte(body))
		pw.Close()
		<-done
	}
}

// waitBeingRead waits until the server is reading n bodies.
func waitBeingRead(t *testing.T, e *env, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); e.srv.BodiesBeingRead() != n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d bodies being read, want %d", e.srv.BodiesBeingRead(), n)
		}
	}
}

// Bodies being read at once are bounded per key (429, the key's own
// doing) and overall (503); both say Retry-After: 1.
func TestBodiesBeingReadAreBounded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.srv.SetBodyLimits(2, 3)
	path := requestPath(e.deal("falcon"), e.row("falcon/2.1"))
	edit := map[string]any{"title": "quick"}
	var finish []func()
	for range 2 {
		finish = append(finish, slowPatch(t, e, "olivia-write", path))
	}
	waitBeingRead(t, e, 2)
	r := e.as(t, "olivia-write").patch(path, edit)
	r.wantErr(http.StatusTooManyRequests, api.CodeRateLimited, "too_many_bodies")
	if r.header.Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q, want 1", r.header.Get("Retry-After"))
	}
	// Reads are not bodies.
	e.as(t, "olivia-write").get(path).want(http.StatusOK)
	// Another key has its own share, until the server's is taken.
	finish = append(finish, slowPatch(t, e, "oscar-write", path))
	waitBeingRead(t, e, 3)
	r = e.as(t, "ben-write").post(messagesPath(e.deal("falcon"), e.row("falcon/2.1")), map[string]any{"text": "x"})
	r.wantErr(http.StatusServiceUnavailable, api.CodeInternal, "server_busy")
	if r.header.Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q, want 1", r.header.Get("Retry-After"))
	}
	for _, f := range finish {
		f()
	}
	waitBeingRead(t, e, 0)
	e.as(t, "olivia-write").patch(path, edit).want(http.StatusOK)
}
