// Package server serves the Deal Request List Service API v1 over HTTP:
// handlers stay thin, permissions come from internal/domain, storage from
// internal/store.
package server

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/server/openapi"
	"github.com/dealctl/dealctl/internal/service"
	"github.com/dealctl/dealctl/internal/store"
)

// Config is what a server is built from.
type Config struct {
	Store store.Store
	// BaseURL is what download links are built on, without a trailing
	// slash, e.g. "https://deals.example.com".
	BaseURL string
	// RateLimit is calls a minute per key (0: the API's 600).
	RateLimit int
	// Limiter counts calls; nil uses an in-process token bucket, right for
	// one instance. Several instances share one through the database.
	Limiter store.RateLimiter
	Logger  *slog.Logger
	// Now is the clock; nil means time.Now. Tests move it. The caches the
	// server owns expire on it; a store is given its clock when opened
	// (sqlstore.OpenOptions.Now), so give it the same one.
	Now func() time.Time
	// LinkTTL is how long a download link lives (0: 60 s).
	LinkTTL time.Duration
	// ListCacheBytes bounds what the lists are kept as: their rows,
	// encoded (0: DefaultListCacheBytes; negative: no cache, for
	// benchmarks and tests of the uncached path). Bodies are written
	// from the rows, never kept joined (listBody).
	ListCacheBytes int
	// AccessCacheTTL is how long reads trust what this instance read of
	// keys, users, seats and parties (0: DefaultAccessCacheTTL; negative:
	// no cache; at most 5 s).
	AccessCacheTTL time.Duration
	// DBTimeout bounds the database work of one API call (0:
	// DefaultDBTimeout): a frozen or unreachable database answers 503
	// database_unavailable by then instead of holding the call.
	DBTimeout time.Duration
	// Posted, when set, is called after a message queued notifications,
	// to wake the notification worker.
	Posted func()
	// Handoff, when set, takes a posted message's notifications claimed
	// as they are written, in place of Posted (service.WithHandoff).
	Handoff service.Handoff
	// Objects is the object store file bytes may be in (serve --files);
	// nil: they are all in the database.
	Objects ObjectStore
	// FilesProxy keeps download links of object-stored files on
	// /dl/{token}, streamed through this server, instead of presigned
	// URLs to the store (docs/server.md, "Files in object storage").
	FilesProxy bool
	// ReadSlots bounds the API reads whose handlers run at once (0: by
	// the store, defaultReadSlots; negative: no bound). See readSlots.
	ReadSlots int
	// ReleaseMemory, when set, is called once the list cache has dropped
	// enough idle lists that the memory is worth giving back to the
	// system (listCache.sweepIdle). serve sets debug.FreeOSMemory; a
	// process that holds other servers (tests, benchmarks) leaves it
	// unset rather than have each force collections.
	ReleaseMemory func()
}

// ObjectStore is an S3-compatible store of file bytes (internal/blob).
type ObjectStore interface {
	blob.Store
	blob.Presigner
	// OpenAt goes on with a download whose bytes a migration moved here
	// mid-stream (blob.FollowMove).
	blob.RangeOpener
	// Check says whether the store answers, for /readyz.
	Check(ctx context.Context) error
}

// Server is the API's HTTP handler.
type Server struct {
	store     store.Store
	baseURL   string
	rateLimit int
	limiter   store.RateLimiter
	log       *slog.Logger
	now       func() time.Time
	linkTTL   time.Duration
	svc       *service.Service // the writes' orchestration
	signer    *linkSigner
	fetches   *fetchLog   // links fetched, for one file.fetched event each
	bodies    *bodyGate   // request bodies being read
	storeOK   storeCheck  // the object store's last answer to /readyz
	failures  *failedKeys // keys that did not authenticate, by address
	eventIDs  *eventIDs
	lists     *listCache[*rowSet] // row sets, by deal and party
	// listBuilds shares one build of a list among the calls that want it
	// at once.
	listBuilds coalescer[*rowSet]
	access     accessCaches
	mux        *http.ServeMux
	handler    http.Handler // mux behind the log and the schema gate, built once in New
	patterns   []string     // every "METHOD /path" routed, for Routes
	schema     *schemaWatch
	objects    ObjectStore
	presign    bool // links to object-stored files are presigned URLs
	dbTimeout  time.Duration
	reads      readSlots // API reads running at once; nil: no bound
}

