package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// queue posts a message to w.req21 that notifies the given people, each
// notification due at the given offset from t0.
func queue(t *testing.T, s store.Store, w world, due ...time.Duration) []string {
	t.Helper()
	people := []string{w.pAlice, w.pCarol}
	var ids []string
	for i, d := range due {
		n := store.Notification{ID: newID(), PersonID: people[i%len(people)], Email: "x@example.com", Subject: fmt.Sprint("n", i),
			Body: "b", NextAttemptAt: t0.Add(d), CreatedAt: t0}
		ids = append(ids, n.ID)
		m := w.message(w.req21)
		_, _, err := s.PostMessage(ctxT(t), store.PostMessage{Message: m, Notify: func(store.Message) []store.Notification { return []store.Notification{n} }})
		must(t, err)
	}
	return ids
}

func claimIDs(t *testing.T, s store.Store, now time.Time, limit int, lease time.Duration) []string {
	t.Helper()
	var ids []string
	for _, n := range mustGet[[]store.Notification](t)(s.ClaimNotifications(ctxT(t), now, limit, lease)) {
		ids = append(ids, n.ID)
	}
	return ids
}

func testOutbox(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	ids := queue(t, s, w, 0, time.Hour) // the second is not due until t0+1h
	lease := 5 * time.Minute

	got := mustGet[[]store.Notification](t)(s.ClaimNotifications(ctx, t0.Add(time.Minute), 10, lease))
	if len(got) != 1 || got[0].ID != ids[0] || got[0].Attempts != 1 {
		t.Fatalf("first claim = %+v, want only the due one, attempt 1", got)
	}
	if c := claimIDs(t, s, t0.Add(2*time.Minute), 10, lease); len(c) != 0 {
		t.Errorf("claim inside the lease = %v, want nothing (the row is leased)", c)
	}
	// The lease ran out without a delivery: the row comes back.
	got = mustGet[[]store.Notification](t)(s.ClaimNotifications(ctx, t0.Add(7*time.Minute), 10, lease))
	if len(got) != 1 || got[0].ID != ids[0] || got[0].Attempts != 2 {
		t.Fatalf("claim after the lease = %+v, want the row again, attempt 2", got)
	}
	must(t, s.MarkFailed(ctx, ids[0], "smtp: connection refused", t0.Add(30*time.Minute)))
	if c := claimIDs(t, s, t0.Add(20*time.Minute), 10, lease); len(c) != 0 {
		t.Errorf("claim before retryAt = %v, want nothing", c)
	}
	var failed store.Notification
	for _, n := range mustGet[[]store.Notification](t)(s.Notifications(ctx, w.deal)) {
		if n.ID == ids[0] {
			failed = n
		}
	}
	if failed.LastError != "smtp: connection refused" || !failed.NextAttemptAt.Equal(t0.Add(30*time.Minute)) || failed.DeliveredAt != nil {
		t.Errorf("after MarkFailed: %+v", failed)
	}
	// At t0+31m the retry is due; the second is not yet.
	if c := claimIDs(t, s, t0.Add(31*time.Minute), 10, lease); !reflect.DeepEqual(c, []string{ids[0]}) {
		t.Errorf("claim at t0+31m = %v, want %v", c, ids[:1])
	}
	// At t0+2h the first is due again (leased until t0+36m) and so is the
	// second (due at t0+1h): oldest due first.
	if c := claimIDs(t, s, t0.Add(2*time.Hour), 10, lease); !reflect.DeepEqual(c, ids) {
		t.Errorf("claim at t0+2h = %v, want %v", c, ids)
	}
	must(t, s.MarkDelivered(ctx, t0.Add(2*time.Hour), ids...))
	if c := claimIDs(t, s, t0.Add(48*time.Hour), 10, lease); len(c) != 0 {
		t.Errorf("delivered rows claimed again: %v", c)
	}
	for _, n := range mustGet[[]store.Notification](t)(s.Notifications(ctx, w.deal)) {
		if n.DeliveredAt == nil || !n.DeliveredAt.Equal(t0.Add(2*time.Hour)) || n.LastError != "" {
			t.Errorf("after MarkDelivered: %+v", n)
		}
	}
	if ns := mustGet[[]store.Notification](t)(s.Notifications(ctx, w.other)); len(ns) != 0 {
		t.Errorf("Hawk's outbox = %+v, want empty", ns)
	}
}

