package sqlstore

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// The price of recording events, on the two writes that record the most
// often: a response that moves the status (two events) and a status move
// by PATCH (one). Each runs with events (…/events) and without
// (…/none, the same write with recording switched off), and reports the
// process's CPU time per write beside the wall time, since CPU is what
// the target (≤ 10 % more) is about:
//
//	go test ./internal/store/sqlstore -run '^$' -bench Recording -count 5

func BenchmarkRecordingPostMessage(b *testing.B) {
	for _, mode := range []struct {
		name string
		skip bool
	}{{"events", false}, {"none", true}} {
		b.Run(mode.name, func(b *testing.B) {
			db, w := benchWorld(b)
			db.skipEvents = mode.skip
			statuses := []api.RequestStatus{api.StatusPartial, api.StatusComplete}
			i := 0
			measureCPU(b, func() {
				to := statuses[i%2]
				i++
				m := store.Message{DealID: w.deal, RequestID: w.request, PartyID: w.party, AuthorID: &w.person,
					Kind: api.MessageResponse, Partial: to == api.StatusPartial, Source: api.SourceAPI, Text: "Part of the answer.", Format: api.FormatMarkdown}
				if _, _, err := db.PostMessage(context.Background(), store.PostMessage{Message: m, MoveStatus: &to}); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

func BenchmarkRecordingStatusMove(b *testing.B) {
	for _, mode := range []struct {
		name string
		skip bool
	}{{"events", false}, {"none", true}} {
		b.Run(mode.name, func(b *testing.B) {
			db, w := benchWorld(b)
			db.skipEvents = mode.skip
			ctx := store.WithActor(context.Background(), w.person)
			statuses := []api.RequestStatus{api.StatusPartial, api.StatusOpen}
			i := 0
			measureCPU(b, func() {
				to := statuses[i%2]
				i++
				if _, err := db.UpdateRequest(ctx, w.deal, w.request, func(r *store.Request) error {
					r.Status = to
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// measureCPU runs op b.N times and reports the process's CPU (user +
// system) per op.
func measureCPU(b *testing.B, op func()) {
	b.Helper()
	b.ReportAllocs()
	start := cpuTime(b)
	b.ResetTimer()
	for b.Loop() {
		op()
	}
	b.StopTimer()
	b.ReportMetric(float64((cpuTime(b)-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type benchIDs struct{ deal, request, party, person string }

// benchWorld is one deal with one request, on a fresh SQLite file.
func benchWorld(b *testing.B) (*DB, benchIDs) {
	b.Helper()
	return benchWorldWith(b, OpenOptions{})
}

func benchWorldWith(b *testing.B, opt OpenOptions) (*DB, benchIDs) {
	b.Helper()
	ctx := context.Background()
	db, err := OpenWith(ctx, filepath.Join(b.TempDir(), "bench.db"), opt)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	w := benchIDs{deal: store.NewID(), request: store.NewID(), party: store.NewID()}
	now := time.Now().UTC()
	err = db.Apply(ctx, func(tx store.AdminTx) error {
		org, user := store.NewID(), store.NewID()
		if err := tx.PutOrganization(store.Organization{ID: org, Name: "Target"}); err != nil {
			return err
		}
		if err := tx.PutUser(store.User{ID: user, OrganizationID: org}); err != nil {
			return err
		}
		if err := tx.PutDeal(store.Deal{ID: w.deal, Name: "Bench", Codename: "Bench", Timezone: "UTC"}); err != nil {
			return err
		}
		if err := tx.PutParty(store.Party{ID: w.party, DealID: w.deal, Side: api.SideSell, IsOwner: true}); err != nil {
			return err
		}
		if w.person, err = tx.PutPerson(store.Person{DealID: w.deal, UserID: user, PartyID: w.party, Access: api.AccessAdmin, Role: api.RolePrincipal, Joined: true}); err != nil {
			return err
		}
		_, err := tx.PutRequest(store.Request{ID: w.request, DealID: w.deal, Kind: api.KindRequest, Number: "1", Title: "Accounts",
			Status: api.StatusOpen, Priority: api.PriorityMedium, Category: api.CategoryBusiness, CreatedAt: now, UpdatedAt: now})
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return db, w
}
