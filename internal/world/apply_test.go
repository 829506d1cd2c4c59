package world

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/keys"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

func TestContractExampleJSONShape(t *testing.T) {
	db := openStore(t)
	res := applyExample(t, db, testNow)
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	wantNames := map[string][]string{
		"organizations": {"acme", "target"}, "users": {"alice", "bob"}, "deals": {"falcon"},
		"people": {"falcon/alice", "falcon/bob"}, "requests": {"falcon/1", "falcon/1.1"},
		"keys": {"alice-write", "bob-read", "fixed", "old"},
	}
	if len(doc) != len(wantNames) {
		t.Errorf("top-level keys %v; want exactly %v", sortedKeys(doc), sortedKeys(wantNames))
	}
	for section, names := range wantNames {
		if got := sortedKeys(doc[section]); !reflect.DeepEqual(got, names) {
			t.Errorf("%s: %v, want %v", section, got, names)
		}
	}
	for name, v := range doc["keys"] {
		k := v.(map[string]any)
		secret, _ := k["secret"].(string)
		if k["id"] == "" || !strings.HasPrefix(secret, "dlk_") || k["prefix"] != keys.Prefix(secret) || len(k) != 3 {
			t.Errorf("key %s: %v; want id, secret and its prefix", name, k)
		}
	}
	if doc["keys"]["fixed"].(map[string]any)["secret"] != "dlk_test0000000000000000000000000000" {
		t.Errorf("the explicit secret was not kept: %v", doc["keys"]["fixed"])
	}
}

// snapshot is everything a world writes, read back through the store.
type snapshot struct {
	Parties  []store.Party
	People   []store.Person
	Requests []store.Request
	Messages []store.Message
	Files    []store.File
	Keys     []store.APIKey
	Deal     store.Deal
}

func takeSnapshot(t *testing.T, db *sqlstore.DB, dealID string) snapshot {
	t.Helper()
	ctx := context.Background()
	var s snapshot
	var err error
	must := func(e error) {
		if e != nil && err == nil {
			err = e
		}
	}
	s.Parties, err = db.Parties(ctx, dealID)
	var e error
	s.People, e = db.People(ctx, dealID)
	must(e)
	s.Requests, e = db.Requests(ctx, dealID)
	must(e)
	s.Messages, e = dealMessages(ctx, db, dealID)
	must(e)
	s.Files, e = db.Files(ctx, dealID, "")
	must(e)
	s.Keys, e = db.APIKeys(ctx, "")
	must(e)
	s.Deal, e = db.Deal(ctx, dealID)
	must(e)
	if err != nil {
		t.Fatal(err)
	}
	s.Deal.Version, s.Deal.SharedVersion = 0, 0 // every apply bumps them, so that caches notice
	return s
}

func TestApplyTwiceChangesNothing(t *testing.T) {
	db := openStore(t)
	first := applyExample(t, db, testNow)
	before := takeSnapshot(t, db, first.Deals["falcon"])
	if n := [...]int{len(before.Parties), len(before.People), len(before.Requests), len(before.Messages), len(before.Files), len(before.Keys)}; n != [...]int{2, 2, 2, 1, 3, 4} {
		t.Fatalf("rows after one apply (parties, people, requests, messages, files, keys) = %v", n)
	}
	second := applyExample(t, db, testNow.Add(time.Hour))
	after := takeSnapshot(t, db, first.Deals["falcon"])
	if !reflect.DeepEqual(before, after) {
		t.Errorf("a second apply changed rows:\nbefore %+v\nafter  %+v", before, after)
	}
	for name, k := range second.Keys {
		if k.ID != first.Keys[name].ID || k.Prefix != first.Keys[name].Prefix {
			t.Errorf("key %s changed: %+v then %+v", name, first.Keys[name], k)
		}
		if name != "fixed" && k.Secret != "" {
			t.Errorf("key %s: an existing key's secret was shown again", name)
		}
	}
	first.Keys, second.Keys = nil, nil
	if !reflect.DeepEqual(first, second) {
		t.Errorf("ids differ between applies:\n%+v\n%+v", first, second)
	}
}

