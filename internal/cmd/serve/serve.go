package serve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cmd/dbopen"
	"github.com/dealctl/dealctl/internal/cmd/settings"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/dbpath"
	"github.com/dealctl/dealctl/internal/gctune"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/signing"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/world"
)

// serveOptions are the flags of `dealctl serve`.
type serveOptions struct {
	addr            string
	db              string
	baseURL         string
	rateLimit       int
	demo            bool
	notifyURL       string
	webhookSecret   string
	logFormat       string
	shutdownTimeout time.Duration
	schemaCheck     time.Duration
	digestAt        string // HH:MM, or off; "" is 07:00
	files           string
	filesProxy      bool
	sqliteSync      string // full (default) or normal
	mailDomain      string // reply addresses' domain; "" turns replies by e-mail off
	mailIn          string // SMTP address replies come to
	mailInSecret    string // the inbound webhook's Bearer secret
	listCacheMiB    int    // bound on the kept lists; 0: the server's default

	origins settings.Origins // which setting gave each flag, for messages
}

// serveSettings are the environment variables that stand in for serve's
// flags. The secrets among them are read here, never as flag defaults,
// so that --help cannot print them.
var serveSettings = []settings.Var{
	{Flag: "addr", Env: "DEALCTL_ADDR"},
	{Flag: "base-url", Env: "DEALCTL_BASE_URL"},
	{Flag: "rate-limit", Env: "DEALCTL_RATE_LIMIT"},
	{Flag: "notify-url", Env: "DEALCTL_NOTIFY_URL", Also: []string{"smtp-url"}},
	{Flag: "webhook-secret", Env: "DEALCTL_WEBHOOK_SECRET"},
	{Flag: "log-format", Env: "DEALCTL_LOG_FORMAT"},
	{Flag: "digest-at", Env: "DEALCTL_DIGEST_AT"},
	{Flag: "files", Env: "DEALCTL_FILES"},
	{Flag: "sqlite-sync", Env: "DEALCTL_SQLITE_SYNC"},
	{Flag: "mail-domain", Env: "DEALCTL_MAIL_DOMAIN"},
	{Flag: "mail-in", Env: "DEALCTL_MAIL_IN"},
	{Flag: "mail-in-secret", Env: "DEALCTL_MAIL_IN_SECRET"},
	{Flag: "list-cache-mib", Env: "DEALCTL_LIST_CACHE_MIB"},
}

