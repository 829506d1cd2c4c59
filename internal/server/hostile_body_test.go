package server_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// postInProcess sends one POST straight to the server's handler, so that
// what is measured is the server's own work.
func postInProcess(e *env, secret, path string, body []byte) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	return rec
}

// allocated is the bytes and allocations of one run of f, averaged over
// runs (the allocation counters are exact; no clock is read).
func allocated(runs int, f func()) (bytesPerRun, allocsPerRun float64) {
	f() // warm caches: prepared statements, pools
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(runs), float64(after.Mallocs-before.Mallocs) / float64(runs)
}

// TestHostileBodyIsRefusedCheaply: 1 MiB of empty link objects, the body
// an outside review found cost 14 times a plain body's CPU and tens of MiB
// per connection. From a viewer, who may not post, it is refused before
// it is read; from an editor, it is refused on the links' count, at the
// cost of reading a plain body of the same size.
func TestHostileBodyIsRefusedCheaply(t *testing.T) {
	e := newEnv(t)
	falcon, row := e.deal("falcon"), e.row("falcon/2.1")
	path := messagesPath(falcon, row)
	hostile := hostileLinks(api.MaxRequestBody - 64)
	plain := []byte(`{"text": "` + strings.Repeat("a", 15000) + `", "x": "` + strings.Repeat("b", api.MaxRequestBody-15100) + `"}`)
	viewer, editor := e.secret("bianca-write"), e.secret("ben-write")

	if rec := postInProcess(e, viewer, path, hostile); rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), api.ReasonCannotPost) {
		t.Fatalf("viewer's hostile body: %d %s, want 403 cannot_post", rec.Code, rec.Body)
	}
	if rec := postInProcess(e, editor, path, hostile); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), api.FieldTooMany) {
		t.Fatalf("editor's hostile body: %d %s, want 422 too_many", rec.Code, rec.Body)
	}

	const runs = 10
	viewerBytes, viewerAllocs := allocated(runs, func() { postInProcess(e, viewer, path, hostile) })
	editorBytes, editorAllocs := allocated(runs, func() { postInProcess(e, editor, path, hostile) })
	plainBytes, plainAllocs := allocated(runs, func() { postInProcess(e, editor, path, plain) })
	t.Logf("per call: viewer %.0f B in %.0f allocs; editor %.0f B in %.0f allocs; a plain 1 MiB body %.0f B in %.0f allocs",
		viewerBytes, viewerAllocs, editorBytes, editorAllocs, plainBytes, plainAllocs)

	// The viewer's body is never read: far less than the body itself.
	if viewerBytes > api.MaxRequestBody/4 {
		t.Errorf("a viewer's refused call allocated %.0f bytes; its body should not have been read", viewerBytes)
	}
	// The editor's: one copy of the body and a small, fixed overhead, not
	// one allocation per link.
	if editorBytes > 1.5*api.MaxRequestBody {
		t.Errorf("an editor's hostile body allocated %.0f bytes, want at most 1.5 MiB (one read of the body)", editorBytes)
	}
	if editorAllocs > plainAllocs+200 {
		t.Errorf("an editor's hostile body took %.0f allocations against %.0f for a plain body of the same size", editorAllocs, plainAllocs)
	}
}

// BenchmarkHostileBody measures the server's cost of refusing the body of
// TestHostileBodyIsRefusedCheaply, from an editor (read and scanned) and
// from a viewer (not read).
func BenchmarkHostileBody(b *testing.B) {
	e := newEnv(b)
	path := messagesPath(e.deal("falcon"), e.row("falcon/2.1"))
	hostile := hostileLinks(api.MaxRequestBody - 64)
	for _, who := range []string{"ben-write", "bianca-write"} {
		b.Run(who, func(b *testing.B) {
			secret := e.secret(who)
			b.ReportAllocs()
			b.SetBytes(int64(len(hostile)))
			for b.Loop() {
				postInProcess(e, secret, path, hostile)
			}
		})
	}
}
