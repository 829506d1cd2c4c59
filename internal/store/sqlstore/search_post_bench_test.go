package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/store"
)

// BenchmarkSearchPostCostPostgres prices the search index for a posted
// message on PostgreSQL in a minute, where internal/server's
// BenchmarkSearchPostgres/post seeds for a quarter of an hour: two
// databases seeded alike with a small deal (400 requests, 2,000
// messages), one with the search objects dropped,
// and posts (a status move, as the API posts an answer) alternately on
// each, so that whatever else the machine does weighs on both alike.
// It reports each one's median and how much dearer the index makes a
// post.
//
//	eval "$(.ci/start-postgres.sh)"; go test ./internal/store/sqlstore -run '^$' -bench SearchPostCostPostgres -benchtime 2000x
func BenchmarkSearchPostCostPostgres(b *testing.B) {
	ctx := context.Background()
	dbs := map[string]*DB{}
	var w searchPostWorld
	for _, mode := range []string{"index", "none"} {
		url := pgtest.URL(b)
		db, err := Open(ctx, url)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
		w = seedSearchPostWorld(b, db)
		if mode == "none" {
			raw, err := sql.Open("pgx", url)
			if err != nil {
				b.Fatal(err)
			}
			for _, s := range dropSearchPostgres {
				if _, err := raw.Exec(s); err != nil {
					b.Fatalf("%s: %v", s, err)
				}
			}
			raw.Close()
		}
		if _, err := db.write.Exec("VACUUM ANALYZE"); err != nil {
			b.Fatal(err)
		}
		dbs[mode] = db
	}
	rng := rand.New(rand.NewPCG(29, 7))
	modes := []string{"index", "none"}
	took := map[string][]time.Duration{}
	statuses := []api.RequestStatus{api.StatusPartial, api.StatusOpen}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		mode := modes[i%2]
		db := dbs[mode]
		status := statuses[(i/2)%2]
		m := store.Message{DealID: w.deal, RequestID: w.requests[(i/2)%len(w.requests)], PartyID: w.party, AuthorID: &w.person,
			Kind: api.MessageResponse, Source: api.SourceAPI, Text: searchPostText(rng, 30), Format: api.FormatMarkdown}
		start := time.Now()
		if _, _, err := db.PostMessage(ctx, store.PostMessage{Message: m, MoveStatus: &status}); err != nil {
			b.Fatal(err)
		}
		took[mode] = append(took[mode], time.Since(start))
	}
	b.StopTimer()
	p50 := map[string]float64{}
	for _, mode := range modes {
		d := took[mode]
		slices.Sort(d)
		p50[mode] = float64(d[len(d)/2].Microseconds()) / 1000
		b.ReportMetric(p50[mode], "p50-ms-"+mode)
	}
	b.ReportMetric(100*(p50["index"]/p50["none"]-1), "%-slower")
}

// dropSearchPostgres drops the search objects of migrations 0007 and
// 0010, whichever way the vectors are kept.
var dropSearchPostgres = []string{
	"DROP TRIGGER IF EXISTS requests_search_insert ON requests", "DROP TRIGGER IF EXISTS requests_search_update ON requests",
	"DROP TABLE IF EXISTS request_search",
	"DROP INDEX IF EXISTS requests_search", "DROP INDEX IF EXISTS messages_search", "DROP INDEX IF EXISTS files_search",
	"ALTER TABLE requests DROP COLUMN IF EXISTS search_vector", "ALTER TABLE messages DROP COLUMN IF EXISTS search_vector",
	"ALTER TABLE files DROP COLUMN IF EXISTS search_vector",
}

type searchPostWorld struct {
	deal, party, person string
	requests            []string
}

var searchPostWords = strings.Fields(`accounts audited financial statements tax returns employees pension
insurance policies leases property litigation claims contracts customers suppliers intellectual
property share capital shareholders board minutes bank facilities guarantees indemnity warranties
disclosure letter completion working capital debt cash report budget forecast FY2023 section 2.3
société générale régime données kalomi vitoru sameko dafego`)

func searchPostText(rng *rand.Rand, n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = searchPostWords[rng.IntN(len(searchPostWords))]
	}
	return strings.Join(out, " ")
}

// seedSearchPostWorld seeds the deal, the same on every call (ids
// included), as `admin apply` does.
func seedSearchPostWorld(b *testing.B, db *DB) searchPostWorld {
	b.Helper()
	rng := rand.New(rand.NewPCG(29, 2026))
	w := searchPostWorld{deal: "deal", party: "seller", person: ""}
	now := time.Now().UTC()
	err := db.Apply(context.Background(), func(tx store.AdminTx) error {
		if err := tx.PutOrganization(store.Organization{ID: "org", Name: "Org"}); err != nil {
			return err
		}
		if err := tx.PutUser(store.User{ID: "user", OrganizationID: "org"}); err != nil {
			return err
		}
		if err := tx.PutDeal(store.Deal{ID: w.deal, Name: "Deal", Codename: "D", Timezone: "UTC"}); err != nil {
			return err
		}
		if err := tx.PutParty(store.Party{ID: w.party, DealID: w.deal, Side: api.SideSell, IsOwner: true}); err != nil {
			return err
		}
		var err error
		if w.person, err = tx.PutPerson(store.Person{ID: "person", DealID: w.deal, UserID: "user", PartyID: w.party, Access: api.AccessAdmin, Role: api.RolePrincipal, Joined: true}); err != nil {
			return err
		}
		requester := "Lex Counsel LLP"
		for s := 1; s <= 20; s++ {
			sid, err := tx.PutRequest(store.Request{ID: "s" + strconv.Itoa(s), DealID: w.deal, Kind: api.KindSection, Number: strconv.Itoa(s), Title: searchPostText(rng, 3),
				Status: api.StatusOpen, Priority: api.PriorityMedium, Category: api.CategoryBusiness, CreatedAt: now, UpdatedAt: now})
			if err != nil {
				return err
			}
			for r := 1; r <= 20; r++ {
				id, err := tx.PutRequest(store.Request{ID: fmt.Sprintf("r%d.%d", s, r), DealID: w.deal, ParentID: &sid, Kind: api.KindRequest, Number: fmt.Sprintf("%d.%d", s, r),
					Title: searchPostText(rng, 6), Body: searchPostText(rng, 25), Requester: &requester, Status: api.StatusOpen,
					Priority: api.PriorityHigh, Category: api.CategoryLegal, CreatedAt: now, UpdatedAt: now})
				if err != nil {
					return err
				}
				w.requests = append(w.requests, id)
				for k := range 5 {
					if err := tx.PutMessage(store.Message{ID: fmt.Sprintf("m%d.%d.%d", s, r, k), DealID: w.deal, RequestID: id, PartyID: w.party,
						Kind: api.MessageResponse, Source: api.SourceWeb, Text: searchPostText(rng, 30), Format: api.FormatMarkdown,
						PostedAt: now}); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return w
}
