package service_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/service"
	"github.com/dealctl/dealctl/internal/store"
)

func text(s string) api.Optional[string] { return api.Optional[string]{Value: s, Set: true} }

// reason is an error's params.reason, or "" for an error of another kind.
func reason(err error) string {
	var e *api.ErrorResponse
	if errors.As(err, &e) {
		return e.Reason()
	}
	return ""
}

// A reply by e-mail that a colleague confirms is posted as its writer's,
// with source email and on_behalf, moves the status as any answer does
// and tells the other side how it came in.
func TestAnswerOnBehalfOfAColleague(t *testing.T) {
	onBothStores(t, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		ben := f.actor(t, "falcon", "ben")
		row := f.request(t, "falcon", "1.1")
		m, _, err := f.svc.Answer(ctx, ben, now, row, service.Post{
			In: api.MessageCreate{Text: text("The certificate, as e-mailed by Bella.")}, Source: api.SourceEmail,
			OnBehalfOf: f.ids.People["falcon/bella"], Format: api.FormatText,
		})
		if err != nil {
			t.Fatal(err)
		}
		msgs, err := f.st.Messages(ctx, row.DealID, row.ID)
		if err != nil || len(msgs) != 1 {
			t.Fatalf("messages: %v %+v", err, msgs)
		}
		got := msgs[0]
		if got.ID != m.ID || got.Source != api.SourceEmail || !got.OnBehalf || got.Format != api.FormatText ||
			got.AuthorID == nil || *got.AuthorID != f.ids.People["falcon/bella"] || !got.PostedAt.Equal(now) {
			t.Errorf("stored %+v, want bella's e-mailed reply, on her behalf, at %v", got, now)
		}
		if after := f.request(t, "falcon", "1.1"); after.Status != api.StatusComplete {
			t.Errorf("status %s after a response, want complete", after.Status)
		}
		ns, err := f.st.Notifications(ctx, row.DealID)
		if err != nil {
			t.Fatal(err)
		}
		var to []string
		for _, n := range ns {
			to = append(to, n.Email)
			if !strings.Contains(n.Body, "bella@acme.example posted a response (by e-mail, confirmed by a colleague)") {
				t.Errorf("notification body %q does not say who wrote it and how it came in", n.Body)
			}
		}
		// The owning side's joined people: olivia, oscar and owen.
		if len(to) != 3 || f.posted != 1 {
			t.Errorf("notified %v (worker woken %d times), want the owning side's three, once", to, f.posted)
		}
	})
}

// Only a joined colleague on the actor's own side can be written for.
func TestAnswerOnBehalfOfSomeoneElseIsRefused(t *testing.T) {
	onBothStores(t, func(t *testing.T, f *fixture) {
		ben := f.actor(t, "falcon", "ben")
		row := f.request(t, "falcon", "1.1")
		for _, who := range []string{"olivia", "bruno"} { // the other side; not joined
			_, _, err := f.svc.Answer(context.Background(), ben, now, row, service.Post{
				In: api.MessageCreate{Text: text("Hello")}, Source: api.SourceEmail, OnBehalfOf: f.ids.People["falcon/"+who]})
			if reason(err) != api.ReasonCannotPost {
				t.Errorf("on behalf of %s: %v, want 403 %s", who, err, api.ReasonCannotPost)
			}
		}
		msgs, _ := f.st.Messages(context.Background(), row.DealID, row.ID)
		if len(msgs) != 0 {
			t.Errorf("%d messages written by refused posts", len(msgs))
		}
	})
}

// ActorFor seats only a person who may act: joined, and on an archived
// deal only its project admin.
func TestActorFor(t *testing.T) {
	onBothStores(t, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		for _, c := range []struct {
			deal, user string
			ok         bool
		}{
			{"falcon", "ben", true}, {"falcon", "bruno", false}, {"heron", "olivia", true}, {"heron", "oscar", false},
		} {
			a, err := f.svc.ActorFor(ctx, f.ids.Deals[c.deal], f.ids.People[c.deal+"/"+c.user])
			switch {
			case c.ok && err != nil:
				t.Errorf("%s on %s: %v", c.user, c.deal, err)
			case c.ok && (a.Seat.ID != f.ids.People[c.deal+"/"+c.user] || a.Caller.KeyAccess != api.KeyWrite):
				t.Errorf("%s on %s: seated %+v", c.user, c.deal, a)
			case !c.ok && !errors.Is(err, service.ErrNoSeat):
				t.Errorf("%s on %s: %v, want ErrNoSeat", c.user, c.deal, err)
			}
		}
		// On an archived deal even its project admin may not write.
		olivia := f.actor(t, "heron", "olivia")
		_, _, err := f.svc.Answer(ctx, olivia, now, f.request(t, "heron", "1.1"), service.Post{In: api.MessageCreate{Text: text("x")}})
		if reason(err) != api.ReasonDealArchived {
			t.Errorf("answer on an archived deal: %v, want %s", err, api.ReasonDealArchived)
		}
	})
}

