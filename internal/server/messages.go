package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// listMessages answers a request's conversation as the caller may see it:
// the other side's internal messages are left out.
func (s *Server) listMessages(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx := r.Context()
	dc, row, err := s.reachRequest(ctx, c, r)
	if err != nil {
		return err
	}
	etag := etagOf("messages", row.ID, versionFor(dc), viewClass(dc))
	if notModified(w, r, etag) {
		return nil
	}
	msgs, err := s.store.Messages(ctx, dc.deal.ID, row.ID)
	if err != nil {
		return err
	}
	files, err := s.store.VisibleFiles(ctx, dc.deal.ID, row.ID, dc.seat.PartyID)
	if err != nil {
		return err
	}
	view := newDealView(dc)
	filesBy := map[string][]store.File{}
	for _, f := range files {
		filesBy[f.MessageID] = append(filesBy[f.MessageID], f)
	}
	out := make([]api.Message, 0, len(msgs))
	for _, m := range msgs {
		if dc.caller.MaySeeMessage(m.PartyID, m.Internal) {
			out = append(out, view.message(m, filesBy[m.ID]))
		}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// postMessage posts under the key owner's name with source api. A
// response moves the request's status (docs/api.md#states-and-transitions); a shared message
// notifies the other side.
func (s *Server) postMessageCall() create {
	return create{authorize: s.authorizePost, perform: s.postMessage, replay: s.replayMessage}
}

// authorizePost: who may post is known before the body is read, so a
// viewer's body is never read, let alone decoded. (Answer does not depend
// on the request's status, so a repeat of a post that moved it is
// authorized as the first was.)
func (s *Server) authorizePost(ctx context.Context, r *http.Request, c *call) (*target, error) {
	dc, row, err := s.reachRequest(ctx, c, r)
	if err != nil {
		return nil, err
	}
	if err := denyWrite(dc); err != nil {
		return nil, err
	}
	if !dc.caller.Can(row.Kind, row.Status).Answer {
		return nil, api.NewError(api.CodeForbidden, api.ReasonCannotPost)
	}
	return &target{dc: dc, row: row}, nil
}

func (s *Server) postMessage(w http.ResponseWriter, r *http.Request, t *target) error {
	ctx, dc, row := r.Context(), t.dc, t.row
	var in api.MessageCreate
	if err := decodeBody(r, &in); err != nil {
		return err
	}
	kind := orDefault(in.Kind, api.MessageResponse)
	internal := boolOr(in.Internal, false) || kind == api.MessageInternalNote
	if internal && !dc.caller.MayPostInternal() {
		return api.NewError(api.CodeForbidden, api.ReasonInternalNotAllowed)
	}
	var errs fieldErrors
	enum(&errs, "kind", in.Kind, api.MessageKinds)
	errs.text("text", in.Text, domain.BodyRule)
	errs.links(in.Links)
	for _, name := range []struct {
		path string
		o    api.Optional[bool]
	}{{"partial", in.Partial}, {"internal", in.Internal}, {"update_status", in.UpdateStatus}} {
		if name.o.Set && name.o.Null {
			errs.add(name.path, api.FieldInvalid, map[string]any{"expected": "boolean"})
		}
	}
	if err := errs.err(); err != nil {
		return err
	}
	if domain.IsBlank(in.Text.Value) && len(in.Links.Value) == 0 {
		return api.NewError(api.CodeBadRequest, api.ReasonEmptyMessage)
	}
	now := s.now().UTC()
	partial := boolOr(in.Partial, false)
	m := store.Message{
		DealID: dc.deal.ID, RequestID: row.ID, PartyID: dc.seat.PartyID, AuthorID: &dc.seat.ID,
		Kind: kind, Partial: partial, Internal: internal, Source: api.SourceAPI,
		Text: in.Text.Value, Format: api.FormatMarkdown, PostedAt: now,
	}
	post := store.PostMessage{Message: m, Files: linkFiles(in.Links.Value)}
	// A shared response moves the status (docs/api.md#states-and-transitions),
	// within what the caller may move it to from where the request is when
	// the message is stored: the counterparty answering a complete request
	// in part does not reopen it, since reopening belongs to the owning
	// side.
	if to, moves := domain.AnswerMove(kind, partial, internal, boolOr(in.UpdateStatus, true)); moves {
		post.MoveStatus = &to
		post.AllowMove = func(from api.RequestStatus) bool {
			return slices.Contains(dc.caller.AllowedStatuses(row.Kind, from), to)
		}
	}
	// The deal's people, read once, serve the notifications and the
	// author shown in the answer.
	people := dc.people // read afresh for a write, by reachDeal
	if !internal {
		post.Notify = func(stored store.Message) []store.Notification {
			return notificationsFor(people, dc, row, stored, now)
		}
	}
	stored, _, err := s.store.PostMessage(ctx, post)
	if err != nil {
		return err
	}
	if post.Notify != nil && s.posted != nil {
		s.posted()
	}
	// The message's files are its links, as just written: nothing to
	// read back.
	mine := make([]store.File, len(post.Files))
	for i, f := range post.Files {
		f.DealID, f.RequestID, f.MessageID, f.Position = stored.DealID, stored.RequestID, stored.ID, i
		mine[i] = f
	}
	writeJSON(w, http.StatusCreated, newDealView(dc).message(stored, mine))
	return nil
}

func boolOr(o api.Optional[bool], def bool) bool {
	if !o.Set || o.Null {
		return def
	}
	return o.Value
}

// linkFiles stores a message's links as files of kind link. Their ids
// are chosen here, so that the answer can show them without reading them
// back.
func linkFiles(links []api.Link) []store.File {
	out := make([]store.File, 0, len(links))
	for _, l := range links {
		u := l.URL
		name := l.Label
		if name == nil {
			name = &u
		}
		out = append(out, store.File{VersionID: uuid.Must(uuid.NewV7()).String(), Kind: api.FileKindLink, Name: name, URL: &u})
	}
	return out
}

// notificationsFor writes one outbox row per joined person of the other
// side(s) of the deal.
func notificationsFor(people []store.Person, dc *dealCall, req store.Request, m store.Message, now time.Time) []store.Notification {
	var out []store.Notification
	who := dc.user.Email
	for _, p := range people {
		if p.PartyID == dc.seat.PartyID || !p.Joined || p.Email == "" {
			continue
		}
		out = append(out, store.Notification{
			PersonID: p.ID, Email: p.Email,
			Subject:       notificationSubject(dc, req, m),
			Body:          notificationBody(dc, req, m, who),
			NextAttemptAt: now, CreatedAt: now,
		})
	}
	return out
}

// notifiedTitleLen bounds a title in a notification, as the digest does.
const notifiedTitleLen = 120

// notificationSubject and notificationBody are what the other side's
// mail or webhook says. Titles, numbers, names and text come from people
// on the deal: each one-line field is cleaned as the digest cleans its
// lines (termsafe.OneLine: no CR or LF, controls and bidi overrides shown
// visibly) and the message's text as the terminal view shows it, before
// the outbox stores them, so every notifier gets clean text.
func notificationSubject(dc *dealCall, req store.Request, m store.Message) string {
	return fmt.Sprintf("[%s] %s %s: new %s", termsafe.OneLine(dc.deal.Codename, notifiedTitleLen), termsafe.OneLine(req.Number, 0),
		termsafe.OneLine(req.Title, notifiedTitleLen), m.Kind)
}

func notificationBody(dc *dealCall, req store.Request, m store.Message, who *string) string {
	author := "someone"
	if who != nil {
		author = termsafe.OneLine(*who, 0)
	}
	return fmt.Sprintf("%s posted a %s (%s) on %s %s in %s:\n\n%s\n", author, m.Kind, sourceWords(m), termsafe.OneLine(req.Number, 0),
		termsafe.OneLine(req.Title, notifiedTitleLen), termsafe.OneLine(dc.deal.Name, notifiedTitleLen), termsafe.Text(domain.Preview(m.Text)))
}

// sourceWords says in a notification how a message came: by the API, or
// by e-mail (confirmed by a colleague when on_behalf).
func sourceWords(m store.Message) string {
	switch {
	case m.Source == api.SourceEmail && m.OnBehalf:
		return "by e-mail, confirmed by a colleague"
	case m.Source == api.SourceEmail:
		return "by e-mail"
	}
	return "via API"
}

// replayMessage answers a repeated post whose first answer was never
// saved with the message it posted.
func (s *Server) replayMessage(w http.ResponseWriter, r *http.Request, t *target, id string) error {
	ctx, dc, row := r.Context(), t.dc, t.row
	m, err := s.store.Message(ctx, dc.deal.ID, id)
	if err != nil {
		return err
	}
	// The same rule as reading the conversation: a caller whose seat
	// changed since the first post gets nothing it may no longer see.
	if m.RequestID != row.ID || !dc.caller.MaySeeMessage(m.PartyID, m.Internal) {
		return errNotFound
	}
	files, err := s.store.VisibleFiles(ctx, dc.deal.ID, row.ID, dc.seat.PartyID)
	if err != nil {
		return err
	}
	var mine []store.File
	for _, f := range files {
		if f.MessageID == m.ID {
			mine = append(mine, f)
		}
	}
	view := newDealView(dc)
	writeJSON(w, http.StatusCreated, view.message(m, mine))
	return nil
}
