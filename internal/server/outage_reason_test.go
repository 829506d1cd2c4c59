package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dealctl/dealctl/internal/blob"
)

// TestOutageNamesItsCause: a network failure of the object store answers
// 503 files_unreachable, one of the database 503 database_unavailable;
// both carry Retry-After, and anything else is not an outage.
func TestOutageNamesItsCause(t *testing.T) {
	t.Parallel()
	netErr := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	s := &Server{log: slog.New(slog.DiscardHandler)}
	for _, c := range []struct {
		err    error
		reason string
	}{
		{fmt.Errorf("select: %w", netErr), ReasonDatabaseUnavailable},
		{fmt.Errorf("abc in s3://b: %w (%w)", netErr, blob.ErrObjectStore), ReasonFilesUnreachable},
	} {
		w := httptest.NewRecorder()
		if !s.outageRefusal(w, httptest.NewRequest("GET", "/api/v1/me", nil), c.err) {
			t.Fatalf("%v: not taken for an outage", c.err)
		}
		var body struct{ Params map[string]any }
		_ = json.Unmarshal(w.Body.Bytes(), &body)
		if w.Code != http.StatusServiceUnavailable || body.Params["reason"] != c.reason || w.Header().Get("Retry-After") == "" {
			t.Errorf("%v: %d %v, Retry-After %q; want 503 %s", c.err, w.Code, body.Params, w.Header().Get("Retry-After"), c.reason)
		}
	}
	if s.outageRefusal(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil), errors.New("a bug")) {
		t.Error("a plain error was taken for an outage")
	}
}
