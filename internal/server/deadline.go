package server

import (
	"context"
	"net/http"
	"strings"
	"time"
)

// DefaultDBTimeout bounds the database work of one API call. It sits above
// PostgreSQL's statement_timeout (5 s, set by the store), so a slow
// statement is cancelled by the server first and the call still answers;
// a frozen or unreachable database answers 503 database_unavailable after
// it (docs/server.md "Database outages").
const DefaultDBTimeout = 8 * time.Second

// bounded gives every /api/v1 call a deadline of s.dbTimeout, which every
// database call it makes inherits. API calls read at most 1 MiB and answer
// from memory, so the deadline never cuts a transfer; /dl streams files
// and is left alone.
//
// A write is not cancelled when its client goes away, only by the
// deadline: a write that has begun is finished, whoever still waits for
// it. (On SQLite it may share its transaction with other callers'
// writes, write_group.go, whose statements are not interrupted at all
// once their turn has come; a write that is still queued at its deadline
// is skipped.) A client that left cannot tell whether its write was made
// either way, and retries it with its Idempotency-Key.
func (s *Server) bounded(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/") {
			next.ServeHTTP(w, r)
			return
		}
		parent := r.Context()
		if !readsOnly(r) {
			parent = context.WithoutCancel(parent)
		}
		ctx, cancel := context.WithTimeout(parent, s.dbTimeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// detached is ctx without its cancellation, for database work that must
// finish after the caller left (saving an idempotent answer, a list that
// other callers wait for), still bounded by s.dbTimeout.
func (s *Server) detached(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), s.dbTimeout)
}
