package service_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/service"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/world"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// t0 is when the world is applied; the tests' writes happen an hour
// later, on the clock they pass the service.
var (
	t0  = time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	now = t0.Add(time.Hour)
)

// fixture is the service on a real, seeded store.
type fixture struct {
	st     *sqlstore.DB
	svc    *service.Service
	ids    *world.Result
	posted int // how often the service woke the notification worker
}

// onBothStores runs test on a fresh SQLite file and, where PostgreSQL is
// available (pgtest), on a fresh PostgreSQL database.
func onBothStores(t *testing.T, test func(t *testing.T, f *fixture)) {
	t.Run("sqlite", func(t *testing.T) {
		test(t, newFixture(t, filepath.Join(t.TempDir(), "dealctl.db")))
	})
	t.Run("postgres", func(t *testing.T) {
		test(t, newFixture(t, pgtest.URL(t)))
	})
}

func newFixture(t *testing.T, dsn string) *fixture {
	t.Helper()
	ctx := context.Background()
	st, err := sqlstore.OpenWith(ctx, dsn, sqlstore.OpenOptions{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	ids, err := world.ApplyFile(ctx, st, "testdata/world.yaml", t0)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{st: st, ids: ids}
	f.svc = service.New(st, func() { f.posted++ })
	return f
}

// actor seats the world's user on deal, as a door knowing the person
// would.
func (f *fixture) actor(t *testing.T, deal, user string) service.Actor {
	t.Helper()
	a, err := f.svc.ActorFor(context.Background(), f.ids.Deals[deal], f.ids.People[deal+"/"+user])
	if err != nil {
		t.Fatalf("ActorFor(%s, %s): %v", deal, user, err)
	}
	return a
}

// request reads one of the world's requests.
func (f *fixture) request(t *testing.T, deal, number string) store.Request {
	t.Helper()
	r, err := f.st.Request(context.Background(), f.ids.Deals[deal], f.ids.Requests[deal+"/"+number])
	if err != nil {
		t.Fatal(err)
	}
	return r
}
