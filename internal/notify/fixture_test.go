package notify

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// t0 is the tests' outbox clock, a whole number of microseconds as stored.
var t0 = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)

// fixture is a real SQLite store holding one deal: alice on the selling
// side, bob and dave (joined) on the buying side, and request 2.1.
type fixture struct {
	st                  *sqlstore.DB
	path                string
	deal, sell, req     string
	pAlice, pBob, pDave string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	f := &fixture{path: filepath.Join(t.TempDir(), "x.db")}
	st, err := sqlstore.Open(ctx, f.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f.st = st
	id := store.NewID
	orgSell, orgBuy, alice, bob, dave, buy := id(), id(), id(), id(), id(), id()
	f.deal, f.sell = id(), id()
	str := func(s string) *string { return &s }
	err = st.Apply(ctx, func(tx store.AdminTx) error {
		steps := []func() error{
			func() error { return tx.PutOrganization(store.Organization{ID: orgSell, Name: "Target Co"}) },
			func() error { return tx.PutOrganization(store.Organization{ID: orgBuy, Name: "Acme Capital"}) },
			func() error {
				return tx.PutUser(store.User{ID: alice, OrganizationID: orgSell, Name: str("Alice"), Email: str("alice@target.example")})
			},
			func() error {
				return tx.PutUser(store.User{ID: bob, OrganizationID: orgBuy, Name: str("Bob"), Email: str("bob@acme.example")})
			},
			func() error {
				return tx.PutUser(store.User{ID: dave, OrganizationID: orgBuy, Name: str("Dave"), Email: str("dave@acme.example")})
			},
			func() error {
				return tx.PutDeal(store.Deal{ID: f.deal, Name: "Project Falcon", Codename: "Falcon", Timezone: "UTC"})
			},
			func() error {
				return tx.PutParty(store.Party{ID: f.sell, DealID: f.deal, Side: api.SideSell, IsOwner: true, OrganizationID: &orgSell})
			},
			func() error {
				return tx.PutParty(store.Party{ID: buy, DealID: f.deal, Side: api.SideBuy, OrganizationID: &orgBuy, Position: 1})
			},
			func() (err error) {
				f.pAlice, err = tx.PutPerson(store.Person{DealID: f.deal, UserID: alice, PartyID: f.sell, Access: api.AccessAdmin, Role: api.RolePrincipal, Joined: true})
				return err
			},
			func() (err error) {
				f.pBob, err = tx.PutPerson(store.Person{DealID: f.deal, UserID: bob, PartyID: buy, Access: api.AccessEditor, Role: api.RoleCounsel, Joined: true})
				return err
			},
			func() (err error) {
				f.pDave, err = tx.PutPerson(store.Person{DealID: f.deal, UserID: dave, PartyID: buy, Access: api.AccessViewer, Role: api.RoleOther, Joined: true})
				return err
			},
			func() (err error) {
				f.req, err = tx.PutRequest(store.Request{DealID: f.deal, Kind: api.KindRequest, Number: "2.1", Title: "Audited accounts",
					Status: api.StatusOpen, Priority: api.PriorityMedium, Category: api.CategoryBusiness, CreatedAt: t0, UpdatedAt: t0})
				return err
			},
		}
		for _, step := range steps {
			if err := step(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// recipient is a person to notify and their address.
type recipient struct{ person, email string }

func (f *fixture) bob() recipient  { return recipient{f.pBob, "bob@acme.example"} }
func (f *fixture) dave() recipient { return recipient{f.pDave, "dave@acme.example"} }

// post has alice answer 2.1 at t0, writing one outbox row per recipient
// as the server does, and returns the rows' ids.
func (f *fixture) post(t *testing.T, text string, to ...recipient) []string {
	t.Helper()
	var ids []string
	_, _, err := f.st.PostMessage(context.Background(), store.PostMessage{
		Message: store.Message{DealID: f.deal, RequestID: f.req, PartyID: f.sell, AuthorID: &f.pAlice,
			Kind: api.MessageResponse, Source: api.SourceWeb, Text: text, Format: api.FormatMarkdown, PostedAt: t0},
		Notify: func(m store.Message) []store.Notification {
			var out []store.Notification
			for _, r := range to {
				n := store.Notification{ID: store.NewID(), PersonID: r.person, Email: r.email,
					Subject: "New answer on 2.1 Audited accounts", Body: m.Text}
				ids = append(ids, n.ID)
				out = append(out, n)
			}
			return out
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// rows reads the deal's outbox by id.
func (f *fixture) rows(t *testing.T) map[string]store.Notification {
	t.Helper()
	ns, err := f.st.Notifications(context.Background(), f.deal)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]store.Notification{}
	for _, n := range ns {
		out[n.ID] = n
	}
	return out
}

// clock is a settable Now.
type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

// senderFunc adapts a function to Sender.
type senderFunc func(ctx context.Context, n store.Notification) error

func (f senderFunc) Send(ctx context.Context, n store.Notification) error { return f(ctx, n) }
