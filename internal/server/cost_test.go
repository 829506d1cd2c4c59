package server_test

// BenchmarkCost measures what a call costs the machine: the CPU time of
// the server process (and, on PostgreSQL, of the database's processes)
// divided by the calls, with 8 keep-alive clients on a 2,200-row deal,
// beside a plain net/http server answering the same bytes in the same
// run. The servers run as child processes (this test binary started
// again), so the load generator's CPU is not counted. Run it with
// scripts/bench-cost.sh; figures are in docs/server.md.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/notify"
	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/procstat"
	"github.com/dealctl/dealctl/internal/s3test"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// Child roles: the benchmark starts this binary again as one of them.
const (
	costRoleEnv = "DEALCTL_COST_ROLE" // "server" or "static"
	costArgEnv  = "DEALCTL_COST_ARG"  // the dsn, or the body's file
	costETagEnv = "DEALCTL_COST_ETAG" // the static server's ETag
	costSecsEnv = "DEALCTL_COST_SECONDS"
	// costCasesEnv, a regular expression, keeps only the cases it
	// matches; costProfileEnv names a file for the server child's CPU
	// profile, of the whole run.
	costCasesEnv   = "DEALCTL_COST_CASES"
	costProfileEnv = "DEALCTL_COST_CPUPROFILE"
	costClients    = 8
	costRounds     = 3
)

func TestMain(m *testing.M) {
	switch os.Getenv(costRoleEnv) {
	case "server":
		os.Exit(costServe(os.Getenv(costArgEnv)))
	case "static":
		os.Exit(costStatic(os.Getenv(costArgEnv), os.Getenv(costETagEnv)))
	}
	os.Exit(s3test.Main(m))
}

// costServe serves dsn as `dealctl serve` would: the shared limiter on
// PostgreSQL, a JSON access log (to nowhere), a limit no client reaches.
func costServe(dsn string) int {
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	cfg := server.Config{Store: st, BaseURL: "http://bench", RateLimit: 1 << 30, Logger: logger}
	if st.Dialect() == sqlstore.Postgres {
		cfg.Limiter = st.RateLimiter()
	}
	// The notification worker delivers what posts queue, as serve's does
	// (to its log, here nowhere, the rows handed over as they are
	// written), so that a post's deliveries are counted.
	worker := &notify.Worker{Store: st, Sender: &notify.LogSender{Log: logger}, Log: logger}
	cfg.Posted, cfg.Handoff = worker.Poke, worker
	go func() { _ = worker.Run(ctx) }()
	srv, err := server.New(ctx, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if path := os.Getenv(costProfileEnv); path != "" {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	return serveChild(&http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute})
}

// costStatic answers every GET with the body in file, or 304 for its ETag.
func costStatic(file, etag string) int {
	body, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return serveChild(&http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute})
}

// serveChild listens on loopback, prints the address and serves until
// its standard input closes (the parent ended).
func serveChild(hs *http.Server) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(ln.Addr().String())
	go func() { _ = hs.Serve(ln) }()
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// child is a server process started for the benchmark.
type child struct {
	cmd  *exec.Cmd
	base string
}

func startChild(b *testing.B, role, arg, etag string) *child {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), costRoleEnv+"="+role, costArgEnv+"="+arg, costETagEnv+"="+etag)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("the %s child did not start: %v", role, err)
	}
	return &child{cmd: cmd, base: "http://" + strings.TrimSpace(addr)}
}

// costCase is one kind of call, sent by costClients clients for a while.
type costCase struct {
	name   string
	method string
	path   func(i int) string
	header []string // name, value
	body   []byte
	want   int
	before func() // run once before the case is measured
	// settle: the case's CPU includes what the server does after the
	// calls because of them (the notification worker's deliveries), up
	// to when the server and the database are idle again.
	settle bool
}

// load sends c to base for d; it returns the calls made.
func load(b *testing.B, base string, c costCase, d time.Duration) int {
	tr := &http.Transport{MaxIdleConnsPerHost: costClients}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	var calls atomic.Int64
	var failed atomic.Value
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for range costClients {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				i := int(calls.Add(1))
				var rd io.Reader
				if c.body != nil {
					rd = bytes.NewReader(c.body)
				}
				req, _ := http.NewRequest(c.method, base+c.path(i), rd)
				req.Header.Set("Authorization", "Bearer "+benchSecret)
				for j := 0; j+1 < len(c.header); j += 2 {
					req.Header.Set(c.header[j], c.header[j+1])
				}
				res, err := client.Do(req)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != c.want {
					failed.Store(fmt.Sprintf("%s answered %d, want %d", c.name, res.StatusCode, c.want))
					return
				}
			}
		})
	}
	wg.Wait()
	if msg := failed.Load(); msg != nil {
		b.Fatal(msg)
	}
	return int(calls.Load())
}

// measure runs c against one child and returns the CPU per call of the
// child and, when postmaster is not 0, of the database.
func measure(b *testing.B, ch *child, postmaster int, c costCase, d time.Duration) (server, database time.Duration) {
	load(b, ch.base, c, d/10) // warm connections, caches and the pool
	if c.settle {
		settle(ch.cmd.Process.Pid, postmaster) // the warm calls' own work done
	}
	s0, _, err := procstat.CPU(ch.cmd.Process.Pid, false)
	if err != nil {
		b.Fatal(err)
	}
	var db0 time.Duration
	if postmaster != 0 {
		db0 = procstat.TreeCPU(postmaster)
	}
	calls := load(b, ch.base, c, d)
	if c.settle {
		settle(ch.cmd.Process.Pid, postmaster)
	}
	s1, _, _ := procstat.CPU(ch.cmd.Process.Pid, false)
	server = (s1 - s0) / time.Duration(calls)
	if postmaster != 0 {
		database = (procstat.TreeCPU(postmaster) - db0) / time.Duration(calls)
	}
	return server, database
}

