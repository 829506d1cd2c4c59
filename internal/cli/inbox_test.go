package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// TestInboxPostsAHeldReply: bob's side lists his reply by e-mail, shows
// it by the start of its id, and posts it (source email); the other
// side's inbox is empty and its post is refused as not found; a second
// post is a conflict.
func TestInboxPostsAHeldReply(t *testing.T) {
	db, ids := seededDB(t, filepath.Join("testdata", "falcon.yaml"), falconAppliedAt)
	ts := startServerOn(t, db, ids, "falcon", fixedTime, server.Config{})
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := store.HeldReply{ID: store.NewID(), Token: store.NewID(), DealID: ts.dealID(), RequestID: ts.id("1.1"), PersonID: ts.person("bob"),
		Sender: "bob@acme.example", Subject: "Re: 1.1", Text: "The certificate is in the data room.\x1b[31m",
		ConfirmHash: "x", ConfirmExpires: fixedTime.Add(24 * 3600e9), CreatedAt: fixedTime, ExpiresAt: fixedTime.Add(7 * 24 * 3600e9)}
	if err := st.HoldReply(ctx, h, store.Notification{DealID: h.DealID, PersonID: h.PersonID, Email: "bob@acme.example", CreatedAt: fixedTime}); err != nil {
		t.Fatal(err)
	}

	r := runAs(t, ts.URL, testKey, runOpts{}, "inbox", "ls")
	if r.code != 0 || strings.Contains(r.out, h.ID) {
		t.Fatalf("the other side's inbox: %d\n%s%s", r.code, r.out, r.err)
	}
	if r := runAs(t, ts.URL, testKey, runOpts{}, "inbox", "post", h.ID); r.code != cmdutil.ExitNotFound || !strings.Contains(r.err, "'dealctl inbox ls'") {
		t.Errorf("the other side posts: %d\n%s", r.code, r.err)
	}
	r = runAs(t, ts.URL, bobFalconKey, runOpts{}, "inbox", "ls")
	if r.code != 0 || !strings.Contains(r.out, h.ID) || !strings.Contains(r.out, "The certificate is in the data room.") || strings.Contains(r.out, "\x1b") {
		t.Fatalf("bob's inbox: %d\n%q%s", r.code, r.out, r.err)
	}
	if r := runAs(t, ts.URL, bobFalconKey, runOpts{}, "inbox", "show", h.ID[:13]); r.code != 0 || !strings.Contains(r.out, "1.1") {
		t.Errorf("show by the id's start: %d\n%s%s", r.code, r.out, r.err)
	}
	r = runAs(t, ts.URL, bobFalconKey, runOpts{}, "inbox", "post", h.ID, "-o", "json")
	var m api.Message
	if r.code != 0 || json.Unmarshal([]byte(r.out), &m) != nil || m.Source != api.SourceEmail || m.OnBehalf {
		t.Fatalf("post: %d %+v\n%s%s", r.code, m, r.out, r.err)
	}
	if r := runAs(t, ts.URL, bobFalconKey, runOpts{}, "inbox", "post", h.ID); r.code != cmdutil.ExitConflict {
		t.Errorf("a second post: %d\n%s", r.code, r.err)
	}
}

// TestInboxNeedsTheExtension: a server that does not hold replies is
// told, not called.
func TestInboxNeedsTheExtension(t *testing.T) {
	ts := newFalcon(t)
	ts.set(func(ts *liveAPI) { ts.hideExt = true })
	r := run(t, ts, runOpts{}, "inbox", "ls")
	if r.code != cmdutil.ExitFailure || !strings.Contains(r.err, "does not take replies by e-mail") {
		t.Fatalf("%d\n%s", r.code, r.err)
	}
	if n := ts.callsTo("/api/v1/deals/" + ts.dealID() + "/held-replies"); n != 0 {
		t.Errorf("%d calls to held-replies", n)
	}
}