func TestApplyStoresWhatTheFileSays(t *testing.T) {
	db := openStore(t)
	ctx := context.Background()
	res := applyExample(t, db, testNow)
	dealID := res.Deals["falcon"]
	r, err := db.Request(ctx, dealID, res.Requests["falcon/1.1"])
	if err != nil {
		t.Fatal(err)
	}
	if r.ParentID == nil || *r.ParentID != res.Requests["falcon/1"] || r.Status != api.StatusOpen || r.StatusChangedAt != nil ||
		!r.CreatedAt.Equal(testNow) || *r.DueDate != "2026-12-01" || *r.Requester != "Lex & Co" || *r.AssigneeID != res.People["falcon/bob"] {
		t.Errorf("request 1.1 = %+v", r)
	}
	msgs, _ := db.Messages(ctx, dealID, r.ID)
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	m := msgs[0]
	if m.Source != api.SourceEmail || m.Format != api.FormatText || !m.Partial || m.Internal || *m.AuthorID != res.People["falcon/bob"] || !m.PostedAt.Before(testNow) {
		t.Errorf("message = %+v", m)
	}
	files, _ := db.Files(ctx, dealID, r.ID)
	byName := map[string]store.File{}
	for _, f := range files {
		byName[*f.Name] = f
	}
	if l := byName["Registry"]; l.Kind != api.FileKindLink || *l.URL != "https://example.com/doc" || l.Downloadable() {
		t.Errorf("link = %+v", l)
	}
	if f := byName["cert.pdf"]; !f.Downloadable() || *f.ContentType != "application/pdf" {
		t.Errorf("cert.pdf = %+v", f)
	}
	scan := byName["scan.txt"]
	if scan.Downloadable() || *scan.Size != int64(len("inline text content")) {
		t.Errorf("scan.txt = %+v (scanned: false must not be downloadable)", scan)
	}
	rc, _, err := db.OpenBlob(ctx, scan.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(rc)
	rc.Close()
	if string(data) != "inline text content" {
		t.Errorf("blob = %q", data)
	}
	if n, _ := db.Notifications(ctx, dealID); len(n) != 0 {
		t.Errorf("seeded messages were notified: %d outbox rows", len(n))
	}
}

func TestKeysAuthenticate(t *testing.T) {
	db := openStore(t)
	ctx := context.Background()
	res := applyExample(t, db, testNow)
	for name, k := range res.Keys {
		stored, err := db.APIKeyByPrefix(ctx, k.Prefix)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if stored.ID != k.ID || !keys.Matches(k.Secret, stored.Hash) || keys.Matches(k.Secret+"x", stored.Hash) {
			t.Errorf("%s: the secret does not match the stored hash", name)
		}
	}
	want := map[string]struct {
		expires time.Time
		deals   []string
		access  api.KeyAccess
	}{
		"alice-write": {testNow.Add(90 * 24 * time.Hour), nil, api.KeyWrite},
		"bob-read":    {testNow.Add(720 * time.Hour), []string{res.Deals["falcon"]}, api.KeyRead},
		"old":         {time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), nil, api.KeyWrite},
	}
	for name, w := range want {
		k, _ := db.APIKeyByPrefix(ctx, res.Keys[name].Prefix)
		if !k.ExpiresAt.Equal(w.expires) || !reflect.DeepEqual(k.DealIDs, w.deals) || k.Access != w.access {
			t.Errorf("%s: expires %v, deals %v, access %s; want %v, %v, %s", name, k.ExpiresAt, k.DealIDs, k.Access, w.expires, w.deals, w.access)
		}
	}
}

func TestApplyUpdates(t *testing.T) {
	db := openStore(t)
	ctx := context.Background()
	first := applyExample(t, db, testNow)
	w := loadExample(t)
	d := &w.Deals[0]
	d.Requests[1].Title, d.Requests[1].Status = "Certificate of incorporation (certified)", "complete"
	d.Requests[1].Messages[0].Text = "Corrected text."
	d.Requests = append(d.Requests, Request{Number: "1.2", Title: "Register of members", DueDate: "+7d"})
	w.Keys[0].Name = "CI (renamed)"
	later := testNow.Add(2 * time.Hour)
	res, err := Apply(ctx, db, w, "../../testdata/worlds", later)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := db.Request(ctx, res.Deals["falcon"], first.Requests["falcon/1.1"])
	if r.Title != "Certificate of incorporation (certified)" || r.Status != api.StatusComplete ||
		r.StatusChangedAt == nil || !r.StatusChangedAt.Equal(later) || !r.UpdatedAt.Equal(later) || !r.CreatedAt.Equal(testNow) {
		t.Errorf("updated request = %+v", r)
	}
	msgs, _ := db.Messages(ctx, res.Deals["falcon"], r.ID)
	if len(msgs) != 1 || msgs[0].Text != "Corrected text." {
		t.Errorf("messages after update = %+v", msgs)
	}
	added, err := db.Request(ctx, res.Deals["falcon"], res.Requests["falcon/1.2"])
	if err != nil || *added.DueDate != "2026-03-17" || *added.ParentID != first.Requests["falcon/1"] {
		t.Errorf("added request = %+v, %v", added, err)
	}
	k, _ := db.APIKeyByPrefix(ctx, first.Keys["alice-write"].Prefix)
	if k.Name != "CI (renamed)" || !keys.Matches(first.Keys["alice-write"].Secret, k.Hash) {
		t.Errorf("renamed key = %+v (its secret must not change)", k)
	}
}

func TestApplyReportsUnreadableFiles(t *testing.T) {
	db := openStore(t)
	w := loadExample(t)
	w.Deals[0].Requests[1].Messages[0].Files[0].Path = "files/missing.pdf"
	_, err := Apply(context.Background(), db, w, "../../testdata/worlds", testNow)
	var inv *InvalidError
	if !errors.As(err, &inv) || !strings.Contains(err.Error(), `deals[0].requests[1].messages[0].files[0].path: cannot read "files/missing.pdf"`) {
		t.Errorf("Apply() = %v", err)
	}
	if _, err := db.Ref(context.Background(), RefDeal, "falcon"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a failed apply wrote something: %v", err)
	}
}

func TestExplicitSecretTakenByAnotherKey(t *testing.T) {
	db := openStore(t)
	applyExample(t, db, testNow)
	w := loadExample(t)
	w.Keys[3].Secret = "dlk_test0000000000000000000000000009" // same prefix as key "fixed"
	w.Keys = w.Keys[3:]
	w.Keys[0].ExpiresAt = ""
	_, err := Apply(context.Background(), db, w, "../../testdata/worlds", testNow)
	if err == nil || !strings.Contains(err.Error(), `keys[0].secret: another key in the database starts with "dlk_test0000"`) {
		t.Errorf("Apply() = %v", err)
	}
}