func testOutboxLimit(t *testing.T, s store.Store) {
	w := seed(t, s)
	ids := queue(t, s, w, 3*time.Second, time.Second, 2*time.Second)
	now := t0.Add(time.Minute)
	first := claimIDs(t, s, now, 2, time.Minute)
	// Oldest due first: the rows due at +1s and +2s.
	if want := []string{ids[1], ids[2]}; !reflect.DeepEqual(first, want) {
		t.Errorf("claim with limit 2 = %v, want %v", first, want)
	}
	if rest := claimIDs(t, s, now, 2, time.Minute); !reflect.DeepEqual(rest, ids[:1]) {
		t.Errorf("second claim = %v, want %v", rest, ids[:1])
	}
}

// testOutboxRenewals: a renewal extends the claims still held, in one
// write, and names the others: a row delivered since, and one claimed
// again after its claim lapsed.
func testOutboxRenewals(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	ids := queue(t, s, w, 0, time.Second, 2*time.Second)
	lease := 5 * time.Minute
	claims := mustGet[[]store.Notification](t)(s.ClaimNotifications(ctx, t0.Add(time.Minute), 10, lease))
	if len(claims) != 3 {
		t.Fatalf("claim = %+v, want the 3 rows", claims)
	}
	must(t, s.MarkDelivered(ctx, t0.Add(2*time.Minute), ids[0]))
	// The claims lapse at t0+6m, and another claimer takes the oldest due.
	if again := claimIDs(t, s, t0.Add(7*time.Minute), 1, lease); !reflect.DeepEqual(again, ids[1:2]) {
		t.Fatalf("claim after the lease = %v, want %v", again, ids[1:2])
	}
	lost := mustGet[[]string](t)(s.RenewClaims(ctx, claims, t0.Add(20*time.Minute)))
	if !reflect.DeepEqual(lost, ids[:2]) {
		t.Errorf("RenewClaims lost %v, want %v (delivered, claimed again)", lost, ids[:2])
	}
	next := map[string]time.Time{}
	for _, n := range mustGet[[]store.Notification](t)(s.Notifications(ctx, w.deal)) {
		next[n.ID] = n.NextAttemptAt
	}
	if want := t0.Add(12 * time.Minute); !next[ids[1]].Equal(want) {
		t.Errorf("the row claimed again is due at %v, want %v (its new claim's)", next[ids[1]], want)
	}
	if want := t0.Add(20 * time.Minute); !next[ids[2]].Equal(want) {
		t.Errorf("the renewed row is due at %v, want %v", next[ids[2]], want)
	}
	if c := claimIDs(t, s, t0.Add(11*time.Minute), 10, lease); len(c) != 0 {
		t.Errorf("claim at t0+11m = %v, want nothing (both claims held)", c)
	}
	if lost := mustGet[[]string](t)(s.RenewClaims(ctx, nil, t0)); lost != nil {
		t.Errorf("RenewClaims of nothing lost %v", lost)
	}
}

// testOutboxConcurrentClaims: claimers working at once (several server
// instances) each get distinct rows, and every row is claimed once.
func testOutboxConcurrentClaims(t *testing.T, s store.Store) {
	w := seed(t, s)
	due := make([]time.Duration, 30)
	ids := queue(t, s, w, due...)
	now := t0.Add(time.Minute)
	var mu sync.Mutex
	claimed := map[string]int{}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				ns, err := s.ClaimNotifications(context.Background(), now, 3, time.Hour)
				if err != nil {
					errs <- err
					return
				}
				if len(ns) == 0 {
					return
				}
				if len(ns) > 3 {
					errs <- fmt.Errorf("a claim of 3 took %d rows", len(ns))
					return
				}
				mu.Lock()
				for _, n := range ns {
					claimed[n.ID]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("ClaimNotifications: %v", err)
	}
	for _, id := range ids {
		if claimed[id] != 1 {
			t.Errorf("notification %s claimed %d times, want once", id, claimed[id])
		}
	}
}

