package server_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/syncbuf"
)

// A caller's X-Request-Id is echoed and logged only when it is a safe,
// short id; anything else is replaced by one of the server's, so that no
// caller puts raw bytes in the log or the answer.
func TestRequestIDIsKeptOnlyWhenSafe(t *testing.T) {
	t.Parallel()
	log := &syncbuf.Buffer{}
	e := newEnv(t, func(c *server.Config) { c.Logger = slog.New(slog.NewJSONHandler(log, nil)) })
	for _, id := range []string{"3f2c9a1e-7b4d-4f0e-9c1a-2b3c4d5e6f70", "trace_01J9:span.7"} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/healthz", nil)
		req.Header.Set("X-Request-Id", id)
		e.srv.ServeHTTP(rec, req)
		if got := rec.Header().Get("X-Request-Id"); got != id {
			t.Errorf("safe id %q answered as %q", id, got)
		}
	}
	for _, id := range []string{
		"evil\x1b]52;c;aGVsbG8=\x07",  // OSC 52: write the clipboard
		"a\r\nlevel=ERROR msg=forged", // another log line
		"id with spaces",              // not an id
		"caf\u00e9",                   // not ASCII
		"\u202eexe.txt",               // bidi override
		strings.Repeat("a", 65),       // too long
		"x\x00y",                      // NUL
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/healthz", nil)
		req.Header["X-Request-Id"] = []string{id}
		e.srv.ServeHTTP(rec, req)
		got := rec.Header().Get("X-Request-Id")
		if got == id || len(got) != 16 || strings.Trim(got, "0123456789abcdef") != "" {
			t.Errorf("unsafe id %q answered as %q, want a new 16-hex-digit id", id, got)
		}
		if strings.Contains(log.String(), id) {
			t.Errorf("unsafe id %q reached the log", id)
		}
	}
}
