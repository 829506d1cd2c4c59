package server_test

// BenchmarkSoak runs the server as a child process (as BenchmarkCost
// does) on a 550-row deal under a mixed load for a few minutes: readers
// poll the list and single requests with If-None-Match, writers post
// messages and move statuses. It samples the child's RSS from /proc every
// second and times every read, and prints the RSS over time and the
// reads' latency percentiles. Run it with scripts/soak.sh; figures are in
// docs/server.md ("Memory and latency under a mixed soak").

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

const (
	soakSecsEnv    = "DEALCTL_SOAK_SECONDS" // default 180
	soakStoreEnv   = "DEALCTL_SOAK_STORE"   // "sqlite", "postgres" or both (default)
	soakReaders    = 8
	soakWriters    = 2
	soakReadEvery  = 50 * time.Millisecond  // per reader
	soakWriteEvery = 100 * time.Millisecond // per writer
	soakWarmUp     = 30 * time.Second
	soakTargetRSS  = 100 // MiB
	soakTargetP99  = 250 * time.Millisecond
)

func soakDuration() time.Duration {
	if s, err := strconv.ParseFloat(os.Getenv(soakSecsEnv), 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	return 3 * time.Minute
}

// BenchmarkSoak runs once whatever -benchtime says.
func BenchmarkSoak(b *testing.B) {
	for _, dialect := range []string{sqlstore.SQLite, sqlstore.Postgres} {
		if only := os.Getenv(soakStoreEnv); only != "" && only != dialect {
			continue
		}
		b.Run(dialect, func(b *testing.B) {
			dsn := filepath.Join(b.TempDir(), "soak.db")
			if dialect == sqlstore.Postgres {
				dsn = pgtest.URL(b)
			}
			soakOn(b, dialect, dsn, soakDuration())
		})
	}
}

// rssMiB is a process's resident set from /proc/PID/status.
func rssMiB(pid int) (float64, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024, err
		}
	}
	return 0, fmt.Errorf("no VmRSS for process %d", pid)
}

// soakLoad is what the clients saw.
type soakLoad struct {
	mu        sync.Mutex
	reads     []time.Duration // after warm-up
	warmReads []time.Duration
	writes    atomic.Int64
	statuses  sync.Map // status code → *atomic.Int64
	failed    atomic.Value
}

