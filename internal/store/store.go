package store

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// Errors every backend maps its driver errors to.
var (
	ErrNotFound  = errors.New("not found")
	ErrDuplicate = errors.New("duplicate")
	// ErrSchemaNewer: the database was migrated past what this build
	// knows, so writing to it could corrupt it. Backends wrap it in an
	// error that names both versions.
	ErrSchemaNewer = errors.New("the database schema is newer than this dealctl")
	// ErrBlobInObjectStore: a file's bytes are in the object store, not
	// in the database; read them there (internal/blob).
	ErrBlobInObjectStore = errors.New("the file's bytes are in the object store")
)

// Where a blob's bytes are (BlobStorage).
const (
	BlobInDatabase    = "db"
	BlobInObjectStore = "object"
)

// Store is what the server needs from storage. Every write is one
// transaction that also bumps the deal's Version.
type Store interface {
	Reader
	ViewReader
	Writer
	Admin
	Outbox
	Idempotency
	Events
	Searcher
	HeldReplies
	// Ping checks the database is reachable.
	Ping(ctx context.Context) error
	// CheckWritable checks the database takes a write (one small row),
	// for /readyz and serve's start.
	CheckWritable(ctx context.Context) error
	// Dialect is "sqlite" or "postgres".
	Dialect() string
	Close() error
}

// Reader reads what API calls show.
type Reader interface {
	APIKeyByPrefix(ctx context.Context, prefix string) (APIKey, error)
	User(ctx context.Context, id string) (User, error)
	Organization(ctx context.Context, id string) (Organization, error)
	// UserDeals lists the deals the user has a seat on, by name, each
	// with whether the user is its project admin.
	UserDeals(ctx context.Context, userID string) ([]UserDeal, error)
	Deal(ctx context.Context, id string) (Deal, error)
	// DealRequest reads a deal's row and one of its requests in one round
	// trip; ErrNotFound when either is not there.
	DealRequest(ctx context.Context, dealID, requestID string) (Deal, Request, error)
	// KeyHolder reads a key by its prefix with the user it belongs to, in
	// one round trip.
	KeyHolder(ctx context.Context, prefix string) (APIKey, User, error)
	// Members reads a deal's parties and people (as Parties and People
	// order them) in one round trip.
	Members(ctx context.Context, dealID string) ([]Party, []Person, error)
	// Parties lists the parties of the given deals, by deal and position.
	Parties(ctx context.Context, dealIDs ...string) ([]Party, error)
	// Seat finds the user's person on the deal.
	Seat(ctx context.Context, dealID, userID string) (Person, error)
	People(ctx context.Context, dealID string) ([]Person, error)
	Requests(ctx context.Context, dealID string) ([]Request, error)
	Request(ctx context.Context, dealID, id string) (Request, error)
	// Messages lists a request's messages oldest first.
	Messages(ctx context.Context, dealID, requestID string) ([]Message, error)
	// Files lists a request's files by message and position; requestID ""
	// lists the whole deal's.
	Files(ctx context.Context, dealID, requestID string) ([]File, error)
	File(ctx context.Context, dealID, versionID string) (File, error)
	Message(ctx context.Context, dealID, id string) (Message, error)
	// OpenBlob streams a file's bytes from the database; a read fails
	// with blob.ErrMoved when they are moved to the object store meanwhile;
	// ErrBlobInObjectStore when they are in the object store instead.
	OpenBlob(ctx context.Context, sha256 string) (io.ReadCloser, int64, error)
	// BlobStorage says where a blob's bytes are: BlobInDatabase or
	// BlobInObjectStore.
	BlobStorage(ctx context.Context, sha256 string) (string, error)
	// Setting reads a server-wide setting, creating it with create() the
	// first time, so that every instance on one database agrees on it.
	Setting(ctx context.Context, name string, create func() (string, error)) (string, error)
}

// RequestChange is applied by UpdateRequest inside its transaction to the
// row as it stands; returning an error aborts the write.
type RequestChange func(r *Request) error

// PostMessage writes a message, its links and files, an optional status
// move and the notifications it causes, all at once.
type PostMessage struct {
	Message Message
	Files   []File
	// MoveStatus, when not nil, is applied to the request if it differs
	// from the request's status at the time of writing.
	MoveStatus *api.RequestStatus
	// AllowMove, when not nil, decides inside the transaction whether the
	// request may go from its status then to MoveStatus; when it says no,
	// the message is written and the status left alone.
	AllowMove func(from api.RequestStatus) bool
	// Notify is called inside the transaction with the stored message
	// and returns the outbox rows to write.
	Notify func(m Message) []Notification
}

