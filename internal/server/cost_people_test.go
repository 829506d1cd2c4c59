package server_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// tellOthers puts n joined people on the side of dealID that does not
// own it, each of whom a post of the owning side tells.
func tellOthers(b *testing.B, dsn, dealID string, n int) {
	b.Helper()
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	parties, _, err := st.Members(ctx, dealID)
	if err != nil {
		b.Fatal(err)
	}
	var other string
	for _, p := range parties {
		if !p.IsOwner {
			other = p.ID
		}
	}
	if other == "" {
		b.Fatal("the deal has no party on the other side")
	}
	err = st.Apply(ctx, func(tx store.AdminTx) error {
		org := store.NewID()
		if err := tx.PutOrganization(store.Organization{ID: org, Name: "Buyer"}); err != nil {
			return err
		}
		for i := range n {
			user, email := store.NewID(), fmt.Sprintf("buyer%d@example.com", i)
			if err := tx.PutUser(store.User{ID: user, OrganizationID: org, Email: &email}); err != nil {
				return err
			}
			if _, err := tx.PutPerson(store.Person{DealID: dealID, UserID: user, PartyID: other, Access: api.AccessViewer, Role: api.RolePrincipal, Joined: true}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
