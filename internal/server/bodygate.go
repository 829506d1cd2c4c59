package server

import (
	"context"
	"net/http"
	"strconv"
	"sync"

	"github.com/dealctl/dealctl/internal/api"
)

// Bounds on the request bodies being read at once: each may take up to
// 1 MiB (api.MaxRequestBody) for as long as its sender takes to send it.
// Per key, more than an importer's writes in flight; overall, a bound on
// the memory slow senders can hold together (docs/server.md, "Security").
// A body that arrives with its headers is read at once and holds its
// place for no time.
const (
	maxBodiesPerKey = 8
	maxBodies       = 128
)

// ReasonServerBusy is the reason of a 503 for a call whose body the
// server cannot start reading (maxBodies are being read already), or a
// read that waited its whole deadline for its turn (readSlots).
const ReasonServerBusy = "server_busy"

// reasonTooManyBodies is the reason of a 429 for a key with
// maxBodiesPerKey bodies being read already.
const reasonTooManyBodies = "too_many_bodies"

// bodyGate counts the bodies being read, per key and overall.
type bodyGate struct {
	mu      sync.Mutex
	perKey  map[string]int
	total   int
	keyMax  int
	overall int
}

func newBodyGate(perKey, overall int) *bodyGate {
	return &bodyGate{perKey: map[string]int{}, keyMax: perKey, overall: overall}
}

// bodyRefused is a body the gate would not start reading.
type bodyRefused struct {
	keyShare bool // the key's share was full; else the server's
	max      int
}

func (e *bodyRefused) Error() string {
	return "too many request bodies being read at once (" + strconv.Itoa(e.max) + ")"
}

// enter takes a place for a body of keyID, or refuses it. release must
// be called once the body is read.
func (g *bodyGate) enter(keyID string) (release func(), err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.perKey[keyID] >= g.keyMax:
		return nil, &bodyRefused{keyShare: true, max: g.keyMax}
	case g.total >= g.overall:
		return nil, &bodyRefused{max: g.overall}
	}
	g.perKey[keyID]++
	g.total++
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.total--
		if g.perKey[keyID]--; g.perKey[keyID] <= 0 {
			delete(g.perKey, keyID)
		}
	}, nil
}

type bodyGateKey struct{}

// gatedBody is what readRaw needs to take a place: the gate and the key.
type gatedBody struct {
	gate  *bodyGate
	keyID string
}

// withBodyGate tells readRaw, through the call's context, which key's
// share a body it reads takes.
func withBodyGate(r *http.Request, g *bodyGate, keyID string) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), bodyGateKey{}, gatedBody{gate: g, keyID: keyID}))
}

// enterBody takes a place for r's body where r went through
// withBodyGate; elsewhere it has nothing to count.
func enterBody(r *http.Request) (release func(), err error) {
	gb, ok := r.Context().Value(bodyGateKey{}).(gatedBody)
	if !ok {
		return func() {}, nil
	}
	return gb.gate.enter(gb.keyID)
}

// writeBodyRefused answers a bodyRefused: a key over its share 429 (its
// own calls are the cause), a full server 503; both with Retry-After: 1,
// which the client waits out.
func writeBodyRefused(w http.ResponseWriter, e *bodyRefused) {
	w.Header().Set("Retry-After", "1")
	if e.keyShare {
		writeJSON(w, http.StatusTooManyRequests, &api.ErrorResponse{Code: api.CodeRateLimited,
			Params: map[string]any{"reason": reasonTooManyBodies, "retry_after": 1, "max": e.max}})
		return
	}
	writeJSON(w, http.StatusServiceUnavailable, &api.ErrorResponse{Code: api.CodeInternal, Params: map[string]any{
		"reason": ReasonServerBusy, "detail": "the server is reading as many request bodies as it takes at once: retry"}})
}