// Writer holds the API's writes.
type Writer interface {
	CreateRequest(ctx context.Context, r Request) (Request, error)
	// UpdateRequest reads the request inside a write transaction, applies
	// change and writes it back; an error from change (a failed
	// precondition, say) is returned as it is and nothing is written.
	UpdateRequest(ctx context.Context, dealID, id string, change RequestChange) (Request, error)
	PostMessage(ctx context.Context, p PostMessage) (Message, Request, error)
	// DeleteRequest reads the request inside a write transaction, with how
	// many rows sit under it and how many messages it has, and deletes it
	// once check lets it: an error from check is returned as it is and
	// nothing is written. The deletion records a request.deleted event
	// that carries the row, so that it can be made again.
	DeleteRequest(ctx context.Context, dealID, id string, check DeleteCheck) (Request, error)
}

// DeleteCheck decides, inside DeleteRequest's transaction, whether r may
// be deleted, given the rows under it and its messages (every side's).
type DeleteCheck func(r Request, children, messages int) error

// Admin holds what `dealctl admin` does against the database.
type Admin interface {
	// Ref resolves a world-file reference (kind, local name) to an id;
	// ErrNotFound when it was never applied.
	Ref(ctx context.Context, kind, name string) (string, error)
	// Apply runs fn in one write transaction.
	Apply(ctx context.Context, fn func(tx AdminTx) error) error
	CreateAPIKey(ctx context.Context, k APIKey) error
	APIKeys(ctx context.Context, userID string) ([]APIKey, error)
	RevokeAPIKey(ctx context.Context, id string, at time.Time) error
	SetDealArchived(ctx context.Context, dealID string, archived bool) error
	// Deals lists every deal, archived ones too: the admin commands find
	// a deal named by codename or name among them.
	Deals(ctx context.Context) ([]Deal, error)
	// AttachFile stores data as a blob and lists it on the message.
	AttachFile(ctx context.Context, f File, data []byte) (File, error)
	// Backup writes a consistent copy of the database to path (SQLite).
	Backup(ctx context.Context, path string) error
}

// AdminTx is the transaction of Admin.Apply: upserts by id, used to seed
// worlds idempotently. Each Put replaces the row with that id.
type AdminTx interface {
	Ref(kind, name string) (string, error)
	PutRef(kind, name, id string) error
	PutOrganization(o Organization) error
	PutUser(u User) error
	PutDeal(d Deal) error
	PutParty(p Party) error
	// PutPerson upserts by (deal, user); it returns the person's id.
	PutPerson(p Person) (string, error)
	// PutRequest upserts by (deal, number); it returns the row's id.
	PutRequest(r Request) (string, error)
	RequestByNumber(dealID, number string) (Request, error)
	PutMessage(m Message) error
	PutFile(f File, data []byte) error
	PutAPIKey(k APIKey) error
	APIKey(id string) (APIKey, error)
	// CountDeals tells an empty database (serve --demo).
	CountDeals() (int, error)
	// SetDigestOptOut turns a person's daily digest off (true) or back
	// on.
	SetDigestOptOut(personID string, optOut bool) error
	// RecordEvents writes events of a deal's history that the seeded
	// rows stand for (the demo's conversations), in the deal's next
	// place, in the order given.
	RecordEvents(dealID string, events ...Event) error
}

// Outbox is the notification queue.
type Outbox interface {
	// ClaimNotifications takes up to limit rows due by now, hiding them
	// from other claimers until lease has passed.
	ClaimNotifications(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]Notification, error)
	// RenewClaims pushes the next attempt of rows claimed (each with the
	// attempts its claim counted) out to until, in one write, and returns
	// the ids of those whose claim is no longer held: delivered, or
	// claimed again (attempts moved on) after the claim lapsed.
	RenewClaims(ctx context.Context, claims []Notification, until time.Time) (lost []string, err error)
	// MarkDelivered records deliveries made by at, in one write.
	MarkDelivered(ctx context.Context, at time.Time, ids ...string) error
	MarkFailed(ctx context.Context, id string, errText string, retryAt time.Time) error
	Notifications(ctx context.Context, dealID string) ([]Notification, error)
}

// RateLimiter counts calls per key. A backend whose instances share a
// database provides one shared by all of them.
type RateLimiter interface {
	// Take spends one call of key's budget of limit calls a minute.
	Take(ctx context.Context, key string, limit int, now time.Time) (RateDecision, error)
}

// RateDecision is the outcome of RateLimiter.Take.
type RateDecision struct {
	Allowed    bool
	Remaining  int
	RetryAfter time.Duration // when not allowed: until one call is available
	Reset      time.Duration // until the bucket is full again
}

