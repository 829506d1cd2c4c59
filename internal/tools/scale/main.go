package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

type options struct {
	dealctl     string
	db          string // "" seeds a SQLite file in workdir; postgres://… seeds that database
	workdir     string
	cores       []int
	serverCPUs  []int // the cores the server may be pinned to, in order
	loadgenCPUs string
	seconds     float64
	rounds      int           // the pure polls and the mixed load, taken turn about this many times
	quiet       time.Duration // after the mixed load, how long to watch the server idle
	workers     int
	shape       worldShape
	cells       map[string]bool // the cells to run; nil runs them all
}

// cellNames are the -cells values, in the order the cells run.
var cellNames = []string{"list304", "request", "list200", "post", "mixed-whole", "mixed"}

// runs reports whether the cell named is among those asked for.
func (o options) runs(cell string) bool { return o.cells == nil || o.cells[cell] }

func main() {
	var o options
	var cores, serverCPUs, cells string
	flag.StringVar(&o.dealctl, "dealctl", "./dealctl", "the dealctl binary to serve with (built beforehand)")
	flag.StringVar(&o.db, "db", "", "a postgres:// URL to seed and serve instead of a SQLite file (the database runs unpinned)")
	flag.StringVar(&o.workdir, "workdir", "", "folder for the world file, the database and the server logs (default: a new temporary one); a SQLite database seeded there before is used again")
	flag.StringVar(&cores, "cores", "1,2,4,8", "server core counts to measure, comma-separated")
	flag.StringVar(&serverCPUs, "server-cpus", "0-7", "cores the server is pinned to: the first N of them for N cores (empty: no taskset)")
	flag.StringVar(&o.loadgenCPUs, "loadgen-cpus", "8-15", "cores this load generator runs on (empty: not pinned)")
	flag.Float64Var(&o.seconds, "seconds", 8, "duration of each cell, in seconds")
	flag.IntVar(&o.rounds, "rounds", 1, "run the list 304 and mixed cells in this many alternating rounds of -seconds/rounds each, so that a host whose speed drifts weighs on both alike (their ratio is the figure compared)")
	flag.IntVar(&o.workers, "workers", 128, "calls in flight at once")
	flag.DurationVar(&o.quiet, "quiet", 0, "after the mixed load, send no calls for this long and print the server's RSS every 30 s of it (0: none; the server drops lists no call read for 2 minutes, so 150s shows it)")
	flag.IntVar(&o.shape.deals, "deals", 64, "deals seeded")
	flag.IntVar(&o.shape.rows, "rows", 550, "rows per deal (sections of 10 requests)")
	flag.IntVar(&o.shape.keys, "keys", 128, "keys (one user each)")
	flag.IntVar(&o.shape.perDeal, "keys-per-deal", 16, "keys on each deal, half on each side")
	flag.IntVar(&o.shape.bigRows, "big-rows", 21000, "rows of one more deal, measured after the matrix (0: none)")
	flag.StringVar(&cells, "cells", "", "the cells to run, comma-separated, of "+strings.Join(cellNames, ",")+" (empty: all; to profile one load)")
	flag.Parse()
	if o.rounds < 1 {
		fail(fmt.Errorf("-rounds %d: give 1 or more", o.rounds))
	}
	if cells != "" {
		o.cells = map[string]bool{}
		for _, c := range strings.Split(cells, ",") {
			if !slices.Contains(cellNames, c) {
				fail(fmt.Errorf("-cells: no cell %q; the cells are %s", c, strings.Join(cellNames, ",")))
			}
			o.cells[c] = true
		}
	}
	var err error
	if o.cores, err = intList(cores); err != nil {
		fail(err)
	}
	if serverCPUs != "" {
		if o.serverCPUs, err = cpuList(serverCPUs); err != nil {
			fail(err)
		}
	}
	if o.loadgenCPUs != "" && os.Getenv("DEALCTL_SCALE_PINNED") == "" {
		pinSelf(o.loadgenCPUs)
	}
	if err := run(o); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "scale:", err)
	os.Exit(1)
}

