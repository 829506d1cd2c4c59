package serve

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cli"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/iostreams"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// TestDemoBannerCommandsWork: the lines `serve --demo` prints, pasted
// into a shell, make its suggested `dealctl requests ls` work (it needs a
// deal chosen as well as a server and a key).
func TestDemoBannerCommandsWork(t *testing.T) {
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, filepath.Join(t.TempDir(), "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	demo, err := loadDemo(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(ctx, server.Config{Store: db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)

	var banner bytes.Buffer
	printDemo(&banner, demo, hs.URL)
	env := map[string]string{"DEALCTL_SERVER": "", "DEALCTL_API_KEY": "", "DEALCTL_DEAL": ""}
	var command string
	for _, line := range strings.Split(banner.String(), "\n") {
		line = strings.TrimSpace(line)
		if command != "" {
			break // what follows is the counterparty's key
		}
		if kv, ok := strings.CutPrefix(line, "export "); ok {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v
		}
		if strings.HasPrefix(line, "dealctl ") {
			command = line
		}
	}
	if env["DEALCTL_DEAL"] != "Orion" || command != "dealctl requests ls" {
		t.Fatalf("banner lacks export DEALCTL_DEAL=Orion before dealctl requests ls:\n%s", banner.String())
	}
	out, errOut, code := runClient(t, env, strings.Fields(command)[1:]...)
	if code != cmdutil.ExitOK || out == "" {
		t.Errorf("%s: exit %d, printed %q; want exit 0 and the requests\n%s", command, code, out, errOut)
	}
}

// runClient runs a client command in-process as a user with a home of
// their own and env set, and returns its stdout, stderr and exit code.
func runClient(t *testing.T, env map[string]string, args ...string) (string, string, int) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv("DEALCTL_KEYRING", "file")
	for k, v := range env {
		t.Setenv(k, v)
	}
	ios, _, out, errOut := iostreams.Test()
	code := cli.Run(context.Background(), cli.NewFactory(ios), args)
	return out.String(), errOut.String(), code
}