// ViewReader holds the reads that build what one side sees; viewerParty
// is the caller's party, whose internal messages the caller may see.
type ViewReader interface {
	// LatestAnswers returns, per request, the newest `response` the viewer
	// may see, with Text cut to at most previewLen+1 characters. requestID
	// "" covers the whole deal.
	LatestAnswers(ctx context.Context, dealID, requestID, viewerParty string, previewLen int) ([]Message, error)
	// VisibleFiles lists the files and links on messages the viewer may
	// see, by message and position. requestID "" covers the whole deal.
	VisibleFiles(ctx context.Context, dealID, requestID, viewerParty string) ([]File, error)
	// RequestView reads, in one round trip, what one request's answer
	// needs: the deal's row, the request, the newest response the viewer
	// may see (Text cut as LatestAnswers cuts it) and the files the viewer
	// may see. ErrNotFound when the deal or the request is not there.
	RequestView(ctx context.Context, dealID, requestID, viewerParty string, previewLen int) (RequestView, error)
	// ListChanges reads the rows of a deal's list changed after version
	// since (the deal's version, or its shared version when shared), with
	// their answers and files as LatestAnswers and VisibleFiles read them,
	// and the ids of the rows deleted since. Since 0 reads every row.
	ListChanges(ctx context.Context, dealID string, since int64, shared bool, viewerParty string, previewLen int) (ListChanges, error)
	// ListChangedIDs is ListChanges's ids alone: the requests changed
	// after since, and those deleted since. since must be above 0.
	ListChangedIDs(ctx context.Context, dealID string, since int64, shared bool) (changed, removed []string, err error)
}

// ListChanges is what ListChanges reads.
type ListChanges struct {
	Requests []Request
	Latest   []Message
	Files    []File
	Removed  []string // ids of requests deleted since
}

// RequestView is one request as RequestView reads it.
type RequestView struct {
	Deal    Deal
	Request Request
	Latest  *Message // nil: no response the viewer may see
	Files   []File
}

// SavedResponse is a POST's first answer, replayed for a repeated
// Idempotency-Key. Status 0 marks a call still running, or, when
// ResourceID is set, a call whose write committed but whose answer was
// never saved (its server died): that answer is rebuilt from ResourceID.
type SavedResponse struct {
	Method string
	Path   string
	// Fingerprint is the SHA-256 (hex) of the body the key was first sent
	// with; "" on rows kept before fingerprints were.
	Fingerprint string
	Status      int
	Body        []byte
	// ResourceID is the id of what the call created, written by the
	// create itself, in its own transaction (see Claim).
	ResourceID string
	CreatedAt  time.Time
}

// Idempotency keeps first answers per (key id, Idempotency-Key). A call
// reserves its key before it writes, so two calls racing with one key
// cannot both write.
type Idempotency interface {
	// ReserveResponse claims the key for a call about to run (r carries
	// its method, path, fingerprint and time). It reports true when this
	// call holds the claim; otherwise it returns what is kept for the key:
	// a finished answer, a committed write (ResourceID), or Status 0 while
	// another call runs. Answers kept before expireBefore, and claims left
	// running before staleBefore with nothing written (a server that died
	// mid-call), no longer count.
	ReserveResponse(ctx context.Context, keyID, idemKey string, r SavedResponse, expireBefore, staleBefore time.Time) (SavedResponse, bool, error)
	// SaveResponse completes a claim with the call's answer.
	SaveResponse(ctx context.Context, keyID, idemKey string, r SavedResponse) error
	// ReleaseResponse drops a claim whose call failed before writing, so
	// it can be retried.
	ReleaseResponse(ctx context.Context, keyID, idemKey string) error
}

// Claim is the Idempotency-Key claim of the call under way. CreateRequest
// and PostMessage run with a context that carries one (WithClaim) record
// the id they create on the claim inside their own transaction: the
// write and the record that it was made commit together, so a retry after
// a crash finds the write and replays it instead of writing twice. When
// the claim is no longer this call's (it was dropped as stale and taken
// by a retry), the write is rolled back with ErrClaimLost.
type Claim struct {
	KeyID     string
	IdemKey   string
	CreatedAt time.Time // the claim's time, which tells it from a later one
}

// ErrClaimLost is returned by a write whose Idempotency-Key claim is no
// longer held by the call; nothing was written.
var ErrClaimLost = errors.New("the idempotency claim is no longer held by this call")

type claimKey struct{}

// WithClaim returns ctx carrying c, for the create it is passed to.
func WithClaim(ctx context.Context, c *Claim) context.Context {
	return context.WithValue(ctx, claimKey{}, c)
}

// ClaimFrom returns the claim ctx carries, or nil.
func ClaimFrom(ctx context.Context) *Claim {
	c, _ := ctx.Value(claimKey{}).(*Claim)
	return c
}
