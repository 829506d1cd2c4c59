package server

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/store"
)

// ReasonDatabaseUnavailable is params.reason of a 503 answered while the
// database is away: restarting, frozen past the call's deadline,
// unreachable, or unable to write (disk full, read-only).
const ReasonDatabaseUnavailable = "database_unavailable"

// ReasonFilesUnreachable is params.reason of a 503 answered because the
// object store holding file bytes (serve --files) is not answering; also
// /readyz's.
const ReasonFilesUnreachable = "files_unreachable"

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
	// A network failure of the object store looks like the database's to
	// store.IsUnavailable; the blob layer marks its own.
	reason, what := ReasonDatabaseUnavailable, "the database"
	if errors.Is(err, blob.ErrObjectStore) {
		reason, what = ReasonFilesUnreachable, "the object store holding the files"
	}
	s.log.Warn(what+" unavailable", "method", r.Method, "path", r.URL.Path, "err", err, "request_id", requestID(r.Context()))
	w.Header().Set("Retry-After", strconv.Itoa(outageRetryAfter))
	writeJSON(w, http.StatusServiceUnavailable, &api.ErrorResponse{Code: api.CodeInternal, Params: map[string]any{
		"reason": reason,
		"detail": what + " is not answering: retry after Retry-After (a POST retried with the same Idempotency-Key never writes twice)",
	}})
	return true
}
