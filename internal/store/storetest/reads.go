package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

func testPingDialect(t *testing.T, s store.Store) {
	must(t, s.Ping(ctxT(t)))
	// A new store is empty: serve --demo relies on telling that.
	must(t, s.Apply(ctxT(t), func(tx store.AdminTx) error {
		if n, err := tx.CountDeals(); err != nil || n != 0 {
			return fmt.Errorf("CountDeals on a new store = %d, %v; want 0", n, err)
		}
		return nil
	}))
	if d := s.Dialect(); d != "sqlite" && d != "postgres" {
		t.Errorf("Dialect() = %q, want sqlite or postgres", d)
	}
}

func testSeedAndRead(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)

	org := mustGet[store.Organization](t)(s.Organization(ctx, w.orgBuy))
	if org.Name != "Acme Capital" {
		t.Errorf("Organization = %+v", org)
	}
	alice := mustGet[store.User](t)(s.User(ctx, w.alice))
	if alice.OrganizationID != w.orgSell || alice.Name == nil || *alice.Name != "Alice Sato" || alice.Email == nil || *alice.Email != "alice@target.example" {
		t.Errorf("User(alice) = %+v", alice)
	}
	erin := mustGet[store.User](t)(s.User(ctx, w.erin))
	if erin.Email != nil {
		t.Errorf("User(erin).Email = %q, want nil (stored NULL)", *erin.Email)
	}

	deal := mustGet[store.Deal](t)(s.Deal(ctx, w.deal))
	if deal.Name != "Project Falcon" || deal.Codename != "Falcon" || deal.Timezone != "Europe/London" || deal.Archived {
		t.Errorf("Deal = %+v", deal)
	}
	if deal.Version < 1 {
		t.Errorf("Deal.Version = %d after seeding, want at least 1", deal.Version)
	}

	// UserDeals: by name, only deals with a seat, each with the seat's
	// project-admin flag (alice is Falcon's project admin, not Hawk's).
	var names []string
	var admin []bool
	for _, d := range mustGet[[]store.UserDeal](t)(s.UserDeals(ctx, w.alice)) {
		names = append(names, d.Name)
		admin = append(admin, d.IsProjectAdmin)
	}
	if want := []string{"Project Falcon", "Project Hawk"}; !reflect.DeepEqual(names, want) {
		t.Errorf("UserDeals(alice) = %v, want %v", names, want)
	}
	if want := []bool{true, false}; !reflect.DeepEqual(admin, want) {
		t.Errorf("UserDeals(alice) project admin = %v, want %v", admin, want)
	}
	if ds := mustGet[[]store.UserDeal](t)(s.UserDeals(ctx, w.erin)); len(ds) != 0 {
		t.Errorf("UserDeals(erin) = %v, want none", ds)
	}

	// Parties by position, whatever order they were put in.
	ps := mustGet[[]store.Party](t)(s.Parties(ctx, w.deal))
	if len(ps) != 2 || ps[0].ID != w.sell || ps[1].ID != w.buy {
		t.Fatalf("Parties(falcon) = %+v, want sell then buy", ps)
	}
	if p := ps[0]; p.Side != api.SideSell || !p.IsOwner || p.Label == nil || *p.Label != "Target Co" || p.OrganizationID == nil || *p.OrganizationID != w.orgSell || p.DealID != w.deal {
		t.Errorf("sell party = %+v", p)
	}
	if p := ps[1]; p.Side != api.SideBuy || p.IsOwner || p.Label != nil || p.Position != 1 {
		t.Errorf("buy party = %+v", p)
	}
	both := mustGet[[]store.Party](t)(s.Parties(ctx, w.deal, w.other))
	if len(both) != 3 {
		t.Errorf("Parties(falcon, hawk) has %d parties, want 3", len(both))
	}
	if ps := mustGet[[]store.Party](t)(s.Parties(ctx)); len(ps) != 0 {
		t.Errorf("Parties() = %v, want none", ps)
	}

	// People by side position, then name, the unnamed last.
	var who []string
	for _, p := range mustGet[[]store.Person](t)(s.People(ctx, w.deal)) {
		who = append(who, p.ID)
	}
	if want := []string{w.pAlice, w.pCarol, w.pBob, w.pDave}; !reflect.DeepEqual(who, want) {
		t.Errorf("People order = %v, want alice, carol (unnamed), bob, dave = %v", who, want)
	}
	seat := mustGet[store.Person](t)(s.Seat(ctx, w.deal, w.alice))
	want := store.Person{ID: w.pAlice, DealID: w.deal, UserID: w.alice, PartyID: w.sell, Access: api.AccessAdmin, Role: api.RolePrincipal,
		IsProjectAdmin: true, Joined: true, Name: ptr("Alice Sato"), Email: "alice@target.example"}
	if !reflect.DeepEqual(seat, want) {
		t.Errorf("Seat(alice) = %+v, want %+v", seat, want)
	}
	if carol := mustGet[store.Person](t)(s.Seat(ctx, w.deal, w.carol)); carol.Name != nil || carol.Email != "carol@target.example" {
		t.Errorf("Seat(carol) = %+v, want no name", carol)
	}
	_, err := s.Seat(ctx, w.deal, w.erin)
	wantErr(t, "Seat(erin)", err, store.ErrNotFound)

	// Requests: all four of Falcon, none of Hawk, every field kept.
	rows := mustGet[[]store.Request](t)(s.Requests(ctx, w.deal))
	byNumber := map[string]store.Request{}
	for _, r := range rows {
		if r.DealID != w.deal {
			t.Errorf("Requests(falcon) returned %s of deal %s", r.Number, r.DealID)
		}
		byNumber[r.Number] = r
	}
	if len(rows) != 4 || len(byNumber) != 4 {
		t.Errorf("Requests(falcon) = %d rows, want 4", len(rows))
	}
	got := mustGet[store.Request](t)(s.Request(ctx, w.deal, w.req21))
	wantReq := store.Request{ID: w.req21, DealID: w.deal, ParentID: &w.sec2, Kind: api.KindRequest, Number: "2.1", Title: "Audited accounts",
		Body: "Last three years.", Status: api.StatusOpen, Priority: api.PriorityHigh, Category: api.CategoryAccounting,
		Requester: ptr("Lex & Co"), DueDate: ptr("2026-12-01"), AssigneeID: &w.pBob, CreatedAt: t0, UpdatedAt: t0}
	if !reflect.DeepEqual(got, wantReq) {
		t.Errorf("Request(2.1) =\n%+v\nwant\n%+v", got, wantReq)
	}
	if !reflect.DeepEqual(byNumber["2.1"], wantReq) {
		t.Errorf("Requests()[2.1] differs from Request(2.1): %+v", byNumber["2.1"])
	}
	if sec := byNumber["1"]; sec.Kind != api.KindSection || sec.ParentID != nil {
		t.Errorf("section 1 = %+v", sec)
	}

	// Refs resolve what the world file named.
	if id := mustGet[string](t)(s.Ref(ctx, "deal", "falcon")); id != w.deal {
		t.Errorf("Ref(deal, falcon) = %q, want %q", id, w.deal)
	}
}

