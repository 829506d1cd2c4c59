package server_test

// Benchmarks of search (issue 29) on a 21,000-row deal with 100,000
// messages, seeded as `admin apply` seeds (the store's admin
// transaction), on SQLite and on PostgreSQL (when one is available: see
// internal/pgtest). Rerun:
//
//	go test ./internal/server -run '^$' -bench 'Search' -benchtime 200x
//	eval "$(.ci/start-postgres.sh)"; go test ./internal/server -run '^$' -bench 'SearchPostgres' -benchtime 200x
//
// BenchmarkSearch* report the median and the 99th percentile of one
// search over loopback (p50-ms, p99-ms), across a mix of queries;
// BenchmarkSearchIndexShare* the share of the database the index takes;
// BenchmarkSearchPost* a posted message with the index and without it
// (a copy of the database with the search objects dropped), side by
// side. DEALCTL_SEARCH_BENCH_ROWS makes the deal smaller for a quick
// look. Figures: docs/server.md, "Search".

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// searchQueries are a mix of what people type: a common word, a rarer
// one, two words, a phrase, a prefix, a number, a name with digits,
// an accented word, and a made-up word in few texts.
var searchQueries = []string{"accounts", "indemnity", "audited accounts", `"share capital"`, "insur*", "2.3", "FY2023", "société", "kalomi", "tax returns", "pension"}

func benchSearch(b *testing.B, dialect, in string) {
	sb := searchBenchOn(b, dialect)
	c := sb.ts.Client()
	base := sb.ts.URL + "/api/v1/deals/" + sb.dealID + "/search?limit=20"
	if in != "" {
		base += "&in=" + in
	}
	var took []time.Duration
	byQuery := map[string][]time.Duration{}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		q := searchQueries[i%len(searchQueries)]
		start := time.Now()
		status, body, _ := get(b, c, base+"&q="+url.QueryEscape(q))
		took = append(took, time.Since(start))
		byQuery[q] = append(byQuery[q], time.Since(start))
		if status != http.StatusOK || len(body) < 10 {
			b.Fatalf("%s answered %d %s", q, status, body)
		}
	}
	b.StopTimer()
	reportPercentiles(b, took)
	var each []string
	for _, q := range searchQueries {
		d := byQuery[q]
		if len(d) == 0 {
			continue
		}
		slices.Sort(d)
		each = append(each, fmt.Sprintf("%s %.1f", q, float64(d[len(d)/2].Microseconds())/1000))
	}
	b.Logf("median ms by query: %s", strings.Join(each, ", "))
}

func reportPercentiles(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	at := func(p float64) float64 {
		return float64(took[min(len(took)-1, int(p*float64(len(took))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

func BenchmarkSearchSQLite(b *testing.B)           { benchSearch(b, sqlstore.SQLite, "") }
func BenchmarkSearchSQLiteRequests(b *testing.B)   { benchSearch(b, sqlstore.SQLite, "requests") }
func BenchmarkSearchIndexShareSQLite(b *testing.B) { benchIndexShare(b, sqlstore.SQLite) }
func BenchmarkSearchPostSQLite(b *testing.B)       { benchSearchPost(b, sqlstore.SQLite) }

// BenchmarkSearchPostgres runs the same benchmarks on PostgreSQL as
// parts of one: the seeded database is pgtest's, dropped when the
// benchmark that made it ends.
func BenchmarkSearchPostgres(b *testing.B) {
	searchBenchOn(b, sqlstore.Postgres)
	b.Run("all", func(b *testing.B) { benchSearch(b, sqlstore.Postgres, "") })
	b.Run("requests", func(b *testing.B) { benchSearch(b, sqlstore.Postgres, "requests") })
	b.Run("index-share", func(b *testing.B) { benchIndexShare(b, sqlstore.Postgres) })
	b.Run("post", func(b *testing.B) { benchSearchPost(b, sqlstore.Postgres) })
}

// benchSearchPost posts messages through the API on the seeded deal
// with the index and on its copy without, alternately, over loopback
// from one client: each one's median wall time and the process's CPU per
// post, and how much dearer the index makes them.
func benchSearchPost(b *testing.B, dialect string) {
	sb := searchBenchOn(b, dialect)
	without := withoutSearch(b, sb)
	with := sb.dsn
	if dialect == sqlstore.SQLite {
		// Both compacted alike (VACUUM INTO), so that only the index
		// differs.
		with = filepath.Join(filepath.Dir(sb.dsn), "with-posts.db")
		os.Remove(with)
		raw, err := sql.Open("sqlite", "file:"+sb.dsn)
		if err != nil {
			b.Fatal(err)
		}
		execAll(b, raw, "VACUUM INTO '"+with+"'")
		raw.Close()
	} else {
		raw, err := sql.Open("pgx", sb.dsn)
		if err != nil {
			b.Fatal(err)
		}
		execAll(b, raw, "VACUUM FULL")
		raw.Close()
	}
	servers := map[string]*httptest.Server{}
	for mode, dsn := range map[string]string{"index": with, "none": without} {
		st, err := sqlstore.Open(context.Background(), dsn)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { st.Close() })
		servers[mode] = httptest.NewServer(benchServer(b, st))
		defer servers[mode].Close()
	}
	// Side by side: the posts alternate, so that whatever else the
	// machine does weighs on both alike.
	c := newSearchCorpus()
	modes := []string{"index", "none"}
	took := map[string][]time.Duration{}
	cpu := map[string]time.Duration{}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		mode := modes[i%2]
		ts := servers[mode]
		url := ts.URL + "/api/v1/deals/" + sb.dealID + "/requests/" + sb.requests[(i/2)%len(sb.requests)] + "/messages"
		cpu0, start := cpuTime(b), time.Now()
		status, body := post(b, ts.Client(), url, `{"text":"`+c.text(30)+`"}`)
		took[mode] = append(took[mode], time.Since(start))
		cpu[mode] += cpuTime(b) - cpu0
		if status != http.StatusCreated {
			b.Fatalf("post answered %d %s", status, body)
		}
	}
	b.StopTimer()
	for _, mode := range modes {
		d := took[mode]
		slices.Sort(d)
		b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "p50-ms-"+mode)
		b.ReportMetric(float64(cpu[mode].Microseconds())/float64(len(d)), "cpu-µs-"+mode)
	}
	p50 := func(mode string) float64 { return float64(took[mode][len(took[mode])/2]) }
	b.ReportMetric(100*(p50("index")/p50("none")-1), "%-slower")
	b.ReportMetric(100*(float64(cpu["index"])/float64(cpu["none"])-1), "%-more-cpu")
}

func post(b *testing.B, c *http.Client, url, body string) (int, []byte) {
	b.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+benchSecret)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, got
}

// cpuTime is the process's CPU time so far (the server runs in the
// process; PostgreSQL's own CPU is not counted).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