// pinSelf runs this program again under taskset, on cpus.
func pinSelf(cpus string) {
	self, err := os.Executable()
	if err != nil {
		fail(err)
	}
	cmd := exec.Command("taskset", append([]string{"-c", cpus, self}, os.Args[1:]...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "DEALCTL_SCALE_PINNED=1")
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			os.Exit(ee.ExitCode())
		}
		fail(err)
	}
	os.Exit(0)
}

// row is one line of the table: one server core count.
type row struct {
	cores                                     int
	list304, request200, list200, post, mixed result
	mixedWhole                                result // the mixed load fetching changed lists whole
	rss, peakRSS                              float64
	quietRSS                                  []quietSample // RSS while no call comes (-quiet)
	postCPUms                                 float64       // server CPU per post in the post cell, deliveries included
	postDBCPUms                               float64       // PostgreSQL's CPU per post, when it runs on this machine
}

func run(o options) error {
	if o.workdir == "" {
		dir, err := os.MkdirTemp("", "dealctl-scale-")
		if err != nil {
			return err
		}
		o.workdir = dir
	}
	start := time.Now()
	seedDB, ids, err := seed(o)
	if err != nil {
		return err
	}
	fmt.Printf("seeded %d deals × %d rows, %d keys (%d per deal) in %s; workdir %s\n",
		o.shape.deals, o.shape.rows, o.shape.keys, o.shape.perDeal, time.Since(start).Round(time.Second), o.workdir)
	var rows []row
	var last *server
	for i, n := range o.cores {
		db := seedDB
		if !strings.HasPrefix(db, "postgres") {
			db = filepath.Join(o.workdir, fmt.Sprintf("run-%d.db", n))
			if err := copyFile(seedDB, db); err != nil {
				return err
			}
		}
		cpus := ""
		if len(o.serverCPUs) > 0 {
			if n > len(o.serverCPUs) {
				return fmt.Errorf("%d cores asked for, -server-cpus has %d", n, len(o.serverCPUs))
			}
			cpus = joinInts(o.serverCPUs[:n])
		}
		s, err := startServer(o.dealctl, db, cpus, filepath.Join(o.workdir, fmt.Sprintf("serve-%d.log", n)))
		if err != nil {
			return err
		}
		r, err := measure(o, s, ids, n)
		if err != nil {
			s.stop()
			return err
		}
		rows = append(rows, r)
		printRow(r)
		if i == len(o.cores)-1 {
			last = s
		} else {
			s.stop()
		}
	}
	printTable(rows, o)
	if last != nil {
		if o.shape.bigRows > 0 {
			if err := measureBig(last, ids); err != nil {
				fmt.Println("big deal:", err)
			}
		}
		last.stop()
	}
	fmt.Printf("whole run: %s\n", time.Since(start).Round(time.Second))
	return nil
}

// worldIDs is what admin apply -o json reports that the run needs.
type worldIDs struct {
	Deals    map[string]string `json:"deals"`
	Requests map[string]string `json:"requests"`
}

// seed writes the world file and applies it to a new database. A
// SQLite database seeded before in the same workdir, with its ids, is
// used again.
func seed(o options) (string, worldIDs, error) {
	var ids worldIDs
	idsPath := filepath.Join(o.workdir, "ids.json")
	if o.db == "" {
		if data, err := os.ReadFile(idsPath); err == nil && json.Unmarshal(data, &ids) == nil {
			if _, err := os.Stat(filepath.Join(o.workdir, "seed.db")); err == nil {
				fmt.Println("using the database seeded before in", o.workdir)
				return filepath.Join(o.workdir, "seed.db"), ids, nil
			}
		}
	}
	worldPath := filepath.Join(o.workdir, "world.yaml")
	f, err := os.Create(worldPath)
	if err != nil {
		return "", ids, err
	}
	o.shape.write(f)
	if err := f.Close(); err != nil {
		return "", ids, err
	}
	db := o.db
	if db == "" {
		db = filepath.Join(o.workdir, "seed.db")
	}
	cmd := exec.Command(o.dealctl, "admin", "apply", "-f", worldPath, "--db", db, "-o", "json")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", ids, fmt.Errorf("admin apply: %v\n%s", err, errOut.String())
	}
	if err := json.Unmarshal(out.Bytes(), &ids); err != nil {
		return "", ids, fmt.Errorf("admin apply's output: %v", err)
	}
	if err := os.WriteFile(idsPath, out.Bytes(), 0o600); err != nil {
		return "", ids, err
	}
	return db, ids, nil
}