func testApplyIdempotent(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	people := len(mustGet[[]store.Person](t)(s.People(ctx, w.deal)))
	rows := len(mustGet[[]store.Request](t)(s.Requests(ctx, w.deal)))

	// The same world again, with fresh ids for the upserts keyed by
	// (deal, user) and (deal, number): they must resolve to the first ids.
	again := w
	again.pAlice, again.req21 = "", newID()
	must(t, s.Apply(ctx, func(tx store.AdminTx) error { return again.put(tx) }))
	if again.pAlice != w.pAlice || again.req21 != w.req21 || again.sec2 != w.sec2 {
		t.Errorf("second apply resolved person %s (was %s), request %s (was %s)", again.pAlice, w.pAlice, again.req21, w.req21)
	}
	if n := len(mustGet[[]store.Person](t)(s.People(ctx, w.deal))); n != people {
		t.Errorf("people after second apply = %d, want %d", n, people)
	}
	if n := len(mustGet[[]store.Request](t)(s.Requests(ctx, w.deal))); n != rows {
		t.Errorf("requests after second apply = %d, want %d", n, rows)
	}

	// An upsert changes what it names.
	must(t, s.Apply(ctx, func(tx store.AdminTx) error {
		if err := tx.PutDeal(store.Deal{ID: w.deal, Name: "Project Falcon II", Codename: "Falcon", Timezone: "UTC"}); err != nil {
			return err
		}
		r := w.row("", &w.sec2, api.KindRequest, "2.1", "Audited accounts, restated")
		r.Status = api.StatusComplete
		_, err := tx.PutRequest(r)
		return err
	}))
	if d := mustGet[store.Deal](t)(s.Deal(ctx, w.deal)); d.Name != "Project Falcon II" || d.Timezone != "UTC" {
		t.Errorf("Deal after update = %+v", d)
	}
	if r := mustGet[store.Request](t)(s.Request(ctx, w.deal, w.req21)); r.Title != "Audited accounts, restated" || r.Status != api.StatusComplete {
		t.Errorf("Request after update = %+v", r)
	}
}

func testApplyRollsBack(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	before := version(t, s, w.deal)
	boom := errors.New("boom")
	orgID := newID()
	err := s.Apply(ctx, func(tx store.AdminTx) error {
		if err := tx.PutOrganization(store.Organization{ID: orgID, Name: "Half written"}); err != nil {
			return err
		}
		if _, err := tx.PutRequest(w.row("", &w.sec1, api.KindRequest, "1.7", "Half written")); err != nil {
			return err
		}
		return boom
	})
	wantErr(t, "Apply returning an error", err, boom)
	_, err = s.Organization(ctx, orgID)
	wantErr(t, "organization of an aborted Apply", err, store.ErrNotFound)
	if n := len(mustGet[[]store.Request](t)(s.Requests(ctx, w.deal))); n != 4 {
		t.Errorf("requests after aborted Apply = %d, want 4", n)
	}
	wantVersionDelta(t, s, w.deal, before, 0, "aborted Apply")
}

