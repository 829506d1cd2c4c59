package api

import (
	"encoding/json"
	"time"
)

// EventType names what an event records (docs/api.md, "Events").
type EventType string

// The event types. Each one's data object is described in docs/api.md.
const (
	EventRequestCreated EventType = "request.created"
	EventRequestEdited  EventType = "request.edited"
	EventAssigned       EventType = "request.assigned"
	EventDueDateSet     EventType = "request.due_date_set"
	EventStatusMoved    EventType = "request.status_moved"
	EventRequestDeleted EventType = "request.deleted"
	EventMessagePosted  EventType = "message.posted"
	EventFileAttached   EventType = "file.attached"
	EventLinkIssued     EventType = "file.link_issued"
	EventFileFetched    EventType = "file.fetched"
)

// EventTypes lists every event type, in the order docs/api.md gives them.
var EventTypes = []EventType{
	EventRequestCreated, EventRequestEdited, EventAssigned, EventDueDateSet, EventStatusMoved,
	EventRequestDeleted, EventMessagePosted, EventFileAttached, EventLinkIssued, EventFileFetched,
}

// Event is one entry of GET /deals/{deal_id}/events (*extension*
// "events"). ID is opaque: the last one a client saw is its next call's
// after.
type Event struct {
	ID        string          `json:"id"`
	Type      EventType       `json:"type"`
	At        time.Time       `json:"at"`
	Actor     *Author         `json:"actor"`
	RequestID *string         `json:"request_id"`
	Data      json.RawMessage `json:"data"`
}

// Events paging bounds: a call without limit gets DefaultEventsLimit.
const (
	DefaultEventsLimit = 100
	MaxEventsLimit     = 1000
)

// Reasons of a 400 on the events endpoint's after.
const (
	ReasonInvalidCursor = "invalid_cursor" // not an event id this server gave out
	ReasonUnknownCursor = "unknown_cursor" // an id of another deal, or of an event not yet recorded
)

// Data objects of the event types, as the server writes them.
type (
	// RequestCreatedData: the row as created.
	RequestCreatedData struct {
		Number string      `json:"number"`
		Kind   RequestKind `json:"kind"`
		Title  string      `json:"title"`
	}
	// RequestEditedData: which fields an edit changed, by their API names
	// (Fields, kept for clients that read only those), and what each held
	// before and after (Changes, keyed by the same names).
	RequestEditedData struct {
		Number  string                 `json:"number"`
		Fields  []string               `json:"fields"`
		Changes map[string]FieldChange `json:"changes"`
	}
	// FieldChange is one field's value before and after a write: the
	// whole text for title and body; null for a nullable field cleared
	// or not yet set.
	FieldChange struct {
		From *string `json:"from"`
		To   *string `json:"to"`
	}
	// AssignedData: the person assigned (null: unassigned) and before.
	AssignedData struct {
		Number string  `json:"number"`
		From   *string `json:"from"`
		To     *string `json:"to"`
	}
	// DueDateSetData: the due date (YYYY-MM-DD, null: cleared) and before.
	DueDateSetData struct {
		Number string  `json:"number"`
		From   *string `json:"from"`
		To     *string `json:"to"`
	}
	// StatusMovedData: the move.
	StatusMovedData struct {
		Number string        `json:"number"`
		From   RequestStatus `json:"from"`
		To     RequestStatus `json:"to"`
	}
	// RequestDeletedData: the row as it was when deleted, every field a
	// create or an edit can set, so that it can be made again.
	RequestDeletedData struct {
		Number     string          `json:"number"`
		Kind       RequestKind     `json:"kind"`
		Title      string          `json:"title"`
		Body       string          `json:"body"`
		Status     RequestStatus   `json:"status"`
		Priority   Priority        `json:"priority"`
		Category   RequestCategory `json:"category"`
		Requester  *string         `json:"requester"`
		DueDate    *string         `json:"due_date"`
		AssigneeID *string         `json:"assignee_id"`
		ParentID   *string         `json:"parent_id"`
	}
	// MessagePostedData: what was posted, not its text.
	MessagePostedData struct {
		Number    string        `json:"number"`
		MessageID string        `json:"message_id"`
		Kind      MessageKind   `json:"kind"`
		Partial   bool          `json:"partial"`
		Internal  bool          `json:"internal"`
		Source    MessageSource `json:"source"`
	}
	// FileData: the file a file.* event is about.
	FileData struct {
		Number    string  `json:"number"`
		MessageID string  `json:"message_id"`
		VersionID string  `json:"version_id"`
		Name      *string `json:"name"`
		Size      *int64  `json:"size,omitempty"`
	}
)

// BatchHeader (*extension* "batch") names the run a write belongs to,
// such as one `dealctl import`: the server copies it into the data of
// every event the write records, as "batch", so that the run's writes
// can be found and taken back together (docs/api.md, "Batches").
const BatchHeader = "X-Dealctl-Batch"

// MaxBatchIDLen bounds a batch id.
const MaxBatchIDLen = 64

// ValidBatchID reports whether id may name a batch: 1 to MaxBatchIDLen
// letters, digits, '.', '_' or '-', so it needs no escaping anywhere it
// is shown or stored.
func ValidBatchID(id string) bool {
	if id == "" || len(id) > MaxBatchIDLen {
		return false
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
		if !ok {
			return false
		}
	}
	return true
}
