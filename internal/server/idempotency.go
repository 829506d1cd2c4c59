package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// idempotencyWindow is how long a first answer is replayed (docs/decisions.md).
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

// staleClaim is how long a claim of a call that never finished (its
// server died, or the database went away before the claim could be
// released) holds its key. It outlasts a create's write, which the
// database deadline bounds (docs/server.md "Database outages"); a call
// still running past it loses its claim and writes nothing
// (store.ErrClaimLost), so a retry never writes twice.
const staleClaim = 15 * time.Second

// create is a POST that makes something (a request, a message), split so
// that who may make the call is settled before anything else: the
// Idempotency-Key is neither read nor claimed, and the body neither read
// nor hashed, for a caller who gets a 404 or a 403.
type create struct {
	// authorize resolves what the path names and refuses a caller who
	// may not make the call, without reading the body.
	authorize func(ctx context.Context, r *http.Request, c *call) (*target, error)
	// perform reads the body and writes.
	perform func(w http.ResponseWriter, r *http.Request, t *target) error
	// replay rebuilds the answer of a create whose write committed but
	// whose answer was never saved (its server died in between), from the
	// id of what it created.
	replay func(w http.ResponseWriter, r *http.Request, t *target, resourceID string) error
	// keptHeaders, when set, sets the headers of a kept answer replayed
	// as it was, which only its status and body are kept of.
	keptHeaders func(w http.ResponseWriter, t *target, body []byte)
}

// target is what an authorized create acts on.
type target struct {
	dc  *dealCall
	row store.Request // the request a message is posted to
}

// idempotent is the *extension* for POSTs: with an Idempotency-Key, the
// first successful answer is kept for 24 hours and replayed to a repeat
// instead of writing twice, so a script can retry a POST whose answer it
// never got. The key is bound to the call's path and body (a SHA-256 of
// it): the same key with another body is 409 idempotency_key_reused, never
// a replay of something else. The key is claimed before the call writes,
// so a repeat sent while the first is still running gets 409 (reason
// idempotency_in_progress, Retry-After 1) rather than a second write; the
// create records what it wrote on the claim in its own transaction
// (store.Claim), so a crash between the write and saving the answer still
// replays. Failures before the write are not kept: they may be retried
// for real. The caller's reach and permission come first, key or not.
func (s *Server) idempotent(cr create) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c *call) error {
		t, err := cr.authorize(r.Context(), r, c)
		if err != nil {
			return err
		}
		h := func(w http.ResponseWriter, r *http.Request, _ *call) error { return cr.perform(w, r, t) }
		replay := func(w http.ResponseWriter, r *http.Request, _ *call, id string) error { return cr.replay(w, r, t, id) }
		idemKey := r.Header.Get(api.IdempotencyKeyHeader)
		if idemKey == "" {
			return h(w, r, c)
		}
		if len(idemKey) > 255 {
			return &api.ErrorResponse{Code: api.CodeBadRequest, Params: map[string]any{"reason": "idempotency_key_too_long", "max": 255}}
		}
		// The body is read (not decoded) to fingerprint it, and handed to
		// the handler as read.
		raw, err := readRaw(r)
		if err != nil {
			return err
		}
		r.Body = bufferedBody{Reader: bytes.NewReader(raw), data: raw}
		sum := sha256.Sum256(raw)
		ctx := r.Context()
		now := s.now()
		claim := store.SavedResponse{Method: r.Method, Path: r.URL.Path, Fingerprint: hex.EncodeToString(sum[:]), CreatedAt: now}
		kept, reserved, err := s.store.ReserveResponse(ctx, c.key.ID, idemKey, claim, now.Add(-idempotencyWindow), now.Add(-staleClaim))
		switch {
		case err != nil:
			return err
		case reserved:
		case kept.Method != r.Method || kept.Path != r.URL.Path:
			return &api.ErrorResponse{Code: api.CodeConflict, Params: map[string]any{"reason": api.ReasonIdempotencyKeyReused, "detail": "the key was first used on another path"}}
		case kept.Fingerprint != "" && kept.Fingerprint != claim.Fingerprint:
			return &api.ErrorResponse{Code: api.CodeConflict, Params: map[string]any{"reason": api.ReasonIdempotencyKeyReused, "detail": "the key was first used with another body"}}
		case kept.Status == 0 && kept.ResourceID == "":
			w.Header().Set("Retry-After", "1")
			return &api.ErrorResponse{Code: api.CodeConflict, Params: map[string]any{"reason": api.ReasonIdempotencyInProgress}}
		case kept.Status == 0:
			w.Header().Set("Idempotent-Replayed", "true")
			return replay(w, r, c, kept.ResourceID)
		default:
			w.Header().Set("Idempotent-Replayed", "true")
			if cr.keptHeaders != nil {
				cr.keptHeaders(w, t, kept.Body)
			}
			writeBody(w, kept.Status, kept.Body)
			return nil
		}
		r = r.WithContext(store.WithClaim(ctx, &store.Claim{KeyID: c.key.ID, IdemKey: idemKey, CreatedAt: now}))
		cw := &captureWriter{ResponseWriter: w}
		herr := h(cw, r, c)
		if herr == nil && cw.status >= 200 && cw.status < 300 {
			claim.Status, claim.Body = cw.status, cw.body.Bytes()
			save, cancel := s.detached(ctx)
			defer cancel()
			if err := s.store.SaveResponse(save, c.key.ID, idemKey, claim); err != nil {
				// The write's own record of the claim still replays it.
				s.log.Warn("cannot keep an idempotent answer", "err", err, "request_id", requestID(ctx))
			}
			return nil
		}
		if errors.Is(herr, store.ErrClaimLost) {
			// A retry took the claim over after it went stale: this call
			// wrote nothing, the retry answers for the key.
			w.Header().Set("Retry-After", "1")
			return &api.ErrorResponse{Code: api.CodeConflict, Params: map[string]any{"reason": api.ReasonIdempotencyInProgress}}
		}
		// A claim whose call committed a write is not released (the store
		// keeps it): a retry replays that write.
		s.releaseClaim(ctx, c.key.ID, idemKey)
		return herr
	}
}
