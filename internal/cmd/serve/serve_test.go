package serve

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/syncbuf"
)

func TestListenSaysWhatIsWrongWithAddr(t *testing.T) {
	_, err := listen("--addr", "nonsense")
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "HOST:PORT") {
		t.Fatalf("a malformed --addr: %v, want a usage error naming HOST:PORT", err)
	}
	ln, err := listen("--addr", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, err = listen("--addr", ln.Addr().String())
	if err == nil || !strings.Contains(err.Error(), "in use") || cmdutil.ExitCode(err) != cmdutil.ExitFailure {
		t.Fatalf("a taken address: %v, want a failure saying it is in use", err)
	}
}

// startServe runs `dealctl serve` in process until the test ends and
// returns the lines it printed up to the start-up line, and its log.
func startServe(t *testing.T, o *serveOptions) ([]string, *syncbuf.Buffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	logs := &syncbuf.Buffer{}
	done := make(chan error, 1)
	go func() {
		err := runServe(ctx, o, pw, logs)
		pw.CloseWithError(err)
		done <- err
	}()
	t.Cleanup(func() {
		cancel()
		go func() { _, _ = io.Copy(io.Discard, pr) }()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	var lines []string
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.HasPrefix(sc.Text(), "dealctl serving the API on ") {
			go func() { _, _ = io.Copy(io.Discard, pr) }()
			return lines, logs
		}
	}
	t.Fatalf("serve printed no start-up line: %q, %v\n%s", lines, sc.Err(), logs.String())
	return nil, nil
}

func TestServeSaysWhatItCreatedAndWhereItListens(t *testing.T) {
	t.Setenv("DEALCTL_NOTIFY_URL", "")
	db := filepath.Join(t.TempDir(), "deals.db")
	opts := func() *serveOptions {
		return &serveOptions{db: db, addr: "127.0.0.1:0", baseURL: "https://deals.example.com", rateLimit: 600,
			logFormat: "text", shutdownTimeout: time.Second, schemaCheck: time.Second}
	}
	lines, logs := startServe(t, opts())
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "dealctl created a new database at "+db+" (sqlite, schema version ") {
		t.Errorf("a first start printed %q; want the new database's line first", lines)
	}
	start := lines[len(lines)-1]
	listen := strings.Fields(strings.TrimPrefix(start, "dealctl serving the API on http://"))[0]
	if _, port, err := net.SplitHostPort(listen); err != nil || port == "0" {
		t.Fatalf("start-up line %q does not name the real listen address", start)
	}
	for _, want := range []string{"(listening on " + listen + ";", "base URL https://deals.example.com;", "database " + db + ")"} {
		if !strings.Contains(start, want) {
			t.Errorf("start-up line %q lacks %q", start, want)
		}
	}
	if l := logs.String(); !strings.Contains(l, "applied database migrations") || !strings.Contains(l, "0001_init.sql") ||
		!strings.Contains(l, "from_version=0") {
		t.Errorf("the log does not say which migrations this instance applied:\n%s", l)
	}

	// A second instance on the now current database: no creation line,
	// no migration line.
	lines, logs = startServe(t, opts())
	if len(lines) != 1 {
		t.Errorf("a start on a current database printed %q; want the start-up line only", lines)
	}
	if strings.Contains(logs.String(), "migrations") {
		t.Errorf("a start on a current database logged migrations:\n%s", logs.String())
	}
}

