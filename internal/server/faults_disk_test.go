package server_test

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/openapitest"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// smallFilesystem mounts a tmpfs of size for t, or skips where the
// machine does not allow it (not root, no mount privilege).
func smallFilesystem(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs to fill (needs root and mount privilege): %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	return dir
}

// fill writes a file until the filesystem is full, and returns it.
func fill(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 64<<10)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return path
		}
	}
}

// TestSQLiteDiskFull: with the disk full, a write answers 503
// database_unavailable and /readyz 503, no acknowledged write is lost, and
// once there is room again a retry with the same key writes once.
func TestSQLiteDiskFull(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the full-disk fault test mounts a filesystem")
	}
	if os.Getenv(storeEnv) != "" {
		t.Skip("the child run of the API suite: this test has its own SQLite")
	}
	ctx := context.Background()
	path := filepath.Join(smallFilesystem(t, "16m"), "dealctl.db")
	clk := &clock{now: t0.Add(time.Hour)}
	st, err := sqlstore.OpenWith(ctx, path, sqlstore.OpenOptions{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	ids, err := applyWorld(ctx, st, "testdata/world.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(ctx, server.Config{Store: st, BaseURL: "http://x.invalid", Now: clk.Now, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	e := &env{dsn: path, st: st, srv: srv, ts: ts, ids: ids, clock: clk, v: openapitest.New(t)}
	falcon, row := e.deal("falcon"), e.row("falcon/2.1")
	ben := e.as(t, "ben-write")
	before := ben.post(messagesPath(falcon, row), map[string]any{"text": "before the disk filled"}).want(http.StatusCreated).message()

	// Empty the write-ahead log, so that the next write must grow a file.
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	filler := fill(t, filepath.Dir(path))

	idem := header("Idempotency-Key: disk-full-1")
	r := ben.post(messagesPath(falcon, row), map[string]any{"text": "while the disk is full"}, idem)
	r.wantErr(http.StatusServiceUnavailable, api.CodeInternal, server.ReasonDatabaseUnavailable)
	if r.header.Get("Retry-After") == "" {
		t.Error("503 without Retry-After")
	}
	e.anon(t).get("/readyz").want(http.StatusServiceUnavailable)

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	e.anon(t).get("/readyz").want(http.StatusOK)
	ben.post(messagesPath(falcon, row), map[string]any{"text": "while the disk is full"}, idem).want(http.StatusCreated)
	texts := map[string]int{}
	for _, m := range ben.get(messagesPath(falcon, row)).want(http.StatusOK).messages() {
		texts[m.Text]++
		if m.ID == before.ID {
			texts["(before)"]++
		}
	}
	if texts["(before)"] != 1 || texts["while the disk is full"] != 1 {
		t.Errorf("messages after the disk filled and emptied: %v; want the acknowledged one kept and the retried one once", texts)
	}
}