func (l *soakLoad) count(status int) {
	v, _ := l.statuses.LoadOrStore(status, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

func (l *soakLoad) read(d time.Duration, warm bool) {
	l.mu.Lock()
	if warm {
		l.warmReads = append(l.warmReads, d)
	} else {
		l.reads = append(l.reads, d)
	}
	l.mu.Unlock()
}

func soakOn(b *testing.B, dialect, dsn string, d time.Duration) {
	ts, dealID, requests, _ := dealOfSize(b, dsn, 0, 10, 54)
	ts.Close() // only the seeding was wanted
	srv := startChild(b, "server", dsn, "")
	pid := srv.cmd.Process.Pid
	list := srv.base + "/api/v1/deals/" + dealID + "/requests"
	tr := &http.Transport{MaxIdleConnsPerHost: soakReaders + soakWriters}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	do := func(method, url, etag, ifMatch string, body []byte) (int, []byte, string, error) {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, _ := http.NewRequest(method, url, rd)
		req.Header.Set("Authorization", "Bearer "+benchSecret)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		if ifMatch != "" {
			req.Header.Set("If-Match", ifMatch)
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := client.Do(req)
		if err != nil {
			return 0, nil, "", err
		}
		defer res.Body.Close()
		out, err := io.ReadAll(res.Body)
		return res.StatusCode, out, res.Header.Get("ETag"), err
	}

	start := time.Now()
	stop := start.Add(d)
	load := &soakLoad{}
	var wg sync.WaitGroup
	for i := range soakReaders {
		wg.Go(func() {
			etags := map[string]string{}
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			for n := 0; time.Now().Before(stop); n++ {
				url := list
				if n%2 == 1 { // every other read: one request
					url = list + "/" + requests[rng.IntN(len(requests))]
				}
				t0 := time.Now()
				status, _, etag, err := do(http.MethodGet, url, etags[url], "", nil)
				if err != nil {
					load.failed.Store(err.Error())
					return
				}
				load.read(time.Since(t0), t0.Sub(start) < soakWarmUp)
				load.count(status)
				if status == http.StatusOK {
					etags[url] = etag
				}
				time.Sleep(soakReadEvery)
			}
		})
	}
	for i := range soakWriters {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(100+i), 2))
			for n := 0; time.Now().Before(stop); n++ {
				url := list + "/" + requests[rng.IntN(len(requests))]
				var status int
				var err error
				if n%2 == 0 {
					status, _, _, err = do(http.MethodPost, url+"/messages", "", "", []byte(`{"text":"Part of the answer, more to come.","partial":true}`))
				} else {
					status, err = moveStatus(do, url)
				}
				if err != nil {
					load.failed.Store(err.Error())
					return
				}
				load.count(status)
				load.writes.Add(1)
				time.Sleep(soakWriteEvery)
			}
		})
	}
	// RSS every second, from the main goroutine.
	type sample struct {
		at  time.Duration
		rss float64
	}
	var samples []sample
	for time.Now().Before(stop) {
		rss, err := rssMiB(pid)
		if err != nil {
			b.Fatal(err)
		}
		samples = append(samples, sample{time.Since(start), rss})
		time.Sleep(time.Second)
	}
	wg.Wait()
	if msg := load.failed.Load(); msg != nil {
		b.Fatal(msg)
	}

	out := &strings.Builder{}
	fmt.Fprintf(out, "\n%s soak: %d-row deal, %d readers every %s, %d writers every %s, %s\n", dialect, len(requests)+10, soakReaders, soakReadEvery, soakWriters, soakWriteEvery, d)
	fmt.Fprintf(out, "RSS (MiB) every 10 s:")
	var peak, warmPeak, lateMin, latePeak float64
	lateMin = 1e9
	for i, s := range samples {
		peak = max(peak, s.rss)
		if s.at >= soakWarmUp {
			warmPeak = max(warmPeak, s.rss)
		}
		if s.at >= d*2/3 {
			lateMin, latePeak = min(lateMin, s.rss), max(latePeak, s.rss)
		}
		if i%10 == 0 {
			fmt.Fprintf(out, " %.0f", s.rss)
		}
	}
	var after []float64
	for _, s := range samples {
		if s.at >= soakWarmUp && s.at < soakWarmUp+30*time.Second {
			after = append(after, s.rss)
		}
	}
	earlyPeak := 0.0
	for _, v := range after {
		earlyPeak = max(earlyPeak, v)
	}
	fmt.Fprintf(out, "\nRSS peak %.1f MiB (target ≤ %d); after warm-up: %.1f MiB at most in the 30 s after it, %.1f–%.1f MiB in the last third\n",
		peak, soakTargetRSS, earlyPeak, lateMin, latePeak)
	p50, p99, worst := percentile(load.reads, 0.50), percentile(load.reads, 0.99), percentile(load.reads, 1)
	fmt.Fprintf(out, "reads after warm-up: %d, p50 %s, p99 %s (target ≤ %s), max %s; during warm-up p99 %s\n",
		len(load.reads), p50.Round(time.Microsecond*100), p99.Round(time.Microsecond*100), soakTargetP99, worst.Round(time.Millisecond), percentile(load.warmReads, 0.99).Round(time.Microsecond*100))
	fmt.Fprintf(out, "writes: %d; answers:", load.writes.Load())
	var codes []int
	load.statuses.Range(func(k, _ any) bool { codes = append(codes, k.(int)); return true })
	slices.Sort(codes)
	for _, c := range codes {
		v, _ := load.statuses.Load(c)
		fmt.Fprintf(out, " %d×%d", c, v.(*atomic.Int64).Load())
	}
	fmt.Fprintln(out)
	fmt.Print(out.String())
	b.ReportMetric(peak, "peak-RSS-MiB")
	b.ReportMetric(float64(p99)/float64(time.Millisecond), "read-p99-ms")
}

// moveStatus reads a request and moves its status to the first status it
// may go to, conditional on the ETag read; a 409 (someone moved it in
// between) counts like any answer.
func moveStatus(do func(method, url, etag, ifMatch string, body []byte) (int, []byte, string, error), url string) (int, error) {
	status, body, etag, err := do(http.MethodGet, url, "", "", nil)
	if err != nil || status != http.StatusOK {
		return status, err
	}
	var row struct {
		AllowedStatuses []string `json:"allowed_statuses"`
	}
	if err := json.Unmarshal(body, &row); err != nil {
		return 0, err
	}
	if len(row.AllowedStatuses) == 0 {
		return status, nil
	}
	patch, _ := json.Marshal(map[string]string{"status": row.AllowedStatuses[0]})
	status, _, _, err = do(http.MethodPatch, url, "", etag, patch)
	return status, err
}

// percentile of durations (q in [0, 1]); 0 for none.
func percentile(v []time.Duration, q float64) time.Duration {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	return v[min(len(v)-1, int(q*float64(len(v))))]
}
