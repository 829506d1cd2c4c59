package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

type ctxKey int

const (
	requestIDKey ctxKey = iota
	keyPrefixKey
)

func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// statusRecorder remembers the status for the access log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	prefix string // the key prefix, once authenticated
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the real writer (flushing
// downloads).
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// logged gives each call a request id, recovers panics as 500s and writes
// one access-log line. Only the key's prefix is logged, never the secret.
func (s *Server) logged(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if !safeRequestID(id) {
			var b [8]byte
			_, _ = rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		w.Header().Set("X-Request-Id", id)
		rec := &statusRecorder{ResponseWriter: w}
		ctx := context.WithValue(r.Context(), requestIDKey, id)
		ctx = context.WithValue(ctx, keyPrefixKey, &rec.prefix)
		r = r.WithContext(ctx)
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("panic", "request_id", id, "panic", p)
				if rec.status == 0 {
					s.writeError(rec, r, api.NewError(api.CodeInternal, ""))
				}
			}
			s.log.Info("request", "request_id", id, "method", r.Method, "path", loggedPath(r.URL.Path),
				"status", rec.status, "bytes", rec.bytes, "duration_ms", float64(time.Since(start).Microseconds())/1000,
				"key_prefix", rec.prefix)
		}()
		next.ServeHTTP(rec, r)
	})
}

// safeRequestID reports whether a caller's X-Request-Id is kept: 1 to 64
// letters, digits and "-_.:" (UUIDs, ULIDs, hex and most tracing ids).
// Anything else is replaced, so that what the log and the echoed header
// carry is never the caller's raw bytes (control characters, escape
// sequences, another log line).
func safeRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == ':':
		default:
			return false
		}
	}
	return true
}

// noteKeyPrefix tells the access log which key made the call.
func noteKeyPrefix(ctx context.Context, prefix string) {
	if p, ok := ctx.Value(keyPrefixKey).(*string); ok {
		*p = prefix
	}
}

// loggedPath is the path as logged: a download token is a credential for
// its lifetime, so it is cut to its first characters.
func loggedPath(path string) string {
	if token, ok := strings.CutPrefix(path, "/dl/"); ok && len(token) > 8 {
		return "/dl/" + token[:8] + "…"
	}
	return path
}