func NewCmd() *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the Deal Request List API v1",
		Long: `Serve the Deal Request List Service API v1 on an embedded SQLite file (the
default) or on PostgreSQL (--db postgres://…; several instances may share it).

Every flag also reads an environment variable: DEALCTL_ADDR, DEALCTL_DB,
DEALCTL_BASE_URL, DEALCTL_RATE_LIMIT, DEALCTL_NOTIFY_URL, DEALCTL_WEBHOOK_SECRET,
DEALCTL_LOG_FORMAT, DEALCTL_DIGEST_AT, DEALCTL_FILES, DEALCTL_SQLITE_SYNC,
DEALCTL_MAIL_DOMAIN, DEALCTL_MAIL_IN, DEALCTL_MAIL_IN_SECRET, DEALCTL_LIST_CACHE_MIB. Secrets in them are
never printed, not even as defaults here.

On SQLite every answered write is on disk before the answer goes out
(--sqlite-sync full, the default): it survives a power cut or a filesystem
failure. --sqlite-sync normal makes posts about twice as fast but may lose the
last writes of a second or two on such a crash (docs/server.md, "Durability on
SQLite"). serve refuses to start on a database it cannot write, and /readyz
answers 503 while the database cannot be written.

Each joined person gets a daily digest per deal at --digest-at in the deal's
time zone (their overdue and due-this-week requests, and new answers and
questions on requests assigned to them), sent like notifications; give every
instance on one database the same value (docs/server.md, "Daily digest").

The first line printed names the address it listens on and, apart, the base
URL; before it, a line says so when serve created a new database, and the log
says which migrations it applied. Every --schema-check-interval the instance
compares the database's schema with its own: once a newer release has
migrated the database, it refuses writes (503, reason schema_newer) and
/readyz answers 503, so a load balancer drains it (docs/deploy.md,
"Upgrading").

File bytes live in the database unless --files names an S3-compatible
bucket (s3://BUCKET/PREFIX?endpoint=https://HOST:PORT&region=REGION, with
credentials from the usual AWS environment variables or files). Download
links are then presigned URLs to the store, valid 60 s, which cannot be
revoked once issued; --files-proxy keeps them on /dl/{token}, streamed
through the server (docs/server.md, "Files in object storage").

With --mail-domain, notification e-mails carry a reply address on that domain,
unique to the recipient and the request; a reply to it is held, and its sender
mailed a single-use link to a page that shows exactly what will be posted, with
Post and Discard (a colleague of the same side may confirm it instead: dealctl
inbox). Replies come in over SMTP on --mail-in (point the domain's MX there),
or from a mail provider's inbound webhook, POST /mail/inbound, authenticated by
--mail-in-secret (docs/mail.md).`,
		Example: `  dealctl serve --demo                      # a demo deal on a throwaway database
  dealctl serve --db /var/lib/dealctl/deals.db --addr 0.0.0.0:8080 --base-url https://deals.example.com
  dealctl serve --db postgres://dealctl@db/dealctl --notify-url smtp://mail:25?from=deals@example.com
  dealctl serve --notify-url smtp://mail:25?from=deals@example.com --mail-domain reply.deals.example.com --mail-in 0.0.0.0:2525`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			origins, err := settings.Apply(cmd.Flags(), settings.System, serveSettings)
			if err != nil {
				return err
			}
			o.origins = origins
			return runServe(cmd.Context(), o, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free one)")
	f.StringVar(&o.db, "db", "", "database: a file path, sqlite:PATH or postgres://… (default $DEALCTL_DB, else the embedded database in the user's data directory)")
	f.StringVar(&o.baseURL, "base-url", "", "public URL download links are built on (default http://ADDR)")
	f.IntVar(&o.rateLimit, "rate-limit", 600, "calls a minute per key")
	f.BoolVar(&o.demo, "demo", false, "load the demo deal and print keys for both sides (on a throwaway database unless --db is given)")
	f.StringVar(&o.notifyURL, "notify-url", "", "where notifications go: log (default), smtp://host:port?from=ADDR, or an https:// webhook (default $DEALCTL_NOTIFY_URL)")
	f.StringVar(&o.notifyURL, "smtp-url", "", "same as --notify-url with an smtp:// URL")
	f.StringVar(&o.webhookSecret, "webhook-secret", "", "secret that signs webhook notifications (default $DEALCTL_WEBHOOK_SECRET)")
	f.StringVar(&o.logFormat, "log-format", "text", "access log format: text or json")
	f.DurationVar(&o.shutdownTimeout, "shutdown-timeout", 15*time.Second, "how long to let calls in flight finish on SIGINT/SIGTERM")
	f.StringVar(&o.files, "files", "", "where file bytes live: the database (default) or s3://BUCKET/PREFIX?endpoint=URL&region=REGION")
	f.BoolVar(&o.filesProxy, "files-proxy", false, "with --files: download links go through this server (/dl/{token}) instead of presigned URLs to the store")
	f.DurationVar(&o.schemaCheck, "schema-check-interval", server.DefaultSchemaCheckInterval, "how often to compare the database's schema version with this build's")
	f.IntVar(&o.listCacheMiB, "list-cache-mib", 0, "MiB the lists kept encoded may take (0: 64; up to 1048576); the soft memory limit is made of it (docs/server.md, \"Scaling with cores\")")
	f.StringVar(&o.sqliteSync, "sqlite-sync", sqlstore.SyncFull, "SQLite only: full (every answered write survives a power cut) or normal (faster; may lose the last second's writes)")
	f.StringVar(&o.digestAt, "digest-at", "07:00", "local time (HH:MM, in each deal's time zone) of the daily digest, or off")
	f.StringVar(&o.mailDomain, "mail-domain", "", "domain of the reply addresses notification e-mails carry (replies by e-mail off when empty)")
	f.StringVar(&o.mailIn, "mail-in", "", "address to take replies by e-mail on over SMTP, like 0.0.0.0:25 (needs --mail-domain)")
	f.StringVar(&o.mailInSecret, "mail-in-secret", "", "Bearer secret of the inbound mail webhook, POST /mail/inbound (default $DEALCTL_MAIL_IN_SECRET; off when empty)")
	return cmd
}

// maxListCacheMiB bounds --list-cache-mib: a terabyte, far past any
// host, and still a number of bytes an int holds.
const maxListCacheMiB = 1 << 20

