package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// ReasonSchemaNewer is the reason of the 503 an instance answers writes
// with once the database has been migrated past it (docs/deploy.md,
// "Upgrading").
const ReasonSchemaNewer = "schema_newer"

// schemaRetryAfter is the Retry-After of that 503, in seconds: time for a
// load balancer, which sees /readyz fail too, to send the retry elsewhere.
const schemaRetryAfter = 5

// DefaultSchemaCheckInterval is how often WatchSchema looks by default.
const DefaultSchemaCheckInterval = 5 * time.Second

// schemaChecker is implemented by stores that know their schema version:
// CheckSchema returns an error wrapping store.ErrSchemaNewer once the
// database is newer than the running build.
type schemaChecker interface {
	CheckSchema(ctx context.Context) error
}

// schemaWatch remembers whether the database has moved past this build.
// Every write transaction checks it again in the store, so nothing is
// written on a newer schema even between two looks; what the watch adds
// is refusing writes before their bodies are read, failing /readyz so a
// load balancer drains the instance, and saying so in the log once.
type schemaWatch struct {
	log   *slog.Logger
	mu    sync.Mutex
	newer error // the refusal, nil while the schema is one this build knows
}

// state is the refusal in force, or nil.
func (w *schemaWatch) state() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.newer
}

// note records what a check or a refused write found, logging changes.
func (w *schemaWatch) note(err error) {
	newer := err != nil && errors.Is(err, store.ErrSchemaNewer)
	w.mu.Lock()
	was := w.newer
	if newer {
		w.newer = err
	} else if err == nil {
		w.newer = nil
	}
	w.mu.Unlock()
	switch {
	case newer && was == nil:
		w.log.Error("refusing writes and reporting not ready: the database schema is newer than this instance; replace it with the new release",
			"err", err.Error())
	case err == nil && was != nil:
		w.log.Info("taking writes again: the database schema is one this instance knows")
	}
}

// WatchSchema compares the database's schema version with this build's
// every interval until ctx ends (a check that fails for another reason,
// the database being down, changes nothing: /readyz reports that). A
// store that cannot tell its version is not watched.
func (s *Server) WatchSchema(ctx context.Context, every time.Duration) {
	checker, ok := s.store.(schemaChecker)
	if !ok {
		return
	}
	if every <= 0 {
		every = DefaultSchemaCheckInterval
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		// A look ends by the next one's time: a frozen database does not
		// hold the watch.
		look, cancel := context.WithTimeout(ctx, every)
		if err := checker.CheckSchema(look); err == nil || errors.Is(err, store.ErrSchemaNewer) {
			s.schema.note(err)
		}
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// isWrite tells the API calls that write (api.IsWriteCall): every call
// under /api/v1/ that does not only read, except a download link.
func isWrite(r *http.Request) bool {
	path, ok := strings.CutPrefix(r.URL.Path, "/api/v1/")
	return ok && api.IsWriteCall(r.Method, "/"+path)
}

// schemaGate answers writes with 503 once the watch has seen a newer
// schema, before anything of the call is read.
func (s *Server) schemaGate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isWrite(r) {
			if err := s.schema.state(); err != nil {
				writeSchemaNewer(w)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// schemaRefusal answers a write the store refused because the schema
// moved on since the last look, and tells the watch at once.
func (s *Server) schemaRefusal(w http.ResponseWriter, err error) bool {
	if !errors.Is(err, store.ErrSchemaNewer) {
		return false
	}
	s.schema.note(err)
	writeSchemaNewer(w)
	return true
}

func writeSchemaNewer(w http.ResponseWriter) {
	w.Header().Set("Retry-After", strconv.Itoa(schemaRetryAfter))
	writeJSON(w, http.StatusServiceUnavailable, &api.ErrorResponse{Code: api.CodeInternal, Params: map[string]any{
		"reason": ReasonSchemaNewer,
		"detail": "the database was upgraded by a newer dealctl; this instance takes no more writes: retry, and the load balancer will send the call to an upgraded instance",
	}})
}
