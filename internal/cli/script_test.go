package cli_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dealctl/dealctl/internal/cli"
	"github.com/dealctl/dealctl/internal/cmd/root"
	"github.com/dealctl/dealctl/internal/pgtest"
)

// TestMain lets scripts run `dealctl` as a command: testscript re-executes
// this test binary under that name, and the registered function is main.
func TestMain(m *testing.M) {
	if os.Getenv(cli.AsMainEnv) == "1" {
		// The terminal tests run this binary as dealctl in tmux.
		os.Exit(root.Main(os.Args[1:]))
	}
	testscript.Main(stopPostgres{m}, map[string]func(){
		"dealctl": func() { os.Exit(root.Main(os.Args[1:])) },
		// dealctl-exit runs dealctl, then prints "exit N" on stderr and
		// succeeds, so scripts can assert the exact exit code.
		"dealctl-exit": func() {
			code := root.Main(os.Args[1:])
			fmt.Fprintf(os.Stderr, "exit %d\n", code)
			os.Exit(0)
		},
	})
}

// stopPostgres runs the tests, then stops the PostgreSQL pgtest started
// for TestScriptsPostgres, if it started one (testscript.Main exits itself).
type stopPostgres struct{ m *testing.M }

func (s stopPostgres) Run() int { return pgtest.Main(s.m) }

// shortScripts are the end-to-end scripts `go test -short` runs: the
// session a new user walks through. It still seeds and starts a real
// `dealctl serve` and runs every command as a process, so a quick run sees
// the harness or the process path break; the other scripts, about 150
// more processes and two thirds of this package's CPU, run in the full
// run (`go test ./...`, which CI runs). docs/decisions.md, "What go test
// -short leaves out".
var shortScripts = []string{"new_user.txtar"}

// TestScripts runs testdata/script/*.txtar: the real command against a
// real `dealctl serve` seeded with the world file each script carries, on
// a SQLite file in the script's work directory.
func TestScripts(t *testing.T) {
	t.Parallel()
	runScripts(t, scriptFiles(t), func(env *testscript.Env) string {
		return filepath.Join(env.WorkDir, "server.db")
	})
}

// TestScriptsPostgres runs the same scripts with `dealctl serve` on
// PostgreSQL, each script on a database of its own on the test server
// (pgtest), so the dialect the scripts do not see on SQLite cannot drift
// (docs/decisions.md, "Tests on the real server"). It runs beside
// TestScripts: the two share nothing but the CPU, and the scripts spend
// much of their time waiting on processes.
func TestScriptsPostgres(t *testing.T) {
	t.Parallel()
	pgtest.Available(t)
	runScripts(t, scriptFiles(t), func(env *testscript.Env) string {
		// Env.T is a testing.TB when scripts run under testscript.Run;
		// the database is dropped after the script's server is stopped.
		return pgtest.URL(env.T().(testing.TB))
	})
}

// scriptFiles picks the scripts to run: all of them, or under -short
// those shortScripts names.
func scriptFiles(t *testing.T) testscript.Params {
	t.Helper()
	dir := filepath.Join("testdata", "script")
	all, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 2 {
		t.Fatalf("%s holds %d scripts: the end-to-end suite is missing", dir, len(all))
	}
	var short []string
	for _, name := range shortScripts {
		short = append(short, filepath.Join(dir, name))
		if !slices.Contains(all, short[len(short)-1]) {
			t.Fatalf("shortScripts names %s, which is not in %s", name, dir)
		}
	}
	if testing.Short() {
		t.Logf("-short: %d of the %d end-to-end scripts (%s); go test without -short runs them all",
			len(short), len(all), strings.Join(shortScripts, ", "))
		return testscript.Params{Files: short}
	}
	return testscript.Params{Dir: dir}
}

// serveDBEnv names, in a script's environment, the database dealserve
// seeds and serves (a --db value). Scripts never name it: each runs
// unchanged on either store.
const serveDBEnv = "DEALSERVE_DB"

// runScripts runs the scripts p names with the environment and commands
// every script has; database gives each script the database its
// dealserve uses.
func runScripts(t *testing.T, p testscript.Params, database func(*testscript.Env) string) {
	p.Setup = func(env *testscript.Env) error {
		env.Setenv(serveDBEnv, database(env))
		return setupScript(env)
	}
	p.Cmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"dealserve": cmdDealServe,
	}
	testscript.Run(t, p)
}

// setupScript gives a script its own home and the world file.
func setupScript(env *testscript.Env) error {
	// Config, cache and keys live in the script's work directory, and the
	// OS keyring is never touched.
	home := env.WorkDir
	env.Setenv("HOME", home)
	env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	env.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	env.Setenv("XDG_DATA_HOME", filepath.Join(home, ".data"))
	env.Setenv("DEALCTL_KEYRING", "file")
	env.Setenv("NO_COLOR", "1")
	world, err := os.ReadFile(filepath.Join("testdata", "world.yaml"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(home, "world.yaml"), world, 0o644)
}

// cmdDealServe is `dealserve WORLD [serve flags...]`: it seeds the
// script's fresh database ($DEALSERVE_DB) with `dealctl admin apply -f WORLD -o json`, starts `dealctl
// serve` on a free port, waits for /healthz, and sets DEALCTL_SERVER and
// KEY_<name> (each created key's secret) for the rest of the script.
func cmdDealServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: dealserve WORLD [serve flags]")
	}
	bin := lookPathIn(ts.Getenv("PATH"), "dealctl")
	if bin == "" {
		ts.Fatalf("dealctl is not on the script's PATH")
	}
	db := ts.Getenv(serveDBEnv)
	env := scriptEnv(ts)

	apply := exec.Command(bin, "admin", "apply", "-f", ts.MkAbs(args[0]), "--db", db, "-o", "json")
	apply.Env = env
	out, err := apply.Output()
	if err != nil {
		ts.Fatalf("admin apply: %v\n%s", err, stderrOf(err))
	}
	var applied struct {
		Keys map[string]struct{ Secret string } `json:"keys"`
	}
	if err := json.Unmarshal(out, &applied); err != nil {
		ts.Fatalf("admin apply -o json: %v\n%s", err, out)
	}
	for name, k := range applied.Keys {
		ts.Setenv("KEY_"+strings.ReplaceAll(name, "-", "_"), k.Secret)
	}

	addr := freeAddr(ts)
	logf, err := os.Create(ts.MkAbs("server.log"))
	if err != nil {
		ts.Fatalf("%v", err)
	}
	serve := exec.Command(bin, append([]string{"serve", "--addr", addr, "--db", db}, args[1:]...)...)
	serve.Env = env
	serve.Stdout, serve.Stderr = logf, logf
	if err := serve.Start(); err != nil {
		ts.Fatalf("starting dealctl serve: %v", err)
	}
	ts.Defer(func() {
		_ = serve.Process.Kill()
		_ = serve.Wait()
		logf.Close()
	})
	base := "http://" + addr
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(ts.MkAbs("server.log"))
			ts.Fatalf("dealctl serve did not answer /healthz within 15s:\n%s", log)
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Setenv("DEALCTL_SERVER", base)
}

func scriptEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "TMPDIR"} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	return env
}

func freeAddr(ts *testscript.TestScript) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ts.Fatalf("%v", err)
	}
	defer l.Close()
	return l.Addr().String()
}

func lookPathIn(path, name string) string {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return ""
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return fmt.Sprint(err)
}
