package digest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/world"
)

// BenchmarkDigestDay is one day's digests of a deal of 40 people, each
// assigned 10 of its 400 requests, with 400 messages since the last
// digest: what a scheduler does once a day per deal (SQLite).
func BenchmarkDigestDay(b *testing.B) {
	const people, requests = 40, 400
	var doc strings.Builder
	doc.WriteString("organizations: [{key: o, name: O}, {key: p, name: P}]\nusers:\n")
	for i := range people {
		fmt.Fprintf(&doc, "  - {key: u%d, email: u%d@example.com, organization: %s}\n", i, i, map[bool]string{true: "o", false: "p"}[i%2 == 0])
	}
	doc.WriteString("deals:\n  - key: d\n    name: Deal\n    timezone: Europe/London\n    parties: [{key: s, side: sell, owner: true, organization: o}, {key: b, side: buy, organization: p}]\n    people:\n")
	for i := range people {
		fmt.Fprintf(&doc, "      - {user: u%d, party: %s, access: editor}\n", i, map[bool]string{true: "s", false: "b"}[i%2 == 0])
	}
	doc.WriteString("    requests:\n")
	for i := range requests {
		fmt.Fprintf(&doc, "      - {number: \"%d\", title: Request %d, due_date: \"%+dd\", assignee: u%d}\n", i+1, i+1, i%20-10, i%people)
	}
	st, err := sqlstore.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	w, err := world.Parse([]byte(doc.String()))
	if err != nil {
		b.Fatal(err)
	}
	start := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	res, err := world.Apply(context.Background(), st, w, b.TempDir(), start)
	if err != nil {
		b.Fatal(err)
	}
	deal := res.Deals["d"]
	clk := newClock(start)
	s := &Scheduler{Store: st, At: DefaultAt, Now: clk.Now, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		dayStart := start.AddDate(0, 0, i)
		for j := range requests {
			author := res.People[fmt.Sprintf("d/u%d", (j+1)%people)]
			party, _ := st.Seat(context.Background(), deal, res.Users[fmt.Sprintf("u%d", (j+1)%people)])
			_, _, err := st.PostMessage(context.Background(), store.PostMessage{Message: store.Message{DealID: deal,
				RequestID: res.Requests[fmt.Sprintf("d/%d", j+1)], PartyID: party.PartyID, AuthorID: &author, Kind: api.MessageResponse,
				Source: api.SourceAPI, Format: api.FormatMarkdown, Text: "an answer", PostedAt: dayStart.Add(time.Duration(j) * time.Second)}})
			if err != nil {
				b.Fatal(err)
			}
		}
		clk.Set(dayStart.Add(18*time.Hour + 5*time.Minute)) // 07:05 BST the next morning
		b.StartTimer()
		rep, err := s.RunOnce(context.Background())
		if err != nil || rep.Sent != people {
			b.Fatalf("day %d: %+v, %v", i, rep, err)
		}
	}
}
