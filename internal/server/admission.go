package server

import (
	"net/http"
	"runtime"
	"strconv"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
)

// readSlots bounds how many API reads run their handlers at once.
//
// Without it every call in flight is runnable at once, and Go's scheduler
// serves runnable goroutines in turn: a post that holds SQLite's single
// write connection, and gives up its core at each fsync or lock, waits
// behind every list poll in flight before it runs again (one core, 128
// calls in flight, 2 % posts: the posts waited 13 ms at the median and
// 0.8 s at the 99th percentile while holding the writer, and the posts
// behind them waited for it). With the reads queued here, at most a few
// are runnable beside a write, so a write finishes in about its own time.
//
// Writes are never queued here: SQLite's queue for their group commit
// (sqlstore's writeGroup), where a waiting writer takes no core, and a
// write that waited behind reads would keep its group waiting longer. A read
// holds its slot until it starts its answer (the first WriteHeader or
// Write): sending the body to a slow reader takes no slot, and the
// request body of a read is empty. Waiting counts against the call's
// deadline (bounded); a read that waits past it fails as any call past its
// deadline does. docs/server.md, "Reads queued beside writes", has the
// figures.
type readSlots chan struct{}

// newReadSlots makes n slots; n ≤ 0 means no bound (nil).
func newReadSlots(n int) readSlots {
	if n <= 0 {
		return nil
	}
	return make(readSlots, n)
}

// defaultReadSlots is the bound for a store: SQLite's reads run on the
// server's cores, so a few per core keep them busy; PostgreSQL's wait on
// the network for the database most of their time, so many more run.
func defaultReadSlots(dialect string) int {
	if dialect == "postgres" {
		return 16 * runtime.GOMAXPROCS(0)
	}
	return 2 * runtime.GOMAXPROCS(0)
}

// admitted runs API reads in their turn, at most cap(s.reads) at once.
func (s *Server) admitted(next http.Handler) http.Handler {
	if s.reads == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !readsOnly(r) || !strings.HasPrefix(r.URL.Path, "/api/") {
			next.ServeHTTP(w, r)
			return
		}
		select {
		case s.reads <- struct{}{}:
		case <-r.Context().Done():
			s.refuseBusy(w, r)
			return
		}
		// The slot came by a direct hand-off: the read that released it
		// woke this one into its core's next place, and so on down the
		// queue, while calls that arrived from the network (a post among
		// them) wait in Go's global run queue, which a busy core serves
		// once in 61 turns. Yielding puts this read behind them, in
		// arrival order: on one core, with 2 % posts among list polls, the
		// posts' 99th percentile fell from 520–560 ms to 19–28 ms with no
		// loss of throughput (docs/server.md, "Scaling with cores").
		runtime.Gosched()
		aw := &admittedWriter{ResponseWriter: w, slots: s.reads}
		defer aw.release()
		next.ServeHTTP(aw, r)
	})
}

// admittedWriter gives its read's slot back when the answer starts.
type admittedWriter struct {
	http.ResponseWriter
	slots    readSlots
	released bool
}

func (w *admittedWriter) release() {
	if !w.released {
		w.released = true
		<-w.slots
	}
}

func (w *admittedWriter) WriteHeader(code int) {
	w.release()
	w.ResponseWriter.WriteHeader(code)
}

func (w *admittedWriter) Write(b []byte) (int, error) {
	w.release()
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *admittedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// refuseBusy answers a read that waited for a slot until its deadline:
// the server is busier than its cores, which a client should treat like a
// database outage, by retrying after a while.
func (s *Server) refuseBusy(w http.ResponseWriter, r *http.Request) {
	s.log.Warn("read waited past its deadline for a turn", "method", r.Method, "path", r.URL.Path, "request_id", requestID(r.Context()))
	w.Header().Set("Retry-After", strconv.Itoa(outageRetryAfter))
	writeJSON(w, http.StatusServiceUnavailable, &api.ErrorResponse{Code: api.CodeInternal, Params: map[string]any{
		"reason": ReasonServerBusy,
		"detail": "the server is too busy to answer in time: retry after Retry-After",
	}})
}