// settle waits until the server and the database are idle again (at
// most 30 s): the notification worker has delivered what the posts
// queued.
func settle(pid, postmaster int) {
	procstat.Settle(func() time.Duration {
		s, _, _ := procstat.CPU(pid, false)
		return s + procstat.TreeCPU(postmaster)
	}, 30*time.Second)
}

func costDuration() time.Duration {
	if s, err := strconv.ParseFloat(os.Getenv(costSecsEnv), 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	return time.Second
}

// BenchmarkCost prints, for SQLite and (when available) PostgreSQL, the
// CPU per call of each kind of call and its ratio to the static server.
// It runs once whatever -benchtime says.
func BenchmarkCost(b *testing.B) {
	d := costDuration()
	for _, dialect := range []string{sqlstore.SQLite, sqlstore.Postgres} {
		b.Run(dialect, func(b *testing.B) {
			dsn := filepath.Join(b.TempDir(), "cost.db")
			if dialect == sqlstore.Postgres {
				dsn = pgtest.URL(b)
			}
			costOn(b, dialect, dsn, d)
		})
	}
}

func costOn(b *testing.B, dialect, dsn string, d time.Duration) {
	ts, dealID, requests, _ := bigDealOn(b, dsn, 0)
	ts.Close() // only the seeding was wanted
	srv := startChild(b, "server", dsn, "")
	list := "/api/v1/deals/" + dealID + "/requests"
	status, body, h := get(b, http.DefaultClient, srv.base+list)
	if status != http.StatusOK {
		b.Fatalf("the list answered %d", status)
	}
	file := filepath.Join(b.TempDir(), "list.json")
	if err := os.WriteFile(file, body, 0o600); err != nil {
		b.Fatal(err)
	}
	etag := h.Get("ETag")
	static := startChild(b, "static", file, etag)
	postmaster := 0
	if dialect == sqlstore.Postgres {
		postmaster = procstat.Postmaster(dsn)
	}
	fixed := func(p string) func(int) string { return func(int) string { return p } }
	inm := []string{"If-None-Match", etag}
	staticCases := []costCase{
		{name: "static 304", method: http.MethodGet, path: fixed("/list"), header: inm, want: http.StatusNotModified},
		{name: "static 200", method: http.MethodGet, path: fixed("/list"), want: http.StatusOK},
	}
	cases := []costCase{
		{name: "list 304", method: http.MethodGet, path: fixed(list), header: inm, want: http.StatusNotModified},
		{name: "GET /me", method: http.MethodGet, path: fixed("/api/v1/me"), want: http.StatusOK},
		{name: "one request 200", method: http.MethodGet, path: func(i int) string { return list + "/" + requests[i%len(requests)] }, want: http.StatusOK},
		{name: "the list 200", method: http.MethodGet, path: fixed(list), want: http.StatusOK},
		// Last: every post changes the deal's version.
		{name: "post a message", method: http.MethodPost, path: func(i int) string { return list + "/" + requests[i%len(requests)] + "/messages" },
			header: []string{"Content-Type", "application/json"}, body: []byte(`{"text":"Part of the answer, more to come.","partial":true}`), want: http.StatusCreated},
		// The same with 8 people joined on the other side, each told of
		// every post, their deliveries counted (before: tellOthers).
		{name: "post, 8 told", method: http.MethodPost, path: func(i int) string { return list + "/" + requests[i%len(requests)] + "/messages" },
			header: []string{"Content-Type", "application/json"}, body: []byte(`{"text":"Part of the answer, more to come.","partial":true}`), want: http.StatusCreated,
			before: func() { tellOthers(b, dsn, dealID, 8) }, settle: true},
	}
	// The machine's load moves every figure: each case is measured in
	// rounds, each beside the static server's matching answer measured
	// just before, and the median of the rounds is printed.
	out := &strings.Builder{}
	fmt.Fprintf(out, "\n%s, %d clients, %d-row deal, %d rounds of %s a case, list %d bytes\n", dialect, costClients, len(requests)+20, costRounds, d, len(body))
	fmt.Fprintf(out, "%-18s %10s %10s %10s %12s %s\n", "call", "server µs", "db µs", "total µs", "static µs", "ratio")
	keep := regexp.MustCompile(os.Getenv(costCasesEnv))
	for i, c := range cases {
		if c.before != nil {
			c.before()
		}
		if !keep.MatchString(c.name) {
			continue
		}
		yard := staticCases[0]
		if i == 3 {
			yard = staticCases[1]
		}
		var servers, dbs, statics, ratios []float64
		for range costRounds {
			st, _ := measure(b, static, 0, yard, d)
			s, db := measure(b, srv, postmaster, c, d)
			servers, dbs, statics = append(servers, micros(s)), append(dbs, micros(db)), append(statics, micros(st))
			ratios = append(ratios, float64(s+db)/float64(st))
		}
		dbText := "n/a"
		if postmaster != 0 {
			dbText = fmt.Sprintf("%.1f", median(dbs))
		} else if dialect == sqlstore.SQLite {
			dbText = "in server"
		}
		total := median(servers) + median(dbs)
		ratio := ""
		if i < 4 {
			ratio = fmt.Sprintf("%.1f× %s", median(ratios), yard.name)
		}
		fmt.Fprintf(out, "%-18s %10.1f %10s %10.1f %12.1f %s\n", c.name, median(servers), dbText, total, median(statics), ratio)
		b.ReportMetric(total, strings.ReplaceAll(c.name, " ", "_")+"-µs/call")
	}
	fmt.Print(out.String())
}

// median of a few figures.
func median(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
