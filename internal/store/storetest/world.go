package storetest

import (
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// world is the seeded fixture: deal Falcon (the one under test) with a
// selling side that owns the list and a buying side, and deal Hawk, a
// neighbour whose rows must never leak into Falcon's reads.
type world struct {
	orgSell, orgBuy               string
	alice, carol, bob, dave, erin string // users; erin is on no deal
	deal, other                   string // Falcon, Hawk
	sell, buy, otherSell          string // parties
	pAlice, pCarol, pBob, pDave   string // people on Falcon
	pAliceOther                   string // alice on Hawk
	sec1, sec2, req21, req3       string // Falcon rows "1", "2", "2.1", "3"
	otherReq                      string // Hawk row "1"
}

// seed applies the world in one Apply, as `dealctl admin apply` would.
func seed(t *testing.T, s store.Store) world {
	t.Helper()
	w := world{
		orgSell: newID(), orgBuy: newID(),
		alice: newID(), carol: newID(), bob: newID(), dave: newID(), erin: newID(),
		deal: newID(), other: newID(),
		sell: newID(), buy: newID(), otherSell: newID(),
		sec1: newID(), sec2: newID(), req21: newID(), req3: newID(), otherReq: newID(),
	}
	must(t, s.Apply(ctxT(t), func(tx store.AdminTx) error { return w.put(tx) }))
	return w
}

// put writes the world; it is safe to run twice (Apply is idempotent).
func (w *world) put(tx store.AdminTx) error {
	steps := []func() error{
		func() error { return tx.PutOrganization(store.Organization{ID: w.orgSell, Name: "Target Co"}) },
		func() error { return tx.PutOrganization(store.Organization{ID: w.orgBuy, Name: "Acme Capital"}) },
		func() error {
			return tx.PutUser(store.User{ID: w.alice, OrganizationID: w.orgSell, Name: ptr("Alice Sato"), Email: ptr("alice@target.example")})
		},
		// carol has no name: she must sort after her named colleagues.
		func() error {
			return tx.PutUser(store.User{ID: w.carol, OrganizationID: w.orgSell, Email: ptr("carol@target.example")})
		},
		func() error {
			return tx.PutUser(store.User{ID: w.bob, OrganizationID: w.orgBuy, Name: ptr("Bob Reyes"), Email: ptr("bob@acme.example")})
		},
		func() error {
			return tx.PutUser(store.User{ID: w.dave, OrganizationID: w.orgBuy, Name: ptr("Dave Kim"), Email: ptr("dave@acme.example")})
		},
		func() error { return tx.PutUser(store.User{ID: w.erin, OrganizationID: w.orgBuy, Name: ptr("Erin")}) },
		func() error {
			return tx.PutDeal(store.Deal{ID: w.deal, Name: "Project Falcon", Codename: "Falcon", Timezone: "Europe/London"})
		},
		func() error {
			return tx.PutDeal(store.Deal{ID: w.other, Name: "Project Hawk", Codename: "Hawk", Timezone: "UTC"})
		},
		// Parties are put in the reverse of their positions, so that
		// reading them back in insertion order would fail.
		func() error {
			return tx.PutParty(store.Party{ID: w.buy, DealID: w.deal, Side: api.SideBuy, OrganizationID: &w.orgBuy, Position: 1})
		},
		func() error {
			return tx.PutParty(store.Party{ID: w.sell, DealID: w.deal, Side: api.SideSell, Label: ptr("Target Co"), IsOwner: true, OrganizationID: &w.orgSell, Position: 0})
		},
		func() error {
			return tx.PutParty(store.Party{ID: w.otherSell, DealID: w.other, Side: api.SideSell, IsOwner: true, OrganizationID: &w.orgSell, Position: 0})
		},
		func() (err error) {
			w.pDave, err = tx.PutPerson(store.Person{DealID: w.deal, UserID: w.dave, PartyID: w.buy, Access: api.AccessViewer, Role: api.RoleOther})
			return err
		},
		func() (err error) {
			w.pCarol, err = tx.PutPerson(store.Person{DealID: w.deal, UserID: w.carol, PartyID: w.sell, Access: api.AccessEditor, Role: api.RoleCounsel, Joined: true})
			return err
		},
		func() (err error) {
			w.pBob, err = tx.PutPerson(store.Person{DealID: w.deal, UserID: w.bob, PartyID: w.buy, Access: api.AccessEditor, Role: api.RoleCounsel, Joined: true})
			return err
		},
		func() (err error) {
			w.pAlice, err = tx.PutPerson(store.Person{DealID: w.deal, UserID: w.alice, PartyID: w.sell, Access: api.AccessAdmin, Role: api.RolePrincipal, IsProjectAdmin: true, Joined: true})
			return err
		},
		func() (err error) {
			w.pAliceOther, err = tx.PutPerson(store.Person{DealID: w.other, UserID: w.alice, PartyID: w.otherSell, Access: api.AccessAdmin, Role: api.RolePrincipal, Joined: true})
			return err
		},
		func() (err error) {
			w.sec1, err = tx.PutRequest(w.row(w.sec1, nil, api.KindSection, "1", "Corporate"))
			return err
		},
		func() (err error) {
			w.sec2, err = tx.PutRequest(w.row(w.sec2, nil, api.KindSection, "2", "Financial"))
			return err
		},
		func() (err error) {
			r := w.row(w.req21, &w.sec2, api.KindRequest, "2.1", "Audited accounts")
			r.Body, r.Priority, r.Category = "Last three years.", api.PriorityHigh, api.CategoryAccounting
			r.Requester, r.DueDate, r.AssigneeID = ptr("Lex & Co"), ptr("2026-12-01"), &w.pBob
			w.req21, err = tx.PutRequest(r)
			return err
		},
		func() (err error) {
			w.req3, err = tx.PutRequest(w.row(w.req3, nil, api.KindRequest, "3", "Board minutes"))
			return err
		},
		func() (err error) {
			r := w.row(w.otherReq, nil, api.KindRequest, "1", "Hawk request")
			r.DealID = w.other
			w.otherReq, err = tx.PutRequest(r)
			return err
		},
		func() error { return tx.PutRef("deal", "falcon", w.deal) },
		func() error { return tx.PutRef("user", "alice", w.alice) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func (w *world) row(id string, parent *string, kind api.RequestKind, number, title string) store.Request {
	return store.Request{ID: id, DealID: w.deal, ParentID: parent, Kind: kind, Number: number, Title: title,
		Status: api.StatusOpen, Priority: api.PriorityMedium, Category: api.CategoryBusiness, CreatedAt: t0, UpdatedAt: t0}
}

// message is a shared web response by bob (buying side) on request.
func (w *world) message(request string) store.Message {
	return store.Message{DealID: w.deal, RequestID: request, PartyID: w.buy, AuthorID: &w.pBob,
		Kind: api.MessageResponse, Source: api.SourceWeb, Text: "Here it is.", Format: api.FormatMarkdown, PostedAt: t0}
}
