package server_test

// The deal the search benchmarks read (search_bench_test.go): its text
// and its seeding.

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
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
		sb = postgresSearchBench(b)
	} else {
		// Kept between runs (seeding takes a minute): remove the folder
		// to seed again.
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("dealctl-search-bench-%d", searchBenchRows()))
		dsn := filepath.Join(dir, "search.db")
		if _, err := os.Stat(dsn); err == nil {
			sb = reopenSearchBench(b, sqlstore.SQLite, dsn)
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

// postgresSearchBench seeds the deal in a database of its own, dropped
// when the benchmark ends; with DEALCTL_SEARCH_BENCH_PG_KEEP=1 in one
// that is kept between runs, dealctl_search_bench_ROWS on the test
// server (seeding there takes 13–25 minutes): drop it to seed again. A
// kept database made by an older dealctl is migrated when it is opened.
func postgresSearchBench(b *testing.B) *searchBench {
	b.Helper()
	if os.Getenv("DEALCTL_SEARCH_BENCH_PG_KEEP") != "1" {
		return seedSearchBench(b, pgtest.URL(b))
	}
	dsn := pgtest.KeptURL(b, fmt.Sprintf("dealctl_search_bench_%d", searchBenchRows()))
	raw, err := sql.Open("pgx", dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	// The deal is seeded in one transaction: it is there whole or not.
	var seeded bool
	if err := raw.QueryRow("SELECT to_regclass('deals') IS NOT NULL").Scan(&seeded); err != nil {
		b.Fatal(err)
	}
	if seeded {
		if err := raw.QueryRow("SELECT EXISTS (SELECT 1 FROM deals)").Scan(&seeded); err != nil {
			b.Fatal(err)
		}
	}
	if seeded {
		return reopenSearchBench(b, sqlstore.Postgres, dsn)
	}
	return seedSearchBench(b, dsn)
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
func reopenSearchBench(b *testing.B, dialect, dsn string) *searchBench {
	b.Helper()
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	driver, rawDSN, order := "sqlite", "file:"+dsn+"?mode=ro", "rowid"
	if dialect == sqlstore.Postgres {
		driver, rawDSN, order = "pgx", dsn, "created_at, id"
	}
	raw, err := sql.Open(driver, rawDSN)
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	sb := &searchBench{dsn: dsn, st: st}
	if err := raw.QueryRow("SELECT d.id, p.id, pe.id FROM deals d JOIN parties p ON p.deal_id = d.id AND p.is_owner JOIN people pe ON pe.party_id = p.id").
		Scan(&sb.dealID, &sb.party, &sb.person); err != nil {
		b.Fatal(err)
	}
	rows, err := raw.Query("SELECT id FROM requests WHERE kind = 'request' ORDER BY " + order)
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