func runServe(ctx context.Context, o *serveOptions, stdout, stderr io.Writer) error {
	gctune.ForLongRuns()
	if o.rateLimit < 1 {
		return cmdutil.UsageErrorf("%s must be at least 1 call a minute", o.origins.Of("rate-limit"))
	}
	if o.sqliteSync != "" && o.sqliteSync != sqlstore.SyncFull && o.sqliteSync != sqlstore.SyncNormal {
		return cmdutil.UsageErrorf("--sqlite-sync must be %s or %s, not %q", sqlstore.SyncFull, sqlstore.SyncNormal, o.sqliteSync)
	}
	if o.schemaCheck <= 0 {
		return cmdutil.UsageErrorf("--schema-check-interval must be positive, like 5s")
	}
	if o.listCacheMiB < 0 || o.listCacheMiB > maxListCacheMiB {
		return cmdutil.UsageErrorf("%s must be 0 (the default, %d) to %d MiB, not %d", o.origins.Of("list-cache-mib"), server.DefaultListCacheBytes>>20, maxListCacheMiB, o.listCacheMiB)
	}
	digestAt, digestsOn, err := digestSchedule(o.origins.Of("digest-at"), o.digestAt)
	if err != nil {
		return err
	}
	if err := checkFilesFlags(o); err != nil {
		return err
	}
	if err := checkMailFlags(o); err != nil {
		return err
	}
	logger, err := newLogger(o.origins.Of("log-format"), o.logFormat, stderr)
	if err != nil {
		return err
	}
	if limit := gctune.ServerLimit(int64(server.ListCacheBudget(o.listCacheMiB << 20))); limit > 0 {
		logger.Info("soft memory limit, from the list cache's budget (GOMEMLIMIT or GOGC overrides it)", "mib", limit>>20)
	}
	// The object store is reached before the database is opened, or
	// created: a mistyped or unreachable --files leaves no database file
	// behind.
	objects, err := openObjectStore(ctx, o)
	if err != nil {
		return err
	}
	choice, cleanup, err := serveDatabase(o)
	if err != nil {
		return err
	}
	defer cleanup()
	where := dbpath.Redact(choice.DSN)
	db, err := sqlstore.OpenWith(ctx, choice.DSN, sqlstore.OpenOptions{SQLiteSync: o.sqliteSync})
	if err != nil {
		return dbopen.Error(choice, err)
	}
	defer db.Close()
	if err := checkWritable(ctx, db, where); err != nil {
		return err
	}
	reportMigrations(stdout, logger, db, where, o.demo)

	ln, err := listen(o.origins.Of("addr"), o.addr)
	if err != nil {
		return err
	}
	listenURL := "http://" + ln.Addr().String()
	baseURL := cmp.Or(o.baseURL, listenURL)
	var demo *world.Result
	if o.demo {
		if demo, err = loadDemo(ctx, db); err != nil {
			ln.Close()
			return err
		}
	}
	// The server's signing secret: download links, reply addresses and
	// the confirmation form sign with keys made of it.
	key, err := signing.Load(ctx, db)
	if err != nil {
		ln.Close()
		return err
	}
	worker, stopNotify, err := startNotifier(ctx, db, o, key, logger)
	if err != nil {
		ln.Close()
		return err
	}
	defer stopNotify()
	if objects == nil {
		if err := checkNoFilesMoved(ctx, db); err != nil {
			ln.Close()
			return err
		}
	}
	cfg := server.Config{Store: db, BaseURL: baseURL, RateLimit: o.rateLimit, Logger: logger, Handoff: worker, FilesProxy: o.filesProxy,
		ListCacheBytes: o.listCacheMiB << 20, ReleaseMemory: debug.FreeOSMemory}
	if objects != nil {
		cfg.Objects = objects
	}
	if db.Dialect() == sqlstore.Postgres {
		// Instances on one PostgreSQL share its buckets; one SQLite file
		// has one instance, whose buckets in memory cost no write.
		cfg.Limiter = db.RateLimiter()
	}
	if digestsOn {
		logger.Info("daily digests", "at", digestAt.String(), "zone", "each deal's time zone")
	} else {
		logger.Info("daily digests off (--digest-at off)")
	}
	srv, err := server.New(ctx, cfg)
	if err != nil {
		ln.Close()
		return err
	}
	go srv.WatchSchema(ctx, o.schemaCheck)
	mail, err := startMail(ctx, o, db, objects, key, baseURL, worker.Poke, logger)
	if err != nil {
		ln.Close()
		return err
	}
	defer mail.close()

	// The URL after "on" is where this instance answers, which scripts
	// read; the base URL, shared by every instance behind one balancer,
	// comes apart.
	fmt.Fprintf(stdout, "dealctl serving the API on %s (listening on %s; base URL %s; database %s)\n",
		listenURL, ln.Addr(), baseURL, where)
	logger.Info("serving", "listen", ln.Addr().String(), "base_url", baseURL, "database", where,
		"schema_version", db.Migrated().To, "files", filesWhere(objects, o.filesProxy))
	if demo != nil {
		printDemo(stdout, demo, baseURL)
	}
	// Digests start once what serve prints is out: a digest due at once
	// (a server started after the hour) logs lines that would otherwise
	// cut into the demo's keys and instructions.
	if digestsOn {
		defer startDigests(ctx, db, digestAt, worker.Poke, logger)()
	}
	return serveUntilDone(ctx, ln, mail.handler(srv), o.shutdownTimeout, logger)
}

