package api

import "encoding/json"

// Field limits of docs/api.md#limits.
const (
	MaxTitleLen     = 500
	MaxBodyLen      = 20000
	MaxNumberLen    = 64
	MaxRequesterLen = 200
	MaxLinks        = 20
	MaxLinkURLLen   = 2048
	MaxLinkLabelLen = 200
	MaxPreviewLen   = 280
	// A row (DealRequest) carries its newest links up to both bounds; the
	// rest stay in the conversation (docs/api.md#limits), so that what
	// one side posts cannot grow every reader's list without bound.
	MaxRowLinks      = 20
	MaxRowLinkChars  = 8192    // characters of url and label together
	MaxRequestBody   = 1 << 20 // bytes; larger bodies answer 413
	DefaultRateLimit = 600     // calls a minute per key
)

// Optional distinguishes a JSON field that was absent, present as null, or
// present with a value. PATCH needs all three: "only the fields sent change"
// and "sending null clears".
type Optional[T any] struct {
	Set   bool // the key was in the body
	Null  bool // the key was in the body with the value null
	Value T
}

// UnmarshalJSON records that the field was sent, and whether as null.
func (o *Optional[T]) UnmarshalJSON(data []byte) error {
	o.Set = true
	if string(data) == "null" {
		o.Null = true
		return nil
	}
	return json.Unmarshal(data, &o.Value)
}

// MarshalJSON writes the value, or null; an unset Optional should be
// skipped with omitzero.
func (o Optional[T]) MarshalJSON() ([]byte, error) {
	if !o.Set || o.Null {
		return []byte("null"), nil
	}
	return json.Marshal(o.Value)
}

// IsZero lets `omitzero` drop fields that were never set.
func (o Optional[T]) IsZero() bool { return !o.Set }

// Some returns an Optional holding v.
func Some[T any](v T) Optional[T] { return Optional[T]{Set: true, Value: v} }

// Null returns an Optional that is sent as null.
func Null[T any]() Optional[T] { return Optional[T]{Set: true, Null: true} }

// DealRequestCreate is the body of POST /deals/{deal_id}/requests.
type DealRequestCreate struct {
	Title      Optional[string]          `json:"title,omitzero"`
	Body       Optional[string]          `json:"body,omitzero"`
	Number     Optional[string]          `json:"number,omitzero"`
	ParentID   Optional[string]          `json:"parent_id,omitzero"`
	Kind       Optional[RequestKind]     `json:"kind,omitzero"`
	Priority   Optional[Priority]        `json:"priority,omitzero"`
	Category   Optional[RequestCategory] `json:"category,omitzero"`
	Requester  Optional[string]          `json:"requester,omitzero"`
	DueDate    Optional[string]          `json:"due_date,omitzero"`
	AssigneeID Optional[string]          `json:"assignee_id,omitzero"`
}

// DealRequestUpdate is the body of PATCH /deals/{deal_id}/requests/{id}.
// Only the fields sent change.
type DealRequestUpdate struct {
	Title      Optional[string]          `json:"title,omitzero"`
	Body       Optional[string]          `json:"body,omitzero"`
	Number     Optional[string]          `json:"number,omitzero"`
	Priority   Optional[Priority]        `json:"priority,omitzero"`
	Category   Optional[RequestCategory] `json:"category,omitzero"`
	Requester  Optional[string]          `json:"requester,omitzero"`
	DueDate    Optional[string]          `json:"due_date,omitzero"`
	AssigneeID Optional[string]          `json:"assignee_id,omitzero"`
	Status     Optional[RequestStatus]   `json:"status,omitzero"`
}

// MessageCreate is the body of POST .../messages. No field is required.
type MessageCreate struct {
	Text         Optional[string]      `json:"text,omitzero"`
	Kind         Optional[MessageKind] `json:"kind,omitzero"`
	Partial      Optional[bool]        `json:"partial,omitzero"`
	Internal     Optional[bool]        `json:"internal,omitzero"`
	UpdateStatus Optional[bool]        `json:"update_status,omitzero"`
	Links        Optional[[]Link]      `json:"links,omitzero"`
	// Source is *extension* imported-answers: `import` posts an answer
	// from a spreadsheet, shown as imported on both sides, and only an
	// owning-party member may (403 import_not_allowed); `api`, the
	// default, is what every API post is. A client sends it only where
	// the server advertises ExtImportedAnswers.
	Source Optional[MessageSource] `json:"source,omitzero"`
}

// AssigneeFilterValue is one value of the assignee_id list filter
// (*extension*): a person id, or AssigneeNone for unassigned rows.
type AssigneeFilterValue string

// AssigneeNone names unassigned rows in the assignee_id filter.
const AssigneeNone AssigneeFilterValue = "none"
