package server_test

// Benchmarks of search (issue 29) on a 21,000-row deal with 100,000
// messages, seeded as `admin apply` seeds (the store's admin
// transaction), on SQLite and on PostgreSQL (when one is available: see
// internal/pgtest). Rerun:
//
//	go test ./internal/server -run '^$' -bench 'Search' -benchtime 200x
//	eval "$(.ci/start-postgres.sh)"; go test ./internal/server -run '^$' -bench 'Search.*Postgres' -benchtime 200x
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
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/keys"
	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// searchCorpus makes the deal's text: due-diligence words, numbers and
// a few thousand made-up words, drawn with Zipf's law so that some are
// in most texts and most in few, as in real lists.
type searchCorpus struct {
	rng   *rand.Rand
	zipf  *rand.Zipf
	words []string
}

var ddWords = strings.Fields(`provide the of and to a in for all copies list accounts audited financial statements tax returns
lease agreements pension schemes employees contracts customers suppliers insurance policies litigation claims
intellectual property patents trademarks licences data protection environmental permits share capital
shareholders board minutes articles association bank facilities guarantees security indemnity warranties
disclosure letter completion accounts working capital debt cash management report budget forecast FY2023
FY2024 section 2.3 schedule 4.2 société générale régime données employés contrat`)

func newSearchCorpus() *searchCorpus {
	rng := rand.New(rand.NewPCG(29, 2026))
	syllables := strings.Fields("ka lo mi ne ru sa to vi be da fe go hu ji ko la ma no pe qui ra se ti vo")
	words := slices.Clone(ddWords)
	for len(words) < 4000 {
		var w strings.Builder
		for range 2 + rng.IntN(3) {
			w.WriteString(syllables[rng.IntN(len(syllables))])
		}
		words = append(words, w.String())
	}
	return &searchCorpus{rng: rng, zipf: rand.NewZipf(rng, 1.07, 2, uint64(len(words)-1)), words: words}
}

func (c *searchCorpus) text(n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = c.words[c.zipf.Uint64()]
	}
	return strings.Join(out, " ")
}

// searchBench is the seeded deal, served.
type searchBench struct {
	dsn      string
	st       *sqlstore.DB
	ts       *httptest.Server
	dealID   string
	party    string
	person   string
	requests []string
}

// The deal is seeded once per process and dialect: seeding takes
// minutes, and every search benchmark reads the same one.
var (
	searchBenchMu sync.Mutex
	searchBenches = map[string]*searchBench{}
)

func searchBenchRows() int {
	if n, err := strconv.Atoi(os.Getenv("DEALCTL_SEARCH_BENCH_ROWS")); err == nil && n > 0 {
		return n
	}
	return 21000
}

// searchBenchOn seeds (once) and serves the deal on dialect.
func searchBenchOn(b *testing.B, dialect string) *searchBench {
	b.Helper()
	searchBenchMu.Lock()
	defer searchBenchMu.Unlock()
	if sb, ok := searchBenches[dialect]; ok {
		return sb
	}
	var sb *searchBench
	if dialect == sqlstore.Postgres {
		sb = seedSearchBench(b, pgtest.URL(b))
	} else {
		// Kept between runs (seeding takes a minute): remove the folder
		// to seed again.
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("dealctl-search-bench-%d", searchBenchRows()))
		dsn := filepath.Join(dir, "search.db")
		if _, err := os.Stat(dsn); err == nil {
			sb = reopenSearchBench(b, dsn)
		} else {
			if err := os.MkdirAll(dir, 0o700); err != nil {
				b.Fatal(err)
			}
			sb = seedSearchBench(b, dsn)
		}
	}
	searchBenches[dialect] = sb
	return sb
}