func testSetting(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	calls := 0
	mk := func(v string) func() (string, error) {
		return func() (string, error) { calls++; return v, nil }
	}
	if v := mustGet[string](t)(s.Setting(ctx, "link_secret", mk("first"))); v != "first" {
		t.Errorf("Setting first time = %q", v)
	}
	if v := mustGet[string](t)(s.Setting(ctx, "link_secret", mk("second"))); v != "first" || calls != 1 {
		t.Errorf("Setting second time = %q after %d creates, want the first value, created once", v, calls)
	}
	// A failing create stores nothing: the next call creates again.
	boom := errors.New("no entropy")
	_, err := s.Setting(ctx, "other", func() (string, error) { return "", boom })
	wantErr(t, "Setting whose create fails", err, boom)
	if v := mustGet[string](t)(s.Setting(ctx, "other", mk("later"))); v != "later" {
		t.Errorf("Setting after a failed create = %q", v)
	}

	// Instances starting together agree on one value.
	var wg sync.WaitGroup
	values := make([]string, 12)
	errs := make([]error, 12)
	for i := range values {
		wg.Add(1)
		go func() {
			defer wg.Done()
			values[i], errs[i] = s.Setting(context.Background(), "race", func() (string, error) { return fmt.Sprint("v", i), nil })
		}()
	}
	wg.Wait()
	for i := range values {
		if errs[i] != nil {
			t.Errorf("concurrent Setting: %v", errs[i])
		} else if values[i] != values[0] {
			t.Errorf("concurrent Setting disagrees: %q vs %q", values[i], values[0])
		}
	}
}

func testAPIKeys(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	k1 := store.APIKey{ID: newID(), UserID: w.alice, Name: "CI", Prefix: "dlk_aaaaaaaa", Hash: []byte("hash-1"), Access: api.KeyWrite,
		ExpiresAt: t0.AddDate(0, 0, 90), CreatedAt: t0}
	k2 := store.APIKey{ID: newID(), UserID: w.alice, Name: "Reporting", Prefix: "dlk_bbbbbbbb", Hash: []byte("hash-2"), Access: api.KeyRead,
		DealIDs: []string{w.deal, w.other}, ExpiresAt: t0.AddDate(0, 0, 30), CreatedAt: t0.Add(time.Hour)}
	k3 := store.APIKey{ID: newID(), UserID: w.bob, Name: "", Prefix: "dlk_cccccccc", Hash: []byte("hash-3"), Access: api.KeyWrite,
		DealIDs: []string{}, ExpiresAt: t0.AddDate(1, 0, 0), CreatedAt: t0.Add(2 * time.Hour)}
	for _, k := range []store.APIKey{k1, k2, k3} {
		must(t, s.CreateAPIKey(ctx, k))
	}
	wantErr(t, "CreateAPIKey with a taken id", s.CreateAPIKey(ctx, k1), store.ErrDuplicate)

	for _, k := range []store.APIKey{k1, k2, k3} {
		got := mustGet[store.APIKey](t)(s.APIKeyByPrefix(ctx, k.Prefix))
		if !reflect.DeepEqual(got, k) {
			t.Errorf("APIKeyByPrefix(%s) =\n%+v\nwant\n%+v", k.Prefix, got, k)
		}
	}
	// nil DealIDs (every deal) and an empty list (no deal) must stay apart.
	if got := mustGet[store.APIKey](t)(s.APIKeyByPrefix(ctx, k1.Prefix)); got.DealIDs != nil {
		t.Errorf("k1.DealIDs = %#v, want nil", got.DealIDs)
	}
	if got := mustGet[store.APIKey](t)(s.APIKeyByPrefix(ctx, k3.Prefix)); got.DealIDs == nil {
		t.Errorf("k3.DealIDs = nil, want an empty list")
	}

	var names []string
	for _, k := range mustGet[[]store.APIKey](t)(s.APIKeys(ctx, w.alice)) {
		names = append(names, k.Name)
	}
	if want := []string{"Reporting", "CI"}; !reflect.DeepEqual(names, want) {
		t.Errorf("APIKeys(alice) = %v, want newest first %v", names, want)
	}
	if all := mustGet[[]store.APIKey](t)(s.APIKeys(ctx, "")); len(all) != 3 || all[0].ID != k3.ID {
		t.Errorf("APIKeys(\"\") = %d keys (first %s), want 3, newest first", len(all), all[0].ID)
	}

	// Revoke by id and by prefix; revoking again keeps the first time.
	must(t, s.RevokeAPIKey(ctx, k1.ID, t0.Add(24*time.Hour)))
	must(t, s.RevokeAPIKey(ctx, k2.Prefix, t0.Add(25*time.Hour)))
	must(t, s.RevokeAPIKey(ctx, k1.Prefix, t0.Add(99*time.Hour)))
	for _, c := range []struct {
		k    store.APIKey
		want *time.Time
	}{{k1, ptr(t0.Add(24 * time.Hour))}, {k2, ptr(t0.Add(25 * time.Hour))}, {k3, nil}} {
		got := mustGet[store.APIKey](t)(s.APIKeyByPrefix(ctx, c.k.Prefix))
		if !reflect.DeepEqual(got.RevokedAt, c.want) {
			t.Errorf("%s RevokedAt = %v, want %v", c.k.Name, got.RevokedAt, c.want)
		}
	}
	wantErr(t, "RevokeAPIKey(unknown)", s.RevokeAPIKey(ctx, "dlk_zzzzzzzz", t0), store.ErrNotFound)
}

