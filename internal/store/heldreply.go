package store

import (
	"context"
	"errors"
	"time"
)

// NotifyReplyConfirm is the kind of the outbox row that mails a person
// the link confirming their reply by e-mail (docs/mail.md).
const NotifyReplyConfirm = "reply_confirm"

// States of a held reply.
const (
	HeldStateHeld      = "held"
	HeldStatePosted    = "posted"
	HeldStateDiscarded = "discarded"
)

// ErrNotHeld: the held reply was posted or discarded already (a replayed
// link, a colleague who was first).
var ErrNotHeld = errors.New("the reply is no longer held")

// ReplyTarget is what a reply address stands for: the notification it
// was made for, the person it went to and the request it was about, and
// whether a reply to it was taken in already.
type ReplyTarget struct {
	NotificationID string
	DealID         string
	RequestID      string
	PersonID       string
	Used           bool
}

// HeldReply is a reply by e-mail waiting to be confirmed on the web, or
// the record of how it was decided.
type HeldReply struct {
	ID             string
	Token          string // the notification its reply address named
	DealID         string
	RequestID      string
	PersonID       string // whose reply address it came to
	Sender         string // the address it came from
	Subject        string
	Text           string // as it will be posted: quoted history and signature cut
	State          string
	ConfirmHash    string // hex SHA-256 of the confirmation link's secret
	ConfirmExpires time.Time
	CreatedAt      time.Time
	ExpiresAt      time.Time
	DecidedAt      *time.Time
	DecidedBy      *string // person id
	OnBehalf       bool
	MessageID      *string
	Files          []HeldFile
}

// HeldFile is an attachment of a held reply; its bytes are a blob.
type HeldFile struct {
	Name        string
	ContentType string
	SHA256      string
	Size        int64
}

// HeldDecision is how a held reply leaves the held state.
type HeldDecision struct {
	State     string // HeldStatePosted or HeldStateDiscarded
	By        string // the person deciding
	OnBehalf  bool
	At        time.Time
	MessageID string // the message posted, for HeldStatePosted
}

// HeldReplies keeps replies by e-mail until they are confirmed.
type HeldReplies interface {
	// ReplyTarget reads what a reply address's notification stands for;
	// ErrNotFound for none, or one about no message (a digest).
	ReplyTarget(ctx context.Context, notificationID string) (ReplyTarget, error)
	// HoldReply stores h with its files and queues confirm (the mail
	// with the confirmation link) in one transaction; ErrDuplicate when
	// a reply to the same address was taken in already.
	HoldReply(ctx context.Context, h HeldReply, confirm Notification) error
	// HeldReply reads one, with its files.
	HeldReply(ctx context.Context, id string) (HeldReply, error)
	// HeldRepliesOf lists a deal's replies still held and not expired at
	// now, oldest first, with their files.
	HeldRepliesOf(ctx context.Context, dealID string, now time.Time) ([]HeldReply, error)
	// DecideHeldReply moves a held reply to d.State; ErrNotHeld when it
	// is not held any more, so that two deciders cannot both act.
	DecideHeldReply(ctx context.Context, id string, d HeldDecision) error
	// ReleaseHeldReply puts a reply decided by by back to held, when
	// posting it failed after the decision.
	ReleaseHeldReply(ctx context.Context, id string) error
	// SetHeldReplyMessage records the message a post made.
	SetHeldReplyMessage(ctx context.Context, id, messageID string) error
}