func testAdminTxReads(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	key := store.APIKey{ID: newID(), UserID: w.bob, Name: "seeded", Prefix: "dlk_seed0001", Hash: []byte{1, 2, 3},
		Access: api.KeyRead, DealIDs: []string{w.deal}, ExpiresAt: t0.AddDate(0, 3, 0), CreatedAt: t0}
	must(t, s.Apply(ctx, func(tx store.AdminTx) error {
		if n, err := tx.CountDeals(); err != nil || n != 2 {
			return fmt.Errorf("tx.CountDeals() = %d, %v; want 2", n, err)
		}
		if id, err := tx.Ref("user", "alice"); err != nil || id != w.alice {
			return fmt.Errorf("tx.Ref(user, alice) = %q, %v", id, err)
		}
		if _, err := tx.Ref("user", "nobody"); !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("tx.Ref(user, nobody): %v, want ErrNotFound", err)
		}
		if err := tx.PutRef("user", "alice", w.carol); err != nil { // refs can be re-pointed
			return err
		}
		r, err := tx.RequestByNumber(w.deal, "2.1")
		if err != nil || r.ID != w.req21 {
			return fmt.Errorf("tx.RequestByNumber(2.1) = %s, %v", r.ID, err)
		}
		if _, err := tx.RequestByNumber(w.other, "2.1"); !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("tx.RequestByNumber(hawk, 2.1): %v, want ErrNotFound", err)
		}
		if err := tx.PutAPIKey(key); err != nil {
			return err
		}
		key.Name = "renamed" // a second put replaces the row
		if err := tx.PutAPIKey(key); err != nil {
			return err
		}
		k, err := tx.APIKey(key.ID)
		if err != nil || k.Name != "renamed" {
			return fmt.Errorf("tx.APIKey = %+v, %v", k, err)
		}
		if _, err := tx.APIKey(newID()); !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("tx.APIKey(unknown): %v, want ErrNotFound", err)
		}
		return nil
	}))
	if id := mustGet[string](t)(s.Ref(ctx, "user", "alice")); id != w.carol {
		t.Errorf("Ref(user, alice) after PutRef = %s, want %s", id, w.carol)
	}
	if k := mustGet[store.APIKey](t)(s.APIKeyByPrefix(ctx, "dlk_seed0001")); !reflect.DeepEqual(k, key) {
		t.Errorf("APIKeyByPrefix = %+v, want %+v", k, key)
	}
}

func testNotFound(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	unknown := newID()
	checks := map[string]func() error{
		"User":            func() error { _, err := s.User(ctx, unknown); return err },
		"Organization":    func() error { _, err := s.Organization(ctx, unknown); return err },
		"Deal":            func() error { _, err := s.Deal(ctx, unknown); return err },
		"Seat":            func() error { _, err := s.Seat(ctx, unknown, w.alice); return err },
		"Request":         func() error { _, err := s.Request(ctx, w.deal, unknown); return err },
		"Request/other":   func() error { _, err := s.Request(ctx, w.deal, w.otherReq); return err },
		"Request/deal":    func() error { _, err := s.Request(ctx, unknown, w.req21); return err },
		"Message":         func() error { _, err := s.Message(ctx, w.deal, unknown); return err },
		"File":            func() error { _, err := s.File(ctx, w.deal, unknown); return err },
		"OpenBlob":        func() error { _, _, err := s.OpenBlob(ctx, "00"+unknown); return err },
		"APIKeyByPrefix":  func() error { _, err := s.APIKeyByPrefix(ctx, "dlk_missing0"); return err },
		"Ref":             func() error { _, err := s.Ref(ctx, "deal", "nowhere"); return err },
		"RevokeAPIKey":    func() error { return s.RevokeAPIKey(ctx, unknown, t0) },
		"SetDealArchived": func() error { return s.SetDealArchived(ctx, unknown, true) },
		"UpdateRequest": func() error {
			_, err := s.UpdateRequest(ctx, w.deal, unknown, func(*store.Request) error { return nil })
			return err
		},
		"UpdateRequest/other": func() error {
			_, err := s.UpdateRequest(ctx, w.deal, w.otherReq, func(*store.Request) error { return nil })
			return err
		},
		"PostMessage/other": func() error {
			_, _, err := s.PostMessage(ctx, store.PostMessage{Message: w.message(w.otherReq)})
			return err
		},
		"AttachFile": func() error {
			_, err := s.AttachFile(ctx, store.File{DealID: w.deal, MessageID: unknown, Name: ptr("x.txt"), Scanned: true}, []byte("x"))
			return err
		},
	}
	for name, check := range checks {
		wantErr(t, name, check(), store.ErrNotFound)
	}
	// Hawk's rows are still there, and still Hawk's.
	if r := mustGet[store.Request](t)(s.Request(ctx, w.other, w.otherReq)); r.Title != "Hawk request" {
		t.Errorf("Hawk request = %+v", r)
	}
}
