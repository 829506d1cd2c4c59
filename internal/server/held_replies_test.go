package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// hold writes a reply by e-mail of user on the request, as the mail
// receiver holds one (internal/mailin), with one attachment.
func (e *env) hold(t *testing.T, dealNumber, dealUser string) string {
	t.Helper()
	ctx := context.Background()
	info, err := e.st.PutBlob(ctx, strings.NewReader("%PDF-1.4 accounts"))
	if err != nil {
		t.Fatal(err)
	}
	deal := strings.SplitN(dealNumber, "/", 2)[0]
	now := e.clock.Now()
	h := store.HeldReply{ID: store.NewID(), Token: store.NewID(), DealID: e.deal(deal), RequestID: e.row(dealNumber),
		PersonID: e.person(dealUser), Sender: "someone@acme.example", Subject: "Re: accounts", Text: "Attached, signed.",
		ConfirmHash: "x", ConfirmExpires: now.Add(24 * 3600e9), CreatedAt: now, ExpiresAt: now.Add(7 * 24 * 3600e9),
		Files: []store.HeldFile{{Name: "accounts.pdf", ContentType: "application/pdf", SHA256: info.SHA256, Size: info.Size}}}
	if err := e.st.HoldReply(ctx, h, store.Notification{DealID: h.DealID, PersonID: h.PersonID, Email: "x@acme.example", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	return h.ID
}

func heldPath(deal, id string) string { return dealPath(deal) + "/held-replies/" + id }

// TestHeldRepliesInbox: a colleague of the same side lists the held reply
// and posts it for its sender (on_behalf, source email, the file
// attached); once decided it cannot be decided again; the other side
// does not reach it; a viewer is refused.
func TestHeldRepliesInbox(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	id := e.hold(t, "falcon/1.1", "falcon/bella")
	other := e.hold(t, "falcon/1.1", "falcon/bella")

	var list []api.HeldReply
	e.as(t, "ben-write").get(dealPath(falcon) + "/held-replies").want(http.StatusOK).into(&list)
	if len(list) != 2 || list[0].ID != id || list[0].RequestNumber != "1.1" || list[0].Text != "Attached, signed." ||
		list[0].Sender == nil || list[0].Sender.Email != "bella@acme.example" || len(list[0].Files) != 1 {
		t.Fatalf("ben's inbox: %+v", list)
	}
	// The owning side sees none of the counterparty's held replies.
	var theirs []api.HeldReply
	e.as(t, "olivia-write").get(dealPath(falcon) + "/held-replies").want(http.StatusOK).into(&theirs)
	if len(theirs) != 0 {
		t.Errorf("the other side lists %d held replies", len(theirs))
	}
	e.as(t, "olivia-write").get(heldPath(falcon, id)).want(http.StatusNotFound)
	e.as(t, "olivia-write").post(heldPath(falcon, id)+"/post", nil).want(http.StatusNotFound)
	// A viewer of the same side may not confirm, nor list.
	e.as(t, "bianca-write").get(dealPath(falcon)+"/held-replies").wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonCannotConfirmReply)
	e.as(t, "bianca-write").post(heldPath(falcon, id)+"/post", nil).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonCannotConfirmReply)
	// A read key lists but does not post.
	e.as(t, "bella-read").post(heldPath(falcon, id)+"/post", nil).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonReadOnlyKey)

	m := e.as(t, "ben-write").post(heldPath(falcon, id)+"/post", nil).want(http.StatusCreated).message()
	if m.Source != api.SourceEmail || !m.OnBehalf || m.Format != api.FormatText || m.Author == nil || m.Author.Email != "bella@acme.example" ||
		len(m.Files) != 1 || m.Files[0].Name == nil || *m.Files[0].Name != "accounts.pdf" || !m.Files[0].Downloadable {
		t.Fatalf("posted: %+v", m)
	}
	e.as(t, "ben-write").post(heldPath(falcon, id)+"/post", nil).wantErr(http.StatusConflict, api.CodeConflict, api.ReasonReplyNotHeld)
	e.as(t, "bella-write").post(heldPath(falcon, id)+"/discard", nil).wantErr(http.StatusConflict, api.CodeConflict, api.ReasonReplyNotHeld)

	var discarded api.HeldReply
	e.as(t, "bella-write").post(heldPath(falcon, other)+"/discard", nil).want(http.StatusOK).into(&discarded)
	if discarded.State != store.HeldStateDiscarded {
		t.Errorf("discarded: %+v", discarded)
	}
	msgs := e.as(t, "olivia-write").get(messagesPath(falcon, e.row("falcon/1.1"))).want(http.StatusOK).messages()
	posted := 0
	for _, mm := range msgs {
		if mm.Source == api.SourceEmail && mm.OnBehalf {
			posted++
		}
	}
	if posted != 1 {
		t.Errorf("the owning side sees %d replies posted by e-mail, want 1", posted)
	}
	e.as(t, "ben-write").get(dealPath(falcon) + "/held-replies").want(http.StatusOK).into(&list)
	if len(list) != 0 {
		t.Errorf("decided replies still listed: %+v", list)
	}
}
