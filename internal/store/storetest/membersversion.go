package storetest

import (
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// testMembersVersion: a deal's members version moves with every change
// of its parties, its people and their users, and with nothing else: a
// write that trusts members kept at a version must see every change.
func testMembersVersion(t *testing.T, s store.Store) {
	w := seed(t, s)
	ctx := ctxT(t)
	version := func() int64 {
		t.Helper()
		d, err := s.Deal(ctx, w.deal)
		must(t, err)
		return d.MembersVersion
	}
	moves := func(what string, change func(tx store.AdminTx) error) {
		t.Helper()
		before := version()
		must(t, s.Apply(ctx, change))
		if after := version(); after <= before {
			t.Errorf("%s: members version %d → %d, want it moved", what, before, after)
		}
	}
	// The world applied again changes no one: nothing moves, so no
	// instance reads the members again for nothing.
	unchanged := version()
	must(t, s.Apply(ctx, func(tx store.AdminTx) error { return w.put(tx) }))
	if again := version(); again != unchanged {
		t.Errorf("the same world applied again moved the members version %d → %d", unchanged, again)
	}
	moves("a person's access", func(tx store.AdminTx) error {
		_, err := tx.PutPerson(store.Person{DealID: w.deal, UserID: w.dave, PartyID: w.buy, Access: api.AccessEditor, Role: api.RoleOther})
		return err
	})
	moves("a person joining", func(tx store.AdminTx) error {
		_, err := tx.PutPerson(store.Person{DealID: w.deal, UserID: w.erin, PartyID: w.buy, Access: api.AccessViewer, Role: api.RoleOther, Joined: true})
		return err
	})
	moves("a party's label", func(tx store.AdminTx) error {
		return tx.PutParty(store.Party{ID: w.buy, DealID: w.deal, Side: api.SideBuy, Label: ptr("Acme"), OrganizationID: &w.orgBuy, Position: 1})
	})
	moves("a member's e-mail address", func(tx store.AdminTx) error {
		return tx.PutUser(store.User{ID: w.bob, OrganizationID: w.orgBuy, Name: ptr("Bob Reyes"), Email: ptr("bob.reyes@acme.example")})
	})

	// Writes that change no one on the deal leave it alone: a post, a
	// request's edit, another deal's people.
	before := version()
	mustPost(t, s, store.PostMessage{Message: w.message(w.req21)})
	must(t, s.Apply(ctx, func(tx store.AdminTx) error {
		_, err := tx.PutPerson(store.Person{DealID: w.other, UserID: w.carol, PartyID: w.otherSell, Access: api.AccessViewer, Role: api.RoleOther})
		return err
	}))
	if after := version(); after != before {
		t.Errorf("a post and another deal's people moved the members version %d → %d", before, after)
	}
}
