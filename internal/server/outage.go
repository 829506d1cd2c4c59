package server

import (
	"net/http"
	"strconv"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// ReasonDatabaseUnavailable is params.reason of a 503 answered while the
// database is away: restarting, frozen past the call's deadline,
// unreachable, or unable to write (disk full, read-only).
const ReasonDatabaseUnavailable = "database_unavailable"

// outageRetryAfter is the Retry-After of a database_unavailable answer, in
// seconds: a PostgreSQL restart takes one to three.
const outageRetryAfter = 2

// outageRefusal answers a call that failed because the database is away
// with 503 database_unavailable and Retry-After, which clients and load
// balancers can tell from a bug (500), instead of 500 internal.
func (s *Server) outageRefusal(w http.ResponseWriter, r *http.Request, err error) bool {
	if !store.IsUnavailable(err) {
		return false
	}
	s.log.Warn("database unavailable", "method", r.Method, "path", r.URL.Path, "err", err, "request_id", requestID(r.Context()))
	w.Header().Set("Retry-After", strconv.Itoa(outageRetryAfter))
	writeJSON(w, http.StatusServiceUnavailable, &api.ErrorResponse{Code: api.CodeInternal, Params: map[string]any{
		"reason": ReasonDatabaseUnavailable,
		"detail": "the database is not answering: retry after Retry-After (a POST retried with the same Idempotency-Key never writes twice)",
	}})
	return true
}