// reportMigrations says what opening the database applied: a first line
// when it created a new database, and a log line naming the migrations,
// so that the instance that upgraded a shared database can be told. A
// current database says nothing.
func reportMigrations(stdout io.Writer, logger *slog.Logger, db *sqlstore.DB, where string, demo bool) {
	r := db.Migrated()
	if len(r.Applied) == 0 {
		return
	}
	if r.Created() {
		what := "a new database"
		if demo {
			what = "a new demo database"
		}
		fmt.Fprintf(stdout, "dealctl created %s at %s (%s, schema version %d)\n", what, where, db.Dialect(), r.To)
	}
	logger.Info("applied database migrations", "database", where, "from_version", r.From, "to_version", r.To,
		"migrations", strings.Join(r.Applied, ","), "took", r.Took.Round(time.Millisecond).String())
}

// listen opens the listening socket, telling a malformed --addr (a usage
// mistake, named as name says) from one that is taken.
func listen(name, addr string) (net.Listener, error) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, cmdutil.UsageErrorf("%s %q: give HOST:PORT, e.g. 127.0.0.1:8080 (port 0 picks a free one)", name, addr)
	}
	ln, err := net.Listen("tcp", addr)
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return nil, fmt.Errorf("cannot listen on %s: the address is in use (is another server running there?): pick another --addr", addr)
	case err != nil:
		return nil, fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	return ln, nil
}

// serveUntilDone serves until ctx ends (SIGINT/SIGTERM), then lets calls
// in flight finish within timeout.
func serveUntilDone(ctx context.Context, ln net.Listener, h http.Handler, timeout time.Duration, logger *slog.Logger) error {
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      5 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down", "timeout", timeout)
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func newLogger(name, format string, w io.Writer) (*slog.Logger, error) {
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, cmdutil.UsageErrorf("%s must be text or json, not %q", name, format)
}

// serveDatabase picks the database: --demo without --db (or DEALCTL_DB)
// gets a throwaway file, removed on exit, so the demo always starts clean.
func serveDatabase(o *serveOptions) (dbpath.Choice, func(), error) {
	if o.demo && o.db == "" && os.Getenv(dbpath.EnvVar) == "" {
		dir, err := os.MkdirTemp("", "dealctl-demo-")
		if err != nil {
			return dbpath.Choice{}, nil, err
		}
		return dbpath.Choice{DSN: filepath.Join(dir, "demo.db"), Source: dbpath.FromDefault}, func() { os.RemoveAll(dir) }, nil
	}
	choice, err := dbpath.Choose(o.db)
	return choice, func() {}, err
}

// loadDemo loads the demo world into an empty database.
func loadDemo(ctx context.Context, db *sqlstore.DB) (*world.Result, error) {
	var deals int
	if err := db.Apply(ctx, func(tx store.AdminTx) error {
		n, err := tx.CountDeals()
		deals = n
		return err
	}); err != nil {
		return nil, err
	}
	if deals > 0 {
		return nil, cmdutil.UsageErrorf("--demo loads the demo deal into an empty database, and this one has %d deal(s): drop --demo, or give another --db", deals)
	}
	return world.ApplyDemo(ctx, db, time.Now())
}

// demoDeal is the codename of the demo world's deal, or "".
func demoDeal() string {
	w, err := world.Parse(world.Demo())
	if err != nil || len(w.Deals) == 0 {
		return ""
	}
	if d := w.Deals[0]; d.Codename != "" {
		return d.Codename
	}
	return w.Deals[0].Name
}

// printDemo shows the ready keys of the demo and the lines that point the
// client at this server.
func printDemo(w io.Writer, r *world.Result, baseURL string) {
	names := make([]string, 0, len(r.Keys))
	for name := range r.Keys {
		names = append(names, name)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "\nDemo deal loaded. Keys (shown once):")
	for _, name := range names {
		k := r.Keys[name]
		fmt.Fprintf(w, "  %-18s %-26s %-5s %s\n", name, k.Email, k.Access, k.Secret)
	}
	fmt.Fprintln(w, "\nIn another terminal, act as the owning (sell) side:")
	fmt.Fprintf(w, "  export DEALCTL_SERVER=%s\n", baseURL)
	if k, ok := r.Keys["demo-sell-admin"]; ok {
		fmt.Fprintf(w, "  export DEALCTL_API_KEY=%s\n", k.Secret)
	}
	// Without a deal chosen, the line below would fail with "no deal
	// chosen".
	if deal := demoDeal(); deal != "" {
		fmt.Fprintf(w, "  export DEALCTL_DEAL=%s\n", cmdutil.ShellQuote(deal))
	}
	fmt.Fprintln(w, "  dealctl requests ls")
	if k, ok := r.Keys["demo-buy-editor"]; ok {
		fmt.Fprintf(w, "\nor as the counterparty (buy side):\n  export DEALCTL_API_KEY=%s\n", k.Secret)
	}
	fmt.Fprintln(w)
}
