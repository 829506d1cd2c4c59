package server

import (
	"bytes"
	"errors"
	"net/http"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// idempotencyWindow is how long a first answer is replayed (contract §2).
const idempotencyWindow = 24 * time.Hour

// captureWriter keeps a copy of what a handler writes.
type captureWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (c *captureWriter) WriteHeader(code int) {
	if c.status == 0 {
		c.status = code
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *captureWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	c.body.Write(b)
	return c.ResponseWriter.Write(b)
}

// idempotent is the *extension* for POSTs: with an Idempotency-Key, the
// first successful answer is kept for 24 hours and replayed to a repeat
// instead of writing twice, so a script can retry a POST whose answer it
// never got. Failures are not kept: they may be retried for real.
func (s *Server) idempotent(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c *call) error {
		idemKey := r.Header.Get("Idempotency-Key")
		if idemKey == "" {
			return h(w, r, c)
		}
		if len(idemKey) > 255 {
			return &api.ErrorResponse{Code: api.CodeBadRequest, Params: map[string]any{"reason": "idempotency_key_too_long", "max": 255}}
		}
		now := s.now()
		saved, err := s.store.SavedResponse(r.Context(), c.key.ID, idemKey, now.Add(-idempotencyWindow))
		switch {
		case err == nil && (saved.Method != r.Method || saved.Path != r.URL.Path):
			return &api.ErrorResponse{Code: api.CodeConflict, Params: map[string]any{"reason": "idempotency_key_reused"}}
		case err == nil:
			w.Header().Set("Idempotent-Replayed", "true")
			writeBody(w, saved.Status, saved.Body)
			return nil
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
		cw := &captureWriter{ResponseWriter: w}
		if err := h(cw, r, c); err != nil {
			return err
		}
		if cw.status >= 200 && cw.status < 300 {
			resp := store.SavedResponse{Method: r.Method, Path: r.URL.Path, Status: cw.status, Body: cw.body.Bytes(), CreatedAt: now}
			if err := s.store.SaveResponse(r.Context(), c.key.ID, idemKey, resp, now.Add(-idempotencyWindow)); err != nil {
				s.log.Warn("cannot keep an idempotent answer", "err", err, "request_id", requestID(r.Context()))
			}
		}
		return nil
	}
}