// measure runs the five cells against s.
func measure(o options, s *server, ids worldIDs, n int) (row, error) {
	l := newLoader(s.base, o.workers)
	for d := range o.shape.deals {
		for u := range o.shape.keys {
			if o.shape.onDeal(u, d) {
				l.targets = append(l.targets, &target{secret: secret(u), deal: ids.Deals[fmt.Sprintf("d%d", d)]})
			}
		}
	}
	if err := l.warm(); err != nil {
		return row{}, err
	}
	d := time.Duration(o.seconds * float64(time.Second))
	r := row{cores: n}
	// The server's CPU per call is measured with each cell: on a machine
	// others share, calls per second move with their load, the CPU a
	// call costs much less.
	cell := func(name string, next func(*rand.Rand) call) result {
		if !o.runs(name) {
			return result{}
		}
		cpu := s.cpuSeconds()
		res := l.run(d, next)
		if res.calls > 0 {
			res.cpuMicros = (s.cpuSeconds() - cpu) * 1e6 / float64(res.calls)
		}
		return res
	}
	// The pure polls, and the mixed load below, run in o.rounds turns
	// taken about: each turn of the polls starts from ETags made current
	// again (warm), since the mixed load's posts moved them on.
	pureAndMixed := o.runs("list304") && o.runs("mixed") && o.rounds > 1
	rounds := 1
	if pureAndMixed {
		rounds, d = o.rounds, d/time.Duration(o.rounds)
	}
	for i := range rounds {
		if i > 0 {
			if err := l.warm(); err != nil {
				return row{}, err
			}
		}
		r.list304 = r.list304.add(cell("list304", l.list304))
		if pureAndMixed {
			if err := l.warm(); err != nil {
				return row{}, err
			}
			r.mixed = r.mixed.add(cell("mixed", l.mixed))
		}
	}
	r.request200 = cell("request", l.request200)
	r.list200 = cell("list200", l.list200)
	if o.runs("post") {
		pm := 0
		if strings.HasPrefix(o.db, "postgres") {
			pm = postmaster(o.db)
		}
		settle(func() float64 { return s.cpuSeconds() + treeCPU(pm) })
		server, db := s.cpuSeconds(), treeCPU(pm)
		r.post = l.run(d, l.post)
		// The posts' notifications are delivered by the server's worker,
		// partly after the cell: their CPU is the posts' too.
		settle(func() float64 { return s.cpuSeconds() + treeCPU(pm) })
		if r.post.calls > 0 {
			r.postCPUms = (s.cpuSeconds() - server) * 1000 / float64(r.post.calls)
			r.postDBCPUms = (treeCPU(pm) - db) * 1000 / float64(r.post.calls)
			r.post.cpuMicros = r.postCPUms * 1000
		}
	}
	if o.runs("mixed-whole") {
		if err := l.warm(); err != nil { // every key holds the lists as they are now
			return row{}, err
		}
		r.mixedWhole = cell("mixed-whole", l.mixedWhole)
	}
	if o.runs("mixed") && !pureAndMixed {
		if err := l.warm(); err != nil {
			return row{}, err
		}
		r.mixed = cell("mixed", l.mixed)
	}
	r.rss, r.peakRSS = s.rssMiB()
	r.quietRSS = watchQuiet(s, o.quiet)
	return r, nil
}