// seedSearchBench writes 100 sections of searchBenchRows()/100 requests,
// five messages on each of the first 100,000/5 requests (every fifth an
// internal note), a file on every tenth message, in one admin
// transaction.
func seedSearchBench(b *testing.B, dsn string) *searchBench {
	b.Helper()
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	c := newSearchCorpus()
	now := time.Now().UTC()
	sb := &searchBench{dsn: dsn, st: st, dealID: store.NewID(), party: store.NewID()}
	rows := searchBenchRows()
	perSection := rows / 100
	messages := rows * 100 / 21
	start := time.Now()
	err = st.Apply(ctx, func(tx store.AdminTx) error {
		org, user, buyParty := store.NewID(), store.NewID(), store.NewID()
		label, email := "Target", "owner@example.com"
		must := func(err error) {
			if err != nil {
				panic(err)
			}
		}
		must(tx.PutOrganization(store.Organization{ID: org, Name: "Target"}))
		must(tx.PutUser(store.User{ID: user, OrganizationID: org, Email: &email}))
		must(tx.PutDeal(store.Deal{ID: sb.dealID, Name: "Search", Codename: "Search", Timezone: "UTC"}))
		must(tx.PutParty(store.Party{ID: sb.party, DealID: sb.dealID, Side: api.SideSell, Label: &label, IsOwner: true, Position: 0}))
		must(tx.PutParty(store.Party{ID: buyParty, DealID: sb.dealID, Side: api.SideBuy, Position: 1}))
		person, err := tx.PutPerson(store.Person{DealID: sb.dealID, UserID: user, PartyID: sb.party, Access: api.AccessAdmin, Role: api.RolePrincipal, Joined: true})
		must(err)
		sb.person = person
		must(tx.PutAPIKey(store.APIKey{ID: store.NewID(), UserID: user, Name: "bench", Prefix: keys.Prefix(benchSecret), Hash: keys.Hash(benchSecret),
			Access: api.KeyWrite, ExpiresAt: now.Add(24 * time.Hour), CreatedAt: now}))
		posted := 0
		for s := 1; s <= 100; s++ {
			sid, err := tx.PutRequest(store.Request{DealID: sb.dealID, Kind: api.KindSection, Number: strconv.Itoa(s), Title: c.text(3),
				Status: api.StatusOpen, Priority: api.PriorityMedium, Category: api.CategoryBusiness, CreatedAt: now, UpdatedAt: now})
			must(err)
			for r := 1; r <= perSection-1; r++ {
				requester := "Adviser " + strconv.Itoa(r%20)
				rid, err := tx.PutRequest(store.Request{DealID: sb.dealID, ParentID: &sid, Kind: api.KindRequest, Number: fmt.Sprintf("%d.%d", s, r),
					Title: c.text(6), Body: c.text(25), Requester: &requester, Status: api.StatusOpen, Priority: api.PriorityHigh,
					Category: api.CategoryLegal, CreatedAt: now, UpdatedAt: now})
				must(err)
				sb.requests = append(sb.requests, rid)
				for m := 0; m < 5 && posted < messages; m++ {
					mid := store.NewID()
					internal := posted%5 == 4
					must(tx.PutMessage(store.Message{ID: mid, DealID: sb.dealID, RequestID: rid, PartyID: sb.party, AuthorID: &person,
						Kind: api.MessageResponse, Internal: internal, Source: api.SourceWeb, Text: c.text(30),
						Format: api.FormatMarkdown, PostedAt: now.Add(time.Duration(posted) * time.Second)}))
					if posted%10 == 0 {
						name := c.words[c.zipf.Uint64()] + "_" + c.words[c.zipf.Uint64()] + "_2023.pdf"
						must(tx.PutFile(store.File{VersionID: store.NewID(), DealID: sb.dealID, RequestID: rid, MessageID: mid, Kind: api.FileKindLink,
							Name: &name, URL: ptr("https://example.com/" + mid)}, nil))
					}
					posted++
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d rows and %d messages on %s in %s", len(sb.requests)+100, messages, st.Dialect(), time.Since(start).Round(time.Second))
	sb.ts = httptest.NewServer(benchServer(b, st))
	return sb
}

// reopenSearchBench serves the deal an earlier run seeded in dsn.
func reopenSearchBench(b *testing.B, dsn string) *searchBench {
	b.Helper()
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	raw, err := sql.Open("sqlite", "file:"+dsn+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	sb := &searchBench{dsn: dsn, st: st}
	if err := raw.QueryRow("SELECT d.id, p.id, pe.id FROM deals d JOIN parties p ON p.deal_id = d.id AND p.is_owner JOIN people pe ON pe.party_id = p.id").
		Scan(&sb.dealID, &sb.party, &sb.person); err != nil {
		b.Fatal(err)
	}
	rows, err := raw.Query("SELECT id FROM requests WHERE kind = 'request' ORDER BY rowid")
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			b.Fatal(err)
		}
		sb.requests = append(sb.requests, id)
	}
	sb.ts = httptest.NewServer(benchServer(b, st))
	return sb
}

// benchServer is serveBench's server, without its cleanup: the seeded
// deal outlives one benchmark.
func benchServer(b *testing.B, st *sqlstore.DB) http.Handler {
	b.Helper()
	ts := serveBench(b, st, 0)
	return ts.Config.Handler
}

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

func BenchmarkSearchSQLite(b *testing.B)             { benchSearch(b, sqlstore.SQLite, "") }
func BenchmarkSearchSQLiteRequests(b *testing.B)     { benchSearch(b, sqlstore.SQLite, "requests") }
func BenchmarkSearchPostgres(b *testing.B)           { benchSearch(b, sqlstore.Postgres, "") }
func BenchmarkSearchPostgresRequests(b *testing.B)   { benchSearch(b, sqlstore.Postgres, "requests") }
func BenchmarkSearchIndexShareSQLite(b *testing.B)   { benchIndexShare(b, sqlstore.SQLite) }
func BenchmarkSearchIndexSharePostgres(b *testing.B) { benchIndexShare(b, sqlstore.Postgres) }
func BenchmarkSearchPostSQLite(b *testing.B)         { benchSearchPost(b, sqlstore.SQLite) }
func BenchmarkSearchPostPostgres(b *testing.B)       { benchSearchPost(b, sqlstore.Postgres) }

// searchObjects are the statements that drop the search index, on each
// dialect (migration 0007's objects).
var dropSearch = map[string][]string{
	sqlstore.SQLite: {
		"DROP TRIGGER requests_search_insert", "DROP TRIGGER requests_search_delete", "DROP TRIGGER requests_search_update",
		"DROP TRIGGER messages_search_insert", "DROP TRIGGER messages_search_delete", "DROP TRIGGER messages_search_update",
		"DROP TRIGGER files_search_insert", "DROP TRIGGER files_search_delete", "DROP TRIGGER files_search_update",
		"DROP TABLE requests_search", "DROP TABLE messages_search", "DROP TABLE files_search",
	},
	sqlstore.Postgres: {
		"DROP INDEX requests_search", "DROP INDEX messages_search", "DROP INDEX files_search",
		"ALTER TABLE requests DROP COLUMN search_vector",
	},
}

func execAll(b *testing.B, db *sql.DB, stmts ...string) {
	b.Helper()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			b.Fatalf("%s: %v", s, err)
		}
	}
}

// withoutSearch is a copy of the seeded database with the search index
// dropped (and compacted, as the seeded one is by VACUUM INTO or VACUUM
// FULL), for comparing sizes and writes.
func withoutSearch(b *testing.B, sb *searchBench) string {
	b.Helper()
	if sb.st.Dialect() == sqlstore.Postgres {
		return postgresWithoutSearch(b, sb)
	}
	dir := filepath.Dir(sb.dsn)
	copyPath := filepath.Join(dir, "without.db")
	os.Remove(copyPath) // made afresh from the database as it is now
	raw, err := sql.Open("sqlite", "file:"+sb.dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	execAll(b, raw, "VACUUM INTO '"+copyPath+"'")
	cp, err := sql.Open("sqlite", "file:"+copyPath)
	if err != nil {
		b.Fatal(err)
	}
	defer cp.Close()
	execAll(b, cp, append(dropSearch[sqlstore.SQLite], "VACUUM")...)
	return copyPath
}

// postgresWithoutSearch copies the seeded database (CREATE DATABASE …
// TEMPLATE, which wants no one else on it: the bench's server is
// stopped for it and started again) and drops the index in the copy.
func postgresWithoutSearch(b *testing.B, sb *searchBench) string {
	b.Helper()
	u, err := url.Parse(sb.dsn)
	if err != nil {
		b.Fatal(err)
	}
	orig := strings.TrimPrefix(u.Path, "/")
	copyName := orig + "_nosearch"
	copyURL := *u
	copyURL.Path = "/" + copyName
	adminURL := *u
	adminURL.Path = "/postgres"
	admin, err := sql.Open("pgx", adminURL.String())
	if err != nil {
		b.Fatal(err)
	}
	defer admin.Close()
	var exists bool
	if err := admin.QueryRow("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", copyName).Scan(&exists); err != nil {
		b.Fatal(err)
	}
	if exists {
		return copyURL.String()
	}
	sb.ts.Close()
	sb.st.Close()
	execAll(b, admin, "CREATE DATABASE "+copyName+" TEMPLATE "+orig)
	if sb.st, err = sqlstore.Open(context.Background(), sb.dsn); err != nil {
		b.Fatal(err)
	}
	sb.ts = httptest.NewServer(benchServer(b, sb.st))
	cp, err := sql.Open("pgx", copyURL.String())
	if err != nil {
		b.Fatal(err)
	}
	defer cp.Close()
	execAll(b, cp, append(dropSearch[sqlstore.Postgres], "VACUUM FULL")...)
	return copyURL.String()
}

// benchIndexShare reports the index's share of the database: what it
// adds, over the size without it, both compacted.
func benchIndexShare(b *testing.B, dialect string) {
	sb := searchBenchOn(b, dialect)
	without := withoutSearch(b, sb)
	var with, bare int64
	if dialect == sqlstore.Postgres {
		raw, err := sql.Open("pgx", sb.dsn)
		if err != nil {
			b.Fatal(err)
		}
		defer raw.Close()
		execAll(b, raw, "VACUUM FULL")
		if err := raw.QueryRow("SELECT pg_database_size(current_database())").Scan(&with); err != nil {
			b.Fatal(err)
		}
		cp, err := sql.Open("pgx", without)
		if err != nil {
			b.Fatal(err)
		}
		defer cp.Close()
		if err := cp.QueryRow("SELECT pg_database_size(current_database())").Scan(&bare); err != nil {
			b.Fatal(err)
		}
	} else {
		compact := filepath.Join(filepath.Dir(sb.dsn), "with.db")
		os.Remove(compact)
		raw, err := sql.Open("sqlite", "file:"+sb.dsn)
		if err != nil {
			b.Fatal(err)
		}
		defer raw.Close()
		execAll(b, raw, "VACUUM INTO '"+compact+"'")
		with, bare = dbFileSize(b, compact), dbFileSize(b, without)
	}
	for b.Loop() {
	}
	b.ReportMetric(float64(with)/(1<<20), "MiB-with")
	b.ReportMetric(float64(bare)/(1<<20), "MiB-without")
	b.ReportMetric(100*float64(with-bare)/float64(bare), "%-added")
}

func dbFileSize(b *testing.B, path string) int64 {
	b.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return fi.Size()
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