// An internal note stays on its side: no notification, no status move,
// and the counterparty has none to post.
func TestAnswerInternal(t *testing.T) {
	onBothStores(t, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		row := f.request(t, "falcon", "1.1")
		kind := api.Optional[api.MessageKind]{Value: api.MessageInternalNote, Set: true}
		if _, _, err := f.svc.Answer(ctx, f.actor(t, "falcon", "oscar"), now, row, service.Post{In: api.MessageCreate{Text: text("ours"), Kind: kind}}); err != nil {
			t.Fatal(err)
		}
		ns, _ := f.st.Notifications(ctx, row.DealID)
		if after := f.request(t, "falcon", "1.1"); after.Status != api.StatusOpen || len(ns) != 0 || f.posted != 0 {
			t.Errorf("an internal note moved the status to %s or notified %d", after.Status, len(ns))
		}
		_, _, err := f.svc.Answer(ctx, f.actor(t, "falcon", "ben"), now, row, service.Post{In: api.MessageCreate{Text: text("theirs"), Kind: kind}})
		if reason(err) != api.ReasonInternalNotAllowed {
			t.Errorf("counterparty's internal note: %v", err)
		}
	})
}

// An update with a precondition that fails writes nothing; one that
// sends nothing writes nothing either but still answers the precondition.
func TestUpdateRequestPrecondition(t *testing.T) {
	onBothStores(t, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		olivia := f.actor(t, "falcon", "olivia")
		row := f.request(t, "falcon", "1.1")
		stale := errors.New("stale")
		refuse := func(store.Request) error { return stale }
		in := api.DealRequestUpdate{Title: text("Certificate, certified")}
		if _, err := f.svc.UpdateRequest(ctx, olivia, now, row, in, refuse); !errors.Is(err, stale) {
			t.Fatalf("failed precondition: %v", err)
		}
		if _, err := f.svc.UpdateRequest(ctx, olivia, now, row, api.DealRequestUpdate{}, refuse); !errors.Is(err, stale) {
			t.Fatalf("an empty update does not answer the precondition: %v", err)
		}
		if got := f.request(t, "falcon", "1.1"); got.Title != row.Title || !got.UpdatedAt.Equal(row.UpdatedAt) {
			t.Errorf("a refused update wrote: %+v", got)
		}
		updated, err := f.svc.UpdateRequest(ctx, olivia, now, row, in, nil)
		if err != nil || updated.Title != "Certificate, certified" || !updated.UpdatedAt.Equal(now) {
			t.Errorf("update: %v %+v", err, updated)
		}
		// The counterparty may not edit, whatever it sends.
		if _, err := f.svc.UpdateRequest(ctx, f.actor(t, "falcon", "ben"), now, row, in, nil); reason(err) != api.ReasonCannotEditRequest {
			t.Errorf("counterparty edit: %v", err)
		}
	})
}

// An answer from a sheet (the body's source import) is the owning side's
// to post, whichever door it comes by; it reads as plain text.
func TestAnswerImported(t *testing.T) {
	onBothStores(t, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		row := f.request(t, "falcon", "1.1")
		in := api.MessageCreate{Text: text("From the sheet"), Source: api.Some(api.SourceImport), UpdateStatus: api.Some(false)}
		if _, _, err := f.svc.Answer(ctx, f.actor(t, "falcon", "ben"), now, row, service.Post{In: in}); reason(err) != api.ReasonImportNotAllowed {
			t.Errorf("counterparty's import: %v, want %s", err, api.ReasonImportNotAllowed)
		}
		if _, _, err := f.svc.Answer(ctx, f.actor(t, "falcon", "owen"), now, row, service.Post{In: in}); reason(err) != api.ReasonCannotPost {
			t.Errorf("viewer's import: %v, want %s", err, api.ReasonCannotPost)
		}
		m, _, err := f.svc.Answer(ctx, f.actor(t, "falcon", "oscar"), now, row, service.Post{In: in, Source: api.SourceAPI})
		if err != nil || m.Source != api.SourceImport || m.Format != api.FormatText {
			t.Fatalf("owner's import: %v %+v", err, m)
		}
		msgs, _ := f.st.Messages(ctx, row.DealID, row.ID)
		if len(msgs) != 1 || f.request(t, "falcon", "1.1").Status != api.StatusOpen {
			t.Errorf("%d messages, status %s; want the one import, the status left alone", len(msgs), f.request(t, "falcon", "1.1").Status)
		}
		bad := api.MessageCreate{Text: text("x"), Source: api.Some(api.SourceEmail)}
		_, _, err = f.svc.Answer(ctx, f.actor(t, "falcon", "oscar"), now, row, service.Post{In: bad})
		var e *api.ErrorResponse
		if !errors.As(err, &e) || e.Code != api.CodeValidationFailed || len(e.Fields) != 1 || e.Fields[0].Path != "source" {
			t.Errorf("a body naming source email: %v, want 422 on source", err)
		}
	})
}
