// Package store defines what dealctl keeps and the interface a storage
// backend implements. sqlstore implements it on SQLite and PostgreSQL;
// storetest is the conformance suite both must pass.
package store

import (
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// Organization is a firm.
type Organization struct {
	ID   string
	Name string
}

// User is a person with an account in an organization.
type User struct {
	ID             string
	OrganizationID string
	Name           *string
	Email          *string
}

// Deal is a deal; Version grows with every change to what its readers see
// (requests, messages, files, people, archiving), so it doubles as the
// cheap base of ETags.
type Deal struct {
	ID       string
	Name     string
	Codename string
	Timezone string
	Archived bool
	Version  int64
	// SharedVersion grows only with changes both sides see; the owning
	// side's internal messages move Version alone.
	SharedVersion int64
	// EventSeq grows with every API or admin write (not seeding) and every
	// recorded download: it is the place of the deal's newest events
	// (Event.Seq).
	EventSeq int64
	// MembersVersion moves whenever the deal's parties or people, or
	// their users' names and addresses, change (migration 0011's
	// triggers): members read at a version are current while it holds.
	MembersVersion int64
}

// UserDeal is a deal as listed for one user, with what their seat on it
// decides about its visibility.
type UserDeal struct {
	Deal
	IsProjectAdmin bool
	Joined         bool
}

// Party is one side of a deal.
type Party struct {
	ID             string
	DealID         string
	Side           api.Side
	Label          *string
	IsOwner        bool
	OrganizationID *string
	Position       int
}

// Person is a user's seat on a deal. Name and Email come from the user.
type Person struct {
	ID             string
	DealID         string
	UserID         string
	PartyID        string
	Access         api.Access
	Role           api.ParticipantRole
	IsProjectAdmin bool
	Joined         bool
	Name           *string
	Email          string
}

// Request is a row of a deal's list (a request or a section).
type Request struct {
	ID              string
	DealID          string
	ParentID        *string
	Kind            api.RequestKind
	Number          string
	Title           string
	Body            string
	Status          api.RequestStatus
	Priority        api.Priority
	Category        api.RequestCategory
	Requester       *string
	DueDate         *string // YYYY-MM-DD
	AssigneeID      *string
	StatusChangedAt *time.Time
	CreatedAt       time.Time
	UpdatedAt       time.Time
	// InternalUpdatedAt moves with internal messages, which UpdatedAt
	// (shown to both sides) does not.
	InternalUpdatedAt *time.Time
}

// Message is a post in a request's conversation. PartyID is the author's
// side, which is what internal visibility is decided on.
type Message struct {
	ID        string
	DealID    string
	RequestID string
	PartyID   string
	AuthorID  *string // person id; nil for a message without a known author
	Kind      api.MessageKind
	Partial   bool
	Internal  bool
	Source    api.MessageSource
	Text      string
	Format    api.BodyFormat
	PostedAt  time.Time
	OnBehalf  bool
}

// File is a file or a link given with a message. A file's bytes live in
// the blob named by SHA256.
type File struct {
	VersionID   string
	DealID      string
	RequestID   string
	MessageID   string
	Position    int
	Kind        api.FileKind
	Name        *string // nil only where an administrator withheld it
	URL         *string // links only
	Size        *int64
	ContentType *string
	SHA256      string // files only
	Scanned     bool   // a file is downloadable once scanned
	// Internal is set where the file was read with its message
	// (VisibleFiles, RequestView): the message is internal, so the file
	// is its author's side's alone.
	Internal bool
}

// Downloadable reports whether a download link may be issued now.
func (f File) Downloadable() bool { return f.Kind == api.FileKindFile && f.Scanned && f.SHA256 != "" }

// APIKey is a key; only the hash of its secret is kept.
type APIKey struct {
	ID        string
	UserID    string
	Name      string
	Prefix    string
	Hash      []byte
	Access    api.KeyAccess
	DealIDs   []string // nil: every deal its owner is on
	ExpiresAt time.Time
	RevokedAt *time.Time
	CreatedAt time.Time
}

// Notification is one outbox row: something to deliver to one person,
// about a message posted (Kind NotifyMessage) or their daily digest
// (NotifyDigest, which has no MessageID).
type Notification struct {
	ID            string
	Kind          string // NotifyMessage or NotifyDigest; "" reads as NotifyMessage
	DealID        string
	MessageID     string
	PersonID      string
	Email         string
	Subject       string
	Body          string
	Attempts      int
	NextAttemptAt time.Time
	DeliveredAt   *time.Time
	LastError     string
	CreatedAt     time.Time
}

// Notification kinds.
const (
	NotifyMessage = "message"
	NotifyDigest  = "digest"
)