func TestServeHelpShowsNoSecretFromTheEnvironment(t *testing.T) {
	t.Setenv("DEALCTL_NOTIFY_URL", "smtp://mailer:s3cret@mail.example:25?from=d@example.com")
	t.Setenv("DEALCTL_WEBHOOK_SECRET", "s3cret")
	t.Setenv("DEALCTL_DB", "postgres://u:s3cret@db/dealctl")
	var out bytes.Buffer
	cmd := NewCmd()
	cmd.SetOut(&out)
	cmd.SetArgs([]string{"--help"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "s3cret") || !strings.Contains(out.String(), "--webhook-secret") {
		t.Errorf("serve --help shows a secret from the environment:\n%s", out.String())
	}
}

// TestServeWatchesTheSchema: `dealctl serve` runs the schema watch at
// --schema-check-interval, so an instance left behind turns not ready.
func TestServeWatchesTheSchema(t *testing.T) {
	t.Setenv("DEALCTL_NOTIFY_URL", "")
	db := filepath.Join(t.TempDir(), "deals.db")
	lines, logs := startServe(t, &serveOptions{db: db, addr: "127.0.0.1:0", rateLimit: 600, logFormat: "text",
		shutdownTimeout: time.Second, schemaCheck: 50 * time.Millisecond})
	base := strings.Fields(strings.TrimPrefix(lines[len(lines)-1], "dealctl serving the API on "))[0]
	readyz := func() int {
		resp, err := http.Get(base + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := readyz(); code != http.StatusOK {
		t.Fatalf("/readyz = %d before any upgrade", code)
	}
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec("INSERT INTO schema_migrations VALUES (9999, '9999_future.sql', 0)"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for readyz() != http.StatusServiceUnavailable {
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still 200 10 s after the database moved on; log:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(logs.String(), "refusing writes") {
		t.Errorf("the log does not say why:\n%s", logs.String())
	}
}

// TestServeDatabaseSecretsNeverPrinted: a database serve cannot open is
// named without its password, however the URL carries it.
func TestServeDatabaseSecretsNeverPrinted(t *testing.T) {
	t.Setenv("DEALCTL_DB", "")
	// Port 1 refuses at once; the URLs carry the secret three ways.
	for _, dsn := range []string{
		"postgres://dealctl:s3cret@127.0.0.1:1/dealctl",
		"postgres://dealctl@127.0.0.1:1/dealctl?password=s3cret&sslmode=disable",
		"host=127.0.0.1 port=1 user=dealctl password=s3cret dbname=dealctl sslmode=disable",
	} {
		var out bytes.Buffer
		err := runServe(context.Background(), &serveOptions{db: dsn, addr: "127.0.0.1:0", rateLimit: 600, logFormat: "text",
			schemaCheck: 1}, &out, &out)
		if err == nil || strings.Contains(err.Error()+out.String(), "s3cret") {
			t.Errorf("serve --db %q: %v\n%s; want a failure without the password", dsn, err, out.String())
		}
	}
}

// TestServeRefusesSettingsItCannotRead: a variable standing in for a flag
// is read as the flag reads it; a value the flag refuses, or one out of
// range, is a usage error naming the variable, before anything starts
// (DEALCTL_RATE_LIMIT=banana used to serve at 600 without a word).
func TestServeRefusesSettingsItCannotRead(t *testing.T) {
	for env, want := range map[string]string{
		"DEALCTL_RATE_LIMIT=banana": `DEALCTL_RATE_LIMIT="banana" is not a value --rate-limit takes`,
		"DEALCTL_RATE_LIMIT=0":      "DEALCTL_RATE_LIMIT must be at least 1 call a minute",
		"DEALCTL_LOG_FORMAT=xml":    `DEALCTL_LOG_FORMAT must be text or json, not "xml"`,
		"DEALCTL_DIGEST_AT=25:00":   "DEALCTL_DIGEST_AT: ",
		// A negative budget meant no cache at all, without a word.
		"DEALCTL_LIST_CACHE_MIB=-1": "DEALCTL_LIST_CACHE_MIB must be 0 (the default, 64) to 1048576 MiB, not -1",
	} {
		name, value, _ := strings.Cut(env, "=")
		t.Run(env, func(t *testing.T) {
			t.Setenv(name, value)
			cmd := NewCmd()
			cmd.SetOut(io.Discard)
			cmd.SetErr(io.Discard)
			cmd.SetArgs([]string{"--db", filepath.Join(t.TempDir(), "deals.db"), "--addr", "127.0.0.1:0"})
			err := cmd.Execute()
			if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(fmt.Sprint(err), want) {
				t.Errorf("serve with %s: %v (exit %d); want exit 2 saying %q", env, err, cmdutil.ExitCode(err), want)
			}
		})
	}
}