func testDealArchived(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	must(t, s.SetDealArchived(ctx, w.deal, true))
	if d := mustGet[store.Deal](t)(s.Deal(ctx, w.deal)); !d.Archived {
		t.Error("deal not archived")
	}
	if d := mustGet[store.Deal](t)(s.Deal(ctx, w.other)); d.Archived {
		t.Error("archiving Falcon archived Hawk")
	}
	must(t, s.SetDealArchived(ctx, w.deal, false))
	if d := mustGet[store.Deal](t)(s.Deal(ctx, w.deal)); d.Archived {
		t.Error("deal still archived")
	}
	// Deals lists archived deals too: admin finds deals by name in it.
	must(t, s.SetDealArchived(ctx, w.other, true))
	var codenames []string
	for _, d := range mustGet[[]store.Deal](t)(s.Deals(ctx)) {
		codenames = append(codenames, d.Codename)
	}
	if len(codenames) != 2 || !slices.Contains(codenames, "Falcon") || !slices.Contains(codenames, "Hawk") {
		t.Errorf("Deals = %v, want Falcon and the archived Hawk", codenames)
	}
}

func readBlob(t *testing.T, s store.Store, sha string) []byte {
	t.Helper()
	rc, size, err := s.OpenBlob(ctxT(t), sha)
	if err != nil {
		t.Fatalf("OpenBlob(%s): %v", sha, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	must(t, err)
	if int64(len(data)) != size {
		t.Errorf("OpenBlob size %d, read %d bytes", size, len(data))
	}
	return data
}

func testAttachFile(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	m, _, err := s.PostMessage(ctx, store.PostMessage{Message: w.message(w.req21),
		Files: []store.File{{Kind: api.FileKindLink, URL: ptr("https://example.com/a")}}})
	must(t, err)

	data := []byte("certificate of incorporation\x00\xff binary too")
	sum := sha256.Sum256(data)
	want := hex.EncodeToString(sum[:])
	a := mustGet[store.File](t)(s.AttachFile(ctx, store.File{DealID: w.deal, MessageID: m.ID, Name: ptr("cert.pdf"), ContentType: ptr("application/pdf"), Scanned: true}, data))
	b := mustGet[store.File](t)(s.AttachFile(ctx, store.File{DealID: w.deal, MessageID: m.ID, Name: ptr("copy.pdf"), Scanned: false}, data))
	if a.SHA256 != want || b.SHA256 != want {
		t.Errorf("SHA256 = %s, %s; want the content's %s for both (content-addressed)", a.SHA256, b.SHA256, want)
	}
	if a.VersionID == b.VersionID || a.VersionID == "" {
		t.Errorf("version ids %q, %q: want two distinct files", a.VersionID, b.VersionID)
	}
	// Files follow what the message already lists.
	if a.Position != 1 || b.Position != 2 || a.RequestID != w.req21 || a.Kind != api.FileKindFile || *a.Size != int64(len(data)) {
		t.Errorf("attached files = %+v, %+v", a, b)
	}
	if !a.Downloadable() || b.Downloadable() {
		t.Errorf("Downloadable: scanned %v, unscanned %v", a.Downloadable(), b.Downloadable())
	}
	if got := mustGet[store.File](t)(s.File(ctx, w.deal, a.VersionID)); !reflect.DeepEqual(got, a) {
		t.Errorf("File = %+v, want %+v", got, a)
	}
	if got := readBlob(t, s, want); string(got) != string(data) {
		t.Errorf("OpenBlob = %q, want %q", got, data)
	}
	_, err = s.AttachFile(ctx, store.File{DealID: w.other, MessageID: m.ID, Name: ptr("x")}, data)
	wantErr(t, "AttachFile naming another deal", err, store.ErrNotFound)

	// Seeding stores bytes the same way.
	seeded := store.File{VersionID: newID(), DealID: w.deal, RequestID: w.req21, MessageID: m.ID, Position: 3, Kind: api.FileKindFile,
		Name: ptr("scan.txt"), Scanned: true}
	must(t, s.Apply(ctx, func(tx store.AdminTx) error { return tx.PutFile(seeded, []byte("inline text content")) }))
	got := mustGet[store.File](t)(s.File(ctx, w.deal, seeded.VersionID))
	if got.Size == nil || *got.Size != 19 || got.SHA256 == "" {
		t.Fatalf("seeded file = %+v", got)
	}
	if b := readBlob(t, s, got.SHA256); string(b) != "inline text content" {
		t.Errorf("seeded blob = %q", b)
	}
	if n := len(mustGet[[]store.File](t)(s.Files(ctx, w.deal, w.req21))); n != 4 {
		t.Errorf("Files(2.1) = %d, want 4", n)
	}

	// A file larger than one read chunk streams back whole, byte for byte.
	big := make([]byte, 3<<20+12345)
	for i := range big {
		big[i] = byte(i*7 + i/251)
	}
	large := mustGet[store.File](t)(s.AttachFile(ctx, store.File{DealID: w.deal, MessageID: m.ID, Name: ptr("big.bin"), Scanned: true}, big))
	if got := readBlob(t, s, large.SHA256); !bytes.Equal(got, big) {
		t.Errorf("a %d-byte blob read back as %d bytes, equal=%v", len(big), len(got), bytes.Equal(got, big))
	}
}

// migrator is implemented by backends whose schema is migrated.
type migrator interface {
	Migrate(ctx context.Context) error
}

func testMigrate(t *testing.T, s store.Store) {
	m, ok := s.(migrator)
	if !ok {
		t.Skip("the store has no Migrate")
	}
	w := seed(t, s)
	// The store was opened migrated: migrating again is a no-op.
	must(t, m.Migrate(ctxT(t)))
	must(t, m.Migrate(ctxT(t)))
	if r := mustGet[store.Request](t)(s.Request(ctxT(t), w.deal, w.req21)); r.Title != "Audited accounts" {
		t.Errorf("data changed across Migrate: %+v", r)
	}
}