// New builds a server; it reads (or creates) the link-signing secret.
func New(ctx context.Context, cfg Config) (*Server, error) {
	s := &Server{
		store:     cfg.Store,
		baseURL:   strings.TrimSuffix(cfg.BaseURL, "/"),
		rateLimit: cfg.RateLimit,
		limiter:   cfg.Limiter,
		log:       cfg.Logger,
		now:       cfg.Now,
		linkTTL:   cfg.LinkTTL,
		svc:       service.New(cfg.Store, cfg.Posted).WithHandoff(cfg.Handoff),
		objects:   cfg.Objects,
		presign:   cfg.Objects != nil && !cfg.FilesProxy,
		fetches:   newFetchLog(),
		bodies:    newBodyGate(maxBodiesPerKey, maxBodies),
		failures:  newFailedKeys(maxFailureAddresses),
		dbTimeout: cmp.Or(cfg.DBTimeout, DefaultDBTimeout),
	}
	if s.rateLimit <= 0 {
		s.rateLimit = api.DefaultRateLimit
	}
	if s.limiter == nil {
		s.limiter = newMemoryLimiter()
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.schema = &schemaWatch{log: s.log}
	if s.now == nil {
		s.now = time.Now
	}
	// The caches this server owns expire on its clock, so that tests move
	// it instead of sleeping out a cache's lifetime.
	s.access = newAccessCaches(accessCacheTTL(cfg.AccessCacheTTL), s.now)
	s.lists = newListCache[*rowSet](ListCacheBudget(cfg.ListCacheBytes), listCacheIdle, s.now)
	s.lists.released = cfg.ReleaseMemory
	if s.linkTTL <= 0 {
		s.linkTTL = 60 * time.Second
	}
	signer, err := loadLinkSigner(ctx, cfg.Store)
	if err != nil {
		return nil, err
	}
	s.signer = signer
	if s.eventIDs, err = loadEventIDs(ctx, cfg.Store); err != nil {
		return nil, err
	}
	s.mux = s.routes()
	slots := cfg.ReadSlots
	if slots == 0 {
		slots = defaultReadSlots(cfg.Store.Dialect())
	}
	s.reads = newReadSlots(slots)
	s.handler = s.logged(s.schemaGate(s.bounded(s.admitted(s.mux))))
	return s, nil
}

// DefaultListCacheBytes is the list cache's budget unless one is given:
// the rows of about 45,000 requests, the 64-deal world of the scale
// program with room to spare (docs/server.md, "Scaling with cores").
const DefaultListCacheBytes = 64 << 20

// ListCacheBudget is the bytes the list cache may hold for
// Config.ListCacheBytes n: DefaultListCacheBytes for 0, none for a
// negative n.
func ListCacheBudget(n int) int {
	switch {
	case n == 0:
		return DefaultListCacheBytes
	case n < 0:
		return 0
	}
	return n
}

// ServeHTTP logs, recovers and routes every call.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Routes lists "METHOD /pattern" of every route, so that a test can hold
// them to the OpenAPI document.
func (s *Server) Routes() []string { return append([]string(nil), s.patterns...) }

func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	handle := func(pattern string, h http.Handler) {
		mux.Handle(pattern, h)
		s.patterns = append(s.patterns, pattern)
	}
	const v1 = "/api/v1"
	handle("GET "+v1+"/me", s.authed(s.getMe))
	handle("GET "+v1+"/deals", s.authed(s.listDeals))
	handle("GET "+v1+"/deals/{deal_id}", s.authed(s.getDeal))
	handle("GET "+v1+"/deals/{deal_id}/people", s.authed(s.listPeople))
	handle("GET "+v1+"/deals/{deal_id}/requests", s.authed(s.listRequests))
	handle("GET "+v1+"/deals/{deal_id}/requests-delta", s.authed(s.listRequestsDelta))
	handle("POST "+v1+"/deals/{deal_id}/requests", s.authed(s.idempotent(s.createRequestCall())))
	handle("GET "+v1+"/deals/{deal_id}/requests/{request_id}", s.authed(s.getRequest))
	handle("PATCH "+v1+"/deals/{deal_id}/requests/{request_id}", s.authed(s.updateRequest))
	handle("DELETE "+v1+"/deals/{deal_id}/requests/{request_id}", s.authed(s.deleteRequest))
	handle("GET "+v1+"/deals/{deal_id}/requests/{request_id}/messages", s.authed(s.listMessages))
	handle("POST "+v1+"/deals/{deal_id}/requests/{request_id}/messages", s.authed(s.idempotent(s.postMessageCall())))
	handle("GET "+v1+"/deals/{deal_id}/events", s.authed(s.listEvents))
	handle("GET "+v1+"/deals/{deal_id}/search", s.authed(s.searchDeal))
	handle("GET "+v1+"/deals/{deal_id}/held-replies", s.authed(s.listHeldReplies))
	handle("GET "+v1+"/deals/{deal_id}/held-replies/{held_id}", s.authed(s.getHeldReply))
	handle("POST "+v1+"/deals/{deal_id}/held-replies/{held_id}/post", s.authed(s.postHeldReply))
	handle("POST "+v1+"/deals/{deal_id}/held-replies/{held_id}/discard", s.authed(s.discardHeldReply))
	handle("POST "+v1+"/deals/{deal_id}/files/{version_id}/download-link", s.authed(s.downloadLink))
	handle("GET /dl/{token}", http.HandlerFunc(s.download))
	handle("GET /healthz", http.HandlerFunc(s.healthz))
	handle("GET /readyz", http.HandlerFunc(s.readyz))
	handle("GET /openapi.yaml", static("application/yaml", openapi.YAML))
	handle("GET /openapi.json", static("application/json", openapi.JSON))
	handle("GET /llms.txt", static("text/plain; charset=utf-8", openapi.LLMS))

	// Known paths with another method answer 405; anything else 404,
	// both as ErrorResponse JSON. Method-less patterns are less specific
	// than the ones above, so they only catch what those did not.
	seen := map[string]bool{}
	for _, p := range s.patterns {
		_, path, _ := strings.Cut(p, " ")
		if !seen[path] {
			seen[path] = true
			mux.Handle(path, s.methodNotAllowed(path))
		}
	}
	mux.Handle("/api/v1/", s.authed(func(w http.ResponseWriter, r *http.Request, c *call) error {
		return api.NewError(api.CodeNotFound, "")
	}))
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, api.NewError(api.CodeNotFound, ""))
	}))
	return mux
}

