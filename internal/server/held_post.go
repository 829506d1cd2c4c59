package server

import (
	"context"
	"errors"
	"slices"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

// PostHeld posts a reply by e-mail that was confirmed (internal/mailin,
// docs/mail.md): a response by the person who mailed it, source email,
// format text, on_behalf when by (a colleague of the same side)
// confirmed it; its attachments become the message's files; the status
// moves as for any answer and the other side is notified. The sender's
// seat is checked as it stands now: someone taken off the deal, or made
// a viewer, since the mail came cannot have it posted.
func (s *Server) PostHeld(ctx context.Context, h store.HeldReply, by store.Person) (store.Message, error) {
	deal, row, err := s.store.DealRequest(ctx, h.DealID, h.RequestID)
	if err != nil {
		return store.Message{}, err
	}
	parties, people, err := s.store.Members(ctx, h.DealID)
	if err != nil {
		return store.Message{}, err
	}
	i := slices.IndexFunc(people, func(p store.Person) bool { return p.ID == h.PersonID })
	if i < 0 {
		return store.Message{}, errHeldSenderGone
	}
	author := people[i]
	if by.PartyID != author.PartyID {
		return store.Message{}, errHeldOtherSide
	}
	user, err := s.store.User(ctx, author.UserID)
	if err != nil {
		return store.Message{}, err
	}
	caller := callerOf(store.APIKey{Access: api.KeyWrite}, deal, parties, author)
	if !author.Joined || !caller.Can(row.Kind, row.Status).Answer {
		return store.Message{}, errHeldSenderGone
	}
	dc := &dealCall{call: &call{user: user, fresh: true}, deal: deal, parties: parties, people: people, seat: author, caller: caller}
	now := s.now().UTC()
	m := store.Message{
		DealID: deal.ID, RequestID: row.ID, PartyID: author.PartyID, AuthorID: &author.ID,
		Kind: api.MessageResponse, Source: api.SourceEmail, Format: api.FormatText, Text: h.Text,
		PostedAt: now, OnBehalf: by.ID != author.ID,
	}
	post := store.PostMessage{Message: m}
	for _, f := range h.Files {
		name, ct, size := f.Name, f.ContentType, f.Size
		post.Files = append(post.Files, store.File{Kind: api.FileKindFile, Name: &name, ContentType: &ct, Size: &size, SHA256: f.SHA256, Scanned: true})
	}
	if to, moves := domain.AnswerMove(api.MessageResponse, false, false, true); moves {
		post.MoveStatus = &to
		post.AllowMove = func(from api.RequestStatus) bool {
			return slices.Contains(caller.AllowedStatuses(row.Kind, from), to)
		}
	}
	post.Notify = func(stored store.Message) []store.Notification {
		return notificationsFor(people, dc, row, stored, now)
	}
	stored, _, err := s.store.PostMessage(ctx, post)
	if err != nil {
		return store.Message{}, err
	}
	if s.posted != nil {
		s.posted()
	}
	return stored, nil
}

var (
	errHeldSenderGone = errors.New("the sender may no longer answer this request (off the deal, or no longer an editor)")
	errHeldOtherSide  = errors.New("only the sender's side may confirm a reply by e-mail")
)
