package server_test

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/openapitest"
	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/syncbuf"
	"github.com/dealctl/dealctl/internal/world"
)

// schemaEnv serves testdata/world.yaml on the database dsn names, logging
// into the returned buffer.
func schemaEnv(t *testing.T, dsn string) (*env, *syncbuf.Buffer) {
	t.Helper()
	ctx := context.Background()
	clk := &clock{now: t0.Add(time.Hour)}
	st, err := sqlstore.OpenWith(ctx, dsn, sqlstore.OpenOptions{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	ids, err := world.ApplyFile(ctx, st, "testdata/world.yaml", t0)
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncbuf.Buffer{}
	ts := httptest.NewUnstartedServer(nil)
	srv, err := server.New(ctx, server.Config{Store: st, BaseURL: "http://" + ts.Listener.Addr().String(), Now: clk.Now,
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		ts.Close()
		t.Fatal(err)
	}
	ts.Config.Handler = srv
	ts.Start()
	t.Cleanup(ts.Close)
	return &env{st: st, srv: srv, ts: ts, ids: ids, clock: clk, v: openapitest.New(t)}, logs
}

// migrateFuture records a migration this build does not know, as a newer
// dealctl's `admin migrate` would, through a connection of its own.
func migrateFuture(t *testing.T, e *env, dsn string) {
	t.Helper()
	driver := "sqlite"
	if e.st.Dialect() == sqlstore.Postgres {
		driver = "pgx"
	}
	other, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	v := e.st.KnownSchemaVersion() + 1
	query := "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)"
	if driver == "pgx" {
		query = "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, 0)"
	}
	if _, err := other.Exec(query, v, fmt.Sprintf("%04d_from_the_future.sql", v)); err != nil {
		t.Fatal(err)
	}
}

// bothStores runs fn on a fresh SQLite file and on a fresh PostgreSQL
// database (skipped without PostgreSQL, failed under DEALCTL_REQUIRE_PG).
func bothStores(t *testing.T, fn func(t *testing.T, dsn string)) {
	if os.Getenv(storeEnv) != "" {
		t.Skip("runs on both stores in the parent run")
	}
	t.Run("sqlite", func(t *testing.T) { fn(t, filepath.Join(t.TempDir(), "dealctl.db")) })
	t.Run("postgres", func(t *testing.T) { fn(t, pgtest.URL(t)) })
}

// TestSchemaWatchDrainsAnInstanceLeftBehind: an instance running while a
// newer release migrates the database stops taking writes (503,
// Retry-After, reason schema_newer), reports not ready and says why in
// its log within 10 s (the bound the upgrade docs promise), and keeps
// answering reads.
func TestSchemaWatchDrainsAnInstanceLeftBehind(t *testing.T) {
	t.Parallel()
	bothStores(t, func(t *testing.T, dsn string) {
		e, logs := schemaEnv(t, dsn)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go e.srv.WatchSchema(ctx, 50*time.Millisecond)

		falcon, row := e.deal("falcon"), e.row("falcon/1.1")
		ben, anon := e.as(t, "ben-write"), e.anon(t)
		ben.post(messagesPath(falcon, row), map[string]any{"text": "before the upgrade"}).want(http.StatusCreated)
		anon.get("/readyz").want(http.StatusOK)

		migrateFuture(t, e, dsn)
		deadline := time.Now().Add(10 * time.Second)
		for anon.get("/readyz").status == http.StatusOK {
			if time.Now().After(deadline) {
				t.Fatal("/readyz still answers 200 10 s after the database moved past this instance")
			}
			time.Sleep(20 * time.Millisecond)
		}
		anon.get("/readyz").wantErr(http.StatusServiceUnavailable, api.CodeInternal, server.ReasonSchemaNewer)
		before := len(ben.get(messagesPath(falcon, row)).want(http.StatusOK).messages())

		r := ben.post(messagesPath(falcon, row), map[string]any{"text": "after the upgrade"})
		r.wantErr(http.StatusServiceUnavailable, api.CodeInternal, server.ReasonSchemaNewer)
		if r.header.Get("Retry-After") == "" {
			t.Errorf("%s: no Retry-After", r)
		}
		ben.patch(requestPath(falcon, row), map[string]any{"title": "Renamed"}).
			wantErr(http.StatusServiceUnavailable, api.CodeInternal, server.ReasonSchemaNewer)
		ben.post(requestsPath(falcon), map[string]any{"title": "New"}).
			wantErr(http.StatusServiceUnavailable, api.CodeInternal, server.ReasonSchemaNewer)

		if after := len(ben.get(messagesPath(falcon, row)).want(http.StatusOK).messages()); after != before {
			t.Errorf("%d messages after the refused post, %d before: something was written", after, before)
		}
		if got := ben.get(requestPath(falcon, row)).want(http.StatusOK).request().Title; got == "Renamed" {
			t.Error("the refused PATCH renamed the request")
		}
		if l := logs.String(); !strings.Contains(l, "schema is newer") || !strings.Contains(l, "upgrade this one") {
			t.Errorf("the log does not say why writes are refused:\n%s", l)
		}
	})
}

// TestSchemaCheckedInsideEveryWrite: without any watch running, the first
// write after the migration is refused by the store's own check inside
// the write transaction, writes nothing, and turns the instance not
// ready at once.
func TestSchemaCheckedInsideEveryWrite(t *testing.T) {
	t.Parallel()
	bothStores(t, func(t *testing.T, dsn string) {
		e, _ := schemaEnv(t, dsn)
		falcon, row := e.deal("falcon"), e.row("falcon/1.1")
		ben, anon := e.as(t, "ben-write"), e.anon(t)
		before := len(ben.get(messagesPath(falcon, row)).want(http.StatusOK).messages())

		migrateFuture(t, e, dsn)
		r := ben.post(messagesPath(falcon, row), map[string]any{"text": "after the upgrade"}, "Idempotency-Key: k1")
		r.wantErr(http.StatusServiceUnavailable, api.CodeInternal, server.ReasonSchemaNewer)
		if after := len(ben.get(messagesPath(falcon, row)).want(http.StatusOK).messages()); after != before {
			t.Errorf("%d messages after the refused post, %d before: something was written", after, before)
		}
		anon.get("/readyz").wantErr(http.StatusServiceUnavailable, api.CodeInternal, server.ReasonSchemaNewer)
	})
}