func (s *Server) methodNotAllowed(path string) http.Handler {
	allowed := []string{}
	for _, p := range s.patterns {
		if m, rest, _ := strings.Cut(p, " "); rest == path {
			allowed = append(allowed, m)
		}
	}
	allow := strings.Join(allowed, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// An identified key's call counts like any other and carries the
		// X-RateLimit-* headers (docs/decisions.md); without one it is still 405.
		if strings.HasPrefix(path, "/api/") {
			w.Header().Set(api.ExtensionsHeader, api.ServerExtensions)
			if c, err := s.authenticate(r); err == nil {
				noteKeyPrefix(r.Context(), c.key.Prefix)
				if !s.allow(w, r, c.key.ID) {
					return
				}
			}
		}
		w.Header().Set("Allow", allow)
		s.writeError(w, r, api.NewError(api.CodeMethodNotAllowed, ""))
	})
}

func static(contentType string, body func() []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "public, max-age=300")
		_, _ = w.Write(body())
	})
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	err := s.store.Ping(ctx)
	if err == nil {
		err = s.store.CheckWritable(ctx) // a read-only or full database fails calls too
	}
	if err != nil {
		s.log.Warn("database unreachable", "err", err)
		writeJSON(w, http.StatusServiceUnavailable, api.NewError(api.CodeInternal, "database_unreachable"))
		return
	}
	if s.schema.state() != nil {
		writeSchemaNewer(w)
		return
	}
	if s.objects != nil {
		if err := s.storeOK.check(ctx, s.objects, s.now); err != nil {
			s.log.Warn("object store unreachable", "err", err)
			writeJSON(w, http.StatusServiceUnavailable, api.NewError(api.CodeInternal, ReasonFilesUnreachable))
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}
