package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/iostreams"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/golden")

type result struct {
	code     int
	out, err string
}

type runOpts struct {
	tty    bool
	prompt bool // stdin and stdout are a terminal: $EDITOR may open
	color  bool
	stdin  string
	width  int // the terminal's width with tty (0: 80)
	env    map[string]string
	// quickRetries waits a fiftieth of each wait between a call's
	// attempts: for tests of dropped connections and 5xx answers, whose
	// retries would otherwise wait out real backoffs. Not for tests of
	// 429s, whose waits let the server's bucket refill.
	quickRetries bool
}

// run executes dealctl in-process against ts, as a user whose environment
// names that server, alice's key and the deal Falcon.
func run(t *testing.T, ts *liveAPI, o runOpts, args ...string) result {
	t.Helper()
	home := t.TempDir()
	env := map[string]string{
		"HOME":              home,
		"XDG_CONFIG_HOME":   filepath.Join(home, "config"),
		"XDG_CACHE_HOME":    filepath.Join(home, "cache"),
		"DEALCTL_KEYRING":   "file",
		"DEALCTL_API_KEY":   testKey,
		"DEALCTL_DEAL":      "falcon",
		"NO_COLOR":          "",
		"DEALCTL_RATE_WAIT": "",
	}
	if ts != nil {
		env["DEALCTL_SERVER"] = ts.URL
	}
	for k, v := range o.env {
		env[k] = v
	}
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(o.stdin)
	ios.SetStdoutTTY(o.tty || o.prompt)
	ios.SetStdinTTY(o.prompt)
	ios.SetColorEnabled(o.color)
	ios.SetTerminalWidth(o.width)
	f := testFactory(t, ios, env)
	f.Now = func() time.Time { return fixedTime }
	if o.quickRetries {
		f.RetrySleep = func(ctx context.Context, d time.Duration) error { return client.Sleep(ctx, d/50) }
	}
	code := Run(context.Background(), f, args)
	return result{code: code, out: out.String(), err: errOut.String()}
}

// processEnv are the variables that only the process's environment can
// give: the editor `answer` runs, and the folder of its draft.
var processEnv = []string{"EDITOR", "VISUAL", "TMPDIR"}

// testFactory is a factory whose settings come from env alone: its
// DEALCTL_* variables, and its XDG_CONFIG_HOME and XDG_CACHE_HOME as the
// config and cache folders. Nothing is read from the test process's own
// environment, so tests that build their commands here can run in
// parallel; the variables of processEnv are set in it (t.Setenv), and a
// test that passes one cannot.
func testFactory(t *testing.T, ios *iostreams.IOStreams, env map[string]string) *Factory {
	t.Helper()
	for _, k := range processEnv {
		if v, ok := env[k]; ok {
			t.Setenv(k, v)
		}
	}
	f := NewFactory(ios)
	f.Env = func(name string) (string, bool) {
		v, ok := env[name]
		return v, ok
	}
	dir := func(name string, sub ...string) func() (string, error) {
		return func() (string, error) {
			if env[name] == "" {
				return "", fmt.Errorf("the test gave no %s", name)
			}
			return filepath.Join(append([]string{env[name]}, sub...)...), nil
		}
	}
	f.ConfigDir = dir("XDG_CONFIG_HOME", "dealctl")
	f.CacheDir = dir("XDG_CACHE_HOME", "dealctl", "http")
	return f
}

// golden compares got with testdata/golden/name, or rewrites it with
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(want, []byte(got)) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// confirms is must for a write run on a pipe: its confirmation is on
// stderr, and stdout is the row's "NUMBER\tSTATUS\tID".
func (r result) confirms(t *testing.T, code int, errHas ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, code, r.out, r.err)
	}
	for _, s := range errHas {
		if !strings.Contains(r.err, s) {
			t.Errorf("stderr lacks %q:\n%s", s, r.err)
		}
	}
}

func (r result) must(t *testing.T, code int, outHas ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, code, r.out, r.err)
	}
	for _, s := range outHas {
		if !strings.Contains(r.out, s) {
			t.Errorf("stdout lacks %q:\n%s", s, r.out)
		}
	}
}

// apiAttempts counts the HTTP attempts that DEALCTL_DEBUG=api logged to
// stderr for exactly "METHOD path".
func apiAttempts(stderr, methodPath string) int {
	return strings.Count(stderr, "api: "+methodPath+" ")
}
