package service

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

// Service orchestrates the writes on a deal (see the package doc).
type Service struct {
	store   store.Store
	posted  func()
	handoff Handoff
}

// New builds a service on st. posted, when not nil, is called after an
// answer queued notifications, to wake the notification worker.
func New(st store.Store, posted func()) *Service {
	return &Service{store: st, posted: posted}
}

// Handoff is a notification worker of this process that takes a post's
// notifications as they were written (notify.Worker).
type Handoff interface {
	// ClaimLease is how long a claim lasts unless renewed.
	ClaimLease() time.Duration
	// Take delivers rows claimed for it when they were written. Rows it
	// cannot take are left to lapse, and are claimed again after it.
	Take(rows []store.Notification)
}

// WithHandoff has s write an answer's notifications already claimed, for
// h's lease, and hand them to h once the answer is stored, instead of
// waking a worker to claim them: a claim is a write of every row (and
// on SQLite a commit) that a post with eight people told paid for again
// (docs/server.md, "Notifications"). A nil h changes nothing.
func (s *Service) WithHandoff(h Handoff) *Service {
	s.handoff = h
	return s
}

// Actor is who makes a write: their seat on the deal and what the rules
// decide on. Deal, Parties and People are the deal as it is for this
// write: read afresh, or kept at the deal's members version as just read
// (the server's membersAt); never a cache that may be older.
type Actor struct {
	Deal    store.Deal
	Parties []store.Party
	People  []store.Person
	Seat    store.Person
	// Email is the actor's address as notifications name them; nil reads
	// as "someone".
	Email  *string
	Caller domain.Caller
}

// NewActor builds the actor seated at seat on deal. keyAccess is the
// access of the key the call came with; a door without a key (a reply
// by e-mail, confirmed by its sender) passes api.KeyWrite, since the
// person's own access still decides.
func NewActor(deal store.Deal, parties []store.Party, people []store.Person, seat store.Person, keyAccess api.KeyAccess, email *string) Actor {
	owner := false
	for _, p := range parties {
		if p.ID == seat.PartyID {
			owner = p.IsOwner
		}
	}
	return Actor{Deal: deal, Parties: parties, People: people, Seat: seat, Email: email, Caller: domain.Caller{
		KeyAccess:      keyAccess,
		PartyID:        seat.PartyID,
		Access:         seat.Access,
		IsProjectAdmin: seat.IsProjectAdmin,
		OwnerSide:      owner,
		Archived:       deal.Archived,
	}}
}

// ErrNoSeat is ActorFor's answer for a person who cannot act on the deal:
// not on it, not joined, or the deal archived and they not its project
// admin. Like the API's 404, it does not say which.
var ErrNoSeat = errors.New("service: the person has no seat on the deal they may act from")

// ActorFor reads the deal and its people afresh and seats personID on it,
// for a door that knows a person rather than a key. It is ErrNoSeat for
// a person who may not act on the deal, and the store's error otherwise.
func (s *Service) ActorFor(ctx context.Context, dealID, personID string) (Actor, error) {
	dealID, personID = api.CanonicalID(dealID), api.CanonicalID(personID)
	parties, people, err := s.store.Members(ctx, dealID)
	if err != nil {
		return Actor{}, err
	}
	deal, err := s.store.Deal(ctx, dealID)
	if errors.Is(err, store.ErrNotFound) {
		return Actor{}, ErrNoSeat
	}
	if err != nil {
		return Actor{}, err
	}
	for _, p := range people {
		if p.ID != personID {
			continue
		}
		if !p.Joined || !domain.DealVisible(deal.Archived, p.IsProjectAdmin) {
			return Actor{}, ErrNoSeat
		}
		var email *string
		if e := strings.TrimSpace(p.Email); e != "" {
			email = &e
		}
		return NewActor(deal, parties, people, p, api.KeyWrite, email), nil
	}
	return Actor{}, ErrNoSeat
}

// person finds one of the deal's people by id.
func (a Actor) person(id string) (store.Person, bool) {
	for _, p := range a.People {
		if p.ID == id {
			return p, true
		}
	}
	return store.Person{}, false
}

// denyWrite refuses any write on a read key or an archived deal.
func (a Actor) denyWrite() error {
	if reason := a.Caller.WriteDenial(); reason != "" {
		return api.NewError(api.CodeForbidden, reason)
	}
	return nil
}
