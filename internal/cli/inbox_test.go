package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
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
		Sender: "bob@acme.example", Subject: "Re: 1.1", Text: "The certificate is in the data room.\x1b[31m\n",
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
	// -o tsv: one row, the text's closing newline not a trailing blank.
	r = runAs(t, ts.URL, bobFalconKey, runOpts{}, "inbox", "ls", "-o", "tsv")
	if r.code != 0 || !strings.HasSuffix(r.out, "The certificate is in the data room.\x1b[31m\n") {
		t.Errorf("bob's inbox, -o tsv: %d\n%q%s", r.code, r.out, r.err)
	}
	if r := runAs(t, ts.URL, bobFalconKey, runOpts{}, "inbox", "show", h.ID[:13]); r.code != 0 || !strings.Contains(r.out, "1.1") {
		t.Errorf("show by the id's start: %d\n%s%s", r.code, r.out, r.err)
	}
	// An empty id is refused before any call; the start of one too short
	// to be taken for it says so (not "no reply waits").
	for _, id := range []string{"", " "} {
		if r := runAs(t, ts.URL, bobFalconKey, runOpts{}, "inbox", "post", id); r.code != cmdutil.ExitUsage || !strings.Contains(r.err, "ID is empty") {
			t.Errorf("post %q: %d\n%s", id, r.code, r.err)
		}
	}
	if r := runAs(t, ts.URL, bobFalconKey, runOpts{}, "inbox", "show", h.ID[:2]); r.code != cmdutil.ExitUsage || !strings.Contains(r.err, "too short") {
		t.Errorf("show by 2 characters: %d\n%s", r.code, r.err)
	}
	// What cannot start an id is a usage error, as import undo's run id;
	// the start of one that names no held reply is not found (exit 3) as
	// requests show's unknown number, and --json says which, not a bare
	// not_found. Neither is sent to the server as an id.
	none := "ffff"
	if strings.HasPrefix(h.ID, none) {
		none = "0000"
	}
	held := "GET /api/v1/deals/" + ts.dealID() + "/held-replies/"
	sent := ts.callsTo(held)
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"show", "zz!!"}, cmdutil.ExitUsage, `dealctl: "zz!!" is not a held reply's id: give its id or the start of one ('dealctl inbox ls' lists them)` + "\n"},
		{[]string{"show", " "}, cmdutil.ExitUsage, `dealctl: the held reply's ID is empty: give its id or the start of one ('dealctl inbox ls' lists them)` + "\n"},
		{[]string{"discard", h.ID + "0", "--json"}, cmdutil.ExitUsage, `{"code":"bad_request","params":{"message":"\"` + h.ID + `0\" is not a held reply's id: give its id or the start of one ('dealctl inbox ls' lists them)"}}` + "\n"},
		{[]string{"show", none}, cmdutil.ExitNotFound, `dealctl: no reply by e-mail whose id starts "` + none + `" waits for your side on this deal: 'dealctl inbox ls' lists those that do` + "\n"},
		{[]string{"show", none, "--json"}, cmdutil.ExitNotFound, `{"code":"not_found","params":{"message":"no reply by e-mail whose id starts \"` + none + `\" waits for your side on this deal: 'dealctl inbox ls' lists those that do"}}` + "\n"},
	} {
		r := runAs(t, ts.URL, bobFalconKey, runOpts{}, append([]string{"inbox"}, c.args...)...)
		if r.code != c.code || r.err != c.err {
			t.Errorf("inbox %s: exit %d %q, want exit %d %q", strings.Join(c.args, " "), r.code, r.err, c.code, c.err)
		}
	}
	if n := ts.callsTo(held) - sent; n != 0 {
		t.Errorf("%d held replies asked for by what is not an id", n)
	}
	r = runAs(t, ts.URL, bobFalconKey, runOpts{}, "inbox", "post", h.ID, "-o", "json")
	var m api.Message
	if r.code != 0 || json.Unmarshal([]byte(r.out), &m) != nil || m.Source != api.SourceEmail || m.OnBehalf {
		t.Fatalf("post: %d %+v\n%s%s", r.code, m, r.out, r.err)
	}
	// Decided already: a second post, or a discard, says so and what to
	// do (not "read it again and retry"); --json is the server's answer.
	for _, verb := range []string{"post", "discard"} {
		r := runAs(t, ts.URL, bobFalconKey, runOpts{}, "inbox", verb, h.ID)
		if r.code != cmdutil.ExitConflict || !strings.Contains(r.err, "not held any more (posted or discarded already") || !strings.Contains(r.err, "'dealctl inbox ls'") {
			t.Errorf("%s once posted: %d\n%s", verb, r.code, r.err)
		}
	}
	r = runAs(t, ts.URL, bobFalconKey, runOpts{}, "inbox", "discard", h.ID, "--json")
	if r.code != cmdutil.ExitConflict || !strings.Contains(r.err, `"reason":"reply_not_held"`) {
		t.Errorf("discard once posted, --json: %d\n%s", r.code, r.err)
	}
	// Not found keeps the server's answer under --json too.
	r = runAs(t, ts.URL, testKey, runOpts{}, "inbox", "show", h.ID, "--json")
	if r.code != cmdutil.ExitNotFound || !strings.Contains(r.err, `"code":"not_found"`) || strings.Contains(r.err, "params") {
		t.Errorf("the other side shows, --json: %d\n%s", r.code, r.err)
	}
}

// TestHeldReplyRefusalsSayWhatToDo: the refusals of the held-replies
// calls are worded for the inbox (and the TUI's inbox, which describes
// errors the same way), not as a path that failed.
func TestHeldReplyRefusalsSayWhatToDo(t *testing.T) {
	for _, c := range []struct {
		status int
		code   api.ErrorCode
		reason string
		want   string
	}{
		{403, api.CodeForbidden, api.ReasonCannotConfirmReply, "only admins and editors of a side may see, post or discard its replies by e-mail"},
		{409, api.CodeConflict, api.ReasonReplyNotHeld, "not held any more"},
		{409, api.CodeConflict, api.ReasonReplyExpired, "expired"},
		{409, api.CodeConflict, api.ReasonSenderCannotAnswer, "may no longer answer"},
	} {
		err := &client.Error{StatusCode: c.status, Method: "POST", URL: "http://x/api/v1/deals/d/held-replies/h/post",
			Response: api.NewError(c.code, c.reason), Decoded: true}
		if got := describeError(err); !strings.Contains(got, c.want) || strings.Contains(got, "/held-replies/") {
			t.Errorf("%s: %q", c.reason, got)
		}
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