// quietSample is the server's RSS after some time without calls.
type quietSample struct {
	after time.Duration
	rss   float64
}

// watchQuiet sends no calls for quiet and samples the server's RSS every
// 30 s of it, and at its end.
func watchQuiet(s *server, quiet time.Duration) []quietSample {
	var samples []quietSample
	for at := time.Duration(0); at < quiet; {
		step := min(30*time.Second, quiet-at)
		time.Sleep(step)
		at += step
		rss, _ := s.rssMiB()
		samples = append(samples, quietSample{after: at, rss: rss})
	}
	return samples
}

// measureBig times, on deal "big", the first list read after a one-row
// write (time to the first byte: the server's work before it answers),
// and what a client holding the previous version is sent.
func measureBig(s *server, ids worldIDs) error {
	deal := ids.Deals["big"]
	row := ids.Requests["big/1.1"]
	key := secret(0)
	list := s.base + "/api/v1/deals/" + deal + "/requests"
	get := func(url string, header ...string) (int, int, time.Duration, http.Header, error) {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		var first time.Duration
		began := time.Now()
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{GotFirstResponseByte: func() { first = time.Since(began) }}))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, 0, 0, nil, err
		}
		defer resp.Body.Close()
		n, err := io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, int(n), first, resp.Header, err
	}
	post := func(text string) error {
		req, _ := http.NewRequest(http.MethodPost, list+"/"+row+"/messages", strings.NewReader(`{"text":"`+text+`"}`))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			return fmt.Errorf("post on the big deal: %d", resp.StatusCode)
		}
		return nil
	}
	status, size, first, h, err := get(list)
	if err != nil || status != http.StatusOK {
		return fmt.Errorf("first read: %d %v", status, err)
	}
	fmt.Printf("\nbig deal (%d bytes): first read, built whole: %s to the first byte\n", size, first.Round(time.Microsecond))
	cursor := h.Get(cursorHeader)
	for i := range 3 {
		if err := post(fmt.Sprintf("one-row write %d", i)); err != nil {
			return err
		}
		status, size, first, _, err = get(list)
		if err != nil || status != http.StatusOK {
			return fmt.Errorf("read after a write: %d %v", status, err)
		}
		line := fmt.Sprintf("after a one-row write: list read %s to the first byte, %d bytes", first.Round(time.Microsecond), size)
		if cursor != "" {
			status, dsize, dfirst, dh, err := get(strings.Replace(list, "/requests", "/requests-delta", 1)+"?since="+cursor, "Accept", "application/json")
			if err == nil && status == http.StatusOK {
				line += fmt.Sprintf("; the delta since the version before: %d bytes, %s to the first byte", dsize, dfirst.Round(time.Microsecond))
				cursor = dh.Get(cursorHeader)
			}
		} else {
			line += "; no delta cursor (the server does not advertise delta sync)"
		}
		fmt.Println(line)
	}
	return nil
}

// cursorHeader carries a list's delta cursor (docs/api.md, delta sync).
const cursorHeader = "X-Dealctl-List-Cursor"

// copyFile copies the SQLite database from (and its write-ahead log, if
// any) to to, dropping what an earlier run left at to.
func copyFile(from, to string) error {
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Remove(to + suffix); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	for _, suffix := range []string{"", "-wal"} {
		data, err := os.ReadFile(from + suffix)
		if os.IsNotExist(err) && suffix != "" {
			continue
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(to+suffix, data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

func intList(s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q: not a core count", p)
		}
		out = append(out, n)
	}
	return out, nil
}

// cpuList reads a taskset list ("0-7", "0,2,4-6").
func cpuList(s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		lo, hi, found := strings.Cut(strings.TrimSpace(p), "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("%q: not a cpu list", s)
		}
		b := a
		if found {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("%q: not a cpu list", s)
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out, nil
}

func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}
