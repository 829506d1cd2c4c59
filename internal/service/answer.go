package service

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

// Post is an answer as a door received it: the body, and what only the
// door knows.
type Post struct {
	// In is the body. Its Source, the caller's own claim (extension
	// imported-answers), may name api or import: import replaces Source
	// below, reads as plain text, and needs an owning-party member (403
	// import_not_allowed).
	In api.MessageCreate
	// Source is the door the message came in by; "" is api.SourceAPI.
	Source api.MessageSource
	// OnBehalfOf, when set, is the person id of the message's author,
	// a colleague of the actor on the same side whose e-mailed reply the
	// actor confirms: the message is theirs, marked on_behalf.
	OnBehalfOf string
	// Format is how the text reads; "" is api.FormatMarkdown (an e-mailed
	// reply is api.FormatText).
	Format api.BodyFormat
	// Files are files whose bytes the door stored already (as blobs), kept
	// with the message after its links.
	Files []store.File
}

// MayAnswer says whether the actor may post on row at all: a worker of
// either side, with a write key, on a request (not a section) of a deal
// not archived. It does not depend on the row's status, so a repeat of a
// post that moved it is allowed as the first was.
func MayAnswer(a Actor, row store.Request) error {
	if err := a.denyWrite(); err != nil {
		return err
	}
	if !a.Caller.Can(row.Kind, row.Status).Answer {
		return api.NewError(api.CodeForbidden, api.ReasonCannotPost)
	}
	return nil
}

// Answer posts p on row (as the door read it), stamped now: the message
// with its links and files; for a shared response, the status move it
// makes (docs/api.md, "States and transitions") within what the actor may
// move the row to from where it is when the message is stored; for a
// shared message, one notification to each joined person of the other
// side(s). It answers the message as stored with its files, links first.
func (s *Service) Answer(ctx context.Context, a Actor, now time.Time, row store.Request, p Post) (store.Message, []store.File, error) {
	if err := MayAnswer(a, row); err != nil {
		return store.Message{}, nil, err
	}
	in := p.In
	kind := orDefault(in.Kind, api.MessageResponse)
	internal := boolOr(in.Internal, false) || kind == api.MessageInternalNote
	if internal && !a.Caller.MayPostInternal() {
		return store.Message{}, nil, api.NewError(api.CodeForbidden, api.ReasonInternalNotAllowed)
	}
	source, format := cmp.Or(p.Source, api.SourceAPI), p.Format
	if in.Source.Set && !in.Source.Null && in.Source.Value == api.SourceImport {
		if !a.Caller.MayPostImported() {
			return store.Message{}, nil, api.NewError(api.CodeForbidden, api.ReasonImportNotAllowed)
		}
		// A sheet's cell is plain text, not Markdown.
		source, format = api.SourceImport, cmp.Or(format, api.FormatText)
	}
	var errs fieldErrors
	enum(&errs, "kind", in.Kind, api.MessageKinds)
	enum(&errs, "source", in.Source, api.PostedSources)
	errs.text("text", in.Text, domain.BodyRule)
	errs.links(in.Links)
	errs.nullableBools(namedBool{"partial", in.Partial}, namedBool{"internal", in.Internal}, namedBool{"update_status", in.UpdateStatus})
	if err := errs.err(); err != nil {
		return store.Message{}, nil, err
	}
	if domain.IsBlank(in.Text.Value) && len(in.Links.Value) == 0 && len(p.Files) == 0 {
		return store.Message{}, nil, api.NewError(api.CodeBadRequest, api.ReasonEmptyMessage)
	}
	author, err := a.author(p.OnBehalfOf)
	if err != nil {
		return store.Message{}, nil, err
	}
	now = now.UTC()
	partial := boolOr(in.Partial, false)
	m := store.Message{
		DealID: a.Deal.ID, RequestID: row.ID, PartyID: a.Seat.PartyID, AuthorID: &author.ID,
		Kind: kind, Partial: partial, Internal: internal, Source: source,
		Text: in.Text.Value, Format: cmp.Or(format, api.FormatMarkdown),
		PostedAt: now, OnBehalf: p.OnBehalfOf != "",
	}
	post := store.PostMessage{Message: m, Files: append(linkFiles(in.Links.Value), p.Files...)}
	// A shared response moves the status, within what the actor may move
	// it to from where the request is when the message is stored: the
	// counterparty answering a complete request in part does not reopen
	// it, since reopening belongs to the owning side.
	if to, moves := domain.AnswerMove(kind, partial, internal, boolOr(in.UpdateStatus, true)); moves {
		post.MoveStatus = &to
		post.AllowMove = func(from api.RequestStatus) bool {
			return slices.Contains(a.Caller.AllowedStatuses(row.Kind, from), to)
		}
	}
	var queued []store.Notification // the rows the post wrote, last try's
	if !internal {
		who := a.Email
		if p.OnBehalfOf != "" {
			who = &author.Email
		}
		post.Notify = func(stored store.Message) []store.Notification {
			queued = notificationsFor(a, who, row, stored, now)
			if s.handoff != nil {
				claimed(queued, stored, now.Add(s.handoff.ClaimLease()))
			}
			return queued
		}
	}
	stored, _, err := s.store.PostMessage(ctx, post)
	if err != nil {
		return store.Message{}, nil, err
	}
	switch {
	case post.Notify == nil:
	case s.handoff != nil:
		s.handoff.Take(queued)
	case s.posted != nil:
		s.posted()
	}
	// The message's files are as just written: nothing to read back.
	files := make([]store.File, len(post.Files))
	for i, f := range post.Files {
		f.DealID, f.RequestID, f.MessageID, f.Position = stored.DealID, stored.RequestID, stored.ID, i
		files[i] = f
	}
	return stored, files, nil
}

// author is the person a message is posted as: the actor, or, for a
// reply confirmed on someone's behalf, that person, who must be a joined
// colleague on the actor's side.
func (a Actor) author(onBehalfOf string) (store.Person, error) {
	if onBehalfOf == "" {
		return a.Seat, nil
	}
	p, ok := a.person(api.CanonicalID(onBehalfOf))
	if !ok || !p.Joined || p.PartyID != a.Seat.PartyID {
		return store.Person{}, api.NewError(api.CodeForbidden, api.ReasonCannotPost)
	}
	return p, nil
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
