package store

import (
	"context"
	"time"
)

// Digest outcomes: what was done with a person's digest slot of a day.
const (
	DigestSent     = "sent"      // a digest was queued in the outbox
	DigestEmpty    = "empty"     // nothing was due or new: nothing sent
	DigestOptedOut = "opted_out" // the person asked for no digest
)

// DigestRecipient is a person of a deal as the digest sees them (only
// the joined get digests).
type DigestRecipient struct {
	Person
	OptedOut bool
	// LastWindowEnd is where the person's previous digest slot ended
	// (sent or not); nil before their first.
	LastWindowEnd *time.Time
	// LastOutcome is that slot's outcome; "" before the first.
	LastOutcome string
}

// DigestRecord is one person's digest slot of one local day. Claiming it
// is the lease that makes the digest go once however many instances run:
// a claim succeeds only while the person's last slot is PrevWindowEnd.
type DigestRecord struct {
	PersonID string
	DealID   string
	Day      string // YYYY-MM-DD in the deal's time zone
	// WindowStart and WindowEnd bound the messages the digest reports
	// (after WindowStart, up to WindowEnd); WindowEnd is the slot itself.
	WindowStart time.Time
	WindowEnd   time.Time
	// PrevWindowEnd is the LastWindowEnd the record was built on; the
	// claim fails when another instance has moved it since.
	PrevWindowEnd *time.Time
	Outcome       string
	CreatedAt     time.Time
}

// Digests is what the daily digest needs from storage.
type Digests interface {
	// DigestDeals lists the deals digests go out for: those not archived.
	DigestDeals(ctx context.Context) ([]Deal, error)
	// DigestRecipients lists a deal's people, joined or not, with their
	// opt-out and their last digest slot.
	DigestRecipients(ctx context.Context, dealID string) ([]DigestRecipient, error)
	// MessagesPosted lists a deal's messages posted after after and up to
	// upTo, oldest first, every side's and internal ones included: the
	// caller decides what each reader may see.
	MessagesPosted(ctx context.Context, dealID string, after, upTo time.Time) ([]Message, error)
	// ClaimDigest records r and, when n is not nil, queues n in the
	// outbox, in one transaction. It reports false, writing nothing, when
	// the person's last slot is no longer r.PrevWindowEnd (another
	// instance, or an earlier run, took one since) or r's slot is not
	// after it.
	ClaimDigest(ctx context.Context, r DigestRecord, n *Notification) (bool, error)
	// SetDigestOptOut turns a person's digest off (true) or back on,
	// reporting whether that changed anything; ErrNotFound for an unknown
	// person.
	SetDigestOptOut(ctx context.Context, personID string, optOut bool) (changed bool, err error)
}
