package mailin

import (
	"context"
	"errors"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/service"
	"github.com/dealctl/dealctl/internal/store"
)

// ErrSenderCannotAnswer: the person who mailed the reply may no longer
// answer the request (taken off the deal, made a viewer, the deal
// archived), so it cannot be posted as theirs, by them or a colleague.
var ErrSenderCannotAnswer = errors.New("the sender may no longer answer this request")

// ServicePoster posts confirmed replies through the service layer
// (internal/service), as every door answers: a response with source
// email and format text, its attachments as the message's files, the
// status moved and the other side notified as for any answer.
type ServicePoster struct {
	Service *service.Service
	Store   interface {
		DealRequest(ctx context.Context, dealID, requestID string) (store.Deal, store.Request, error)
	}
	Now func() time.Time
}

// PostHeld posts h as by confirmed it: by is the sender, or a colleague
// of the same side (the message is then on_behalf). The sender must
// still be able to answer the request, whoever confirms. The
// counterparty's reply is a response; the owning side's, a question.
func (p ServicePoster) PostHeld(ctx context.Context, h store.HeldReply, by store.Person) (store.Message, error) {
	_, row, err := p.Store.DealRequest(ctx, h.DealID, h.RequestID)
	if err != nil {
		return store.Message{}, err
	}
	sender, err := p.Service.ActorFor(ctx, h.DealID, h.PersonID)
	if errors.Is(err, service.ErrNoSeat) || (err == nil && service.MayAnswer(sender, row) != nil) {
		return store.Message{}, ErrSenderCannotAnswer
	}
	if err != nil {
		return store.Message{}, err
	}
	actor := sender
	// The counterparty's reply answers the request; the owning side's
	// reply to an answer is a follow-up (docs/decisions.md, "Replies by
	// e-mail"), which must not mark the request complete.
	kind := api.MessageResponse
	if sender.Caller.OwnerSide {
		kind = api.MessageQuestion
	}
	post := service.Post{
		In:     api.MessageCreate{Text: api.Optional[string]{Set: true, Value: h.Text}, Kind: api.Optional[api.MessageKind]{Set: true, Value: kind}},
		Source: api.SourceEmail, Format: api.FormatText,
	}
	if by.ID != h.PersonID {
		if actor, err = p.Service.ActorFor(ctx, h.DealID, by.ID); err != nil {
			return store.Message{}, err
		}
		post.OnBehalfOf = h.PersonID
	}
	for _, f := range h.Files {
		name, ct, size := f.Name, f.ContentType, f.Size
		// No scanner stands between mail and the deal, as none stands
		// between an administrator's attach and it: the files are
		// downloadable once posted (docs/mail.md).
		post.Files = append(post.Files, store.File{Kind: api.FileKindFile, Name: &name, ContentType: &ct, Size: &size, SHA256: f.SHA256, Scanned: true})
	}
	now := time.Now()
	if p.Now != nil {
		now = p.Now()
	}
	m, _, err := p.Service.Answer(ctx, actor, now, row, post)
	return m, err
}
