// Package api holds the wire types of the Deal Request List Service API v1
// (docs/api.md#resources-and-fields), shared by the server and the client.
//
// A field the spec calls "nullable" is always present in JSON and may be
// null, so nullable fields are pointers without omitempty.
package api

// Access is a person's access on their side of a deal.
type Access string

// Access values.
const (
	AccessAdmin  Access = "admin"
	AccessEditor Access = "editor"
	AccessViewer Access = "viewer"
)

// KeyAccess is what an API key may do: read permits GET calls and download
// links only; write permits everything.
type KeyAccess string

// KeyAccess values.
const (
	KeyRead  KeyAccess = "read"
	KeyWrite KeyAccess = "write"
)

// Side is buy (the Financial Sponsor) or sell (the Target).
type Side string

// Side values.
const (
	SideBuy  Side = "buy"
	SideSell Side = "sell"
)

// ParticipantRole is a person's role on a deal.
type ParticipantRole string

// ParticipantRole values.
const (
	RolePrincipal ParticipantRole = "principal"
	RoleCounsel   ParticipantRole = "counsel"
	RoleBanker    ParticipantRole = "banker"
	RoleAdvisor   ParticipantRole = "advisor"
	RoleOther     ParticipantRole = "other"
)

// RequestKind tells a request from a section heading.
type RequestKind string

// RequestKind values.
const (
	KindRequest RequestKind = "request"
	KindSection RequestKind = "section"
)

// RequestStatus is where a request stands.
type RequestStatus string

// RequestStatus values, in their natural order.
const (
	StatusOpen     RequestStatus = "open"
	StatusPartial  RequestStatus = "partial"
	StatusComplete RequestStatus = "complete"
)

// Priority of a request.
type Priority string

// Priority values.
const (
	PriorityLow    Priority = "low"
	PriorityMedium Priority = "medium"
	PriorityHigh   Priority = "high"
)

// RequestCategory is the workstream a request belongs to.
type RequestCategory string

// RequestCategory values.
const (
	CategoryBusiness       RequestCategory = "business"
	CategoryLegal          RequestCategory = "legal"
	CategoryTax            RequestCategory = "tax"
	CategoryAccounting     RequestCategory = "accounting"
	CategoryTechnology     RequestCategory = "technology"
	CategoryHumanResources RequestCategory = "human_resources"
)

// MessageKind drives triage and display, never a request's status by itself.
type MessageKind string

// MessageKind values.
const (
	MessageResponse     MessageKind = "response"
	MessageQuestion     MessageKind = "question"
	MessageReference    MessageKind = "reference"
	MessageInternalNote MessageKind = "internal_note"
)

// MessageSource says where a message came from.
type MessageSource string

// MessageSource values.
const (
	SourceEmail  MessageSource = "email"
	SourceWeb    MessageSource = "web"
	SourceImport MessageSource = "import"
	SourceAPI    MessageSource = "api"
)

// BodyFormat says how a message's text is to be read.
type BodyFormat string

// BodyFormat values. The contract fixes `text` (never `plain`) for plain text.
const (
	FormatText     BodyFormat = "text"
	FormatMarkdown BodyFormat = "markdown"
)

// FileKind tells an uploaded file from a link.
type FileKind string

// FileKind values.
const (
	FileKindFile FileKind = "file"
	FileKindLink FileKind = "link"
)

// Enumerations as lists, for validation, documentation and completion.
var (
	Accesses          = []Access{AccessAdmin, AccessEditor, AccessViewer}
	KeyAccesses       = []KeyAccess{KeyRead, KeyWrite}
	Sides             = []Side{SideBuy, SideSell}
	ParticipantRoles  = []ParticipantRole{RolePrincipal, RoleCounsel, RoleBanker, RoleAdvisor, RoleOther}
	RequestKinds      = []RequestKind{KindRequest, KindSection}
	RequestStatuses   = []RequestStatus{StatusOpen, StatusPartial, StatusComplete}
	Priorities        = []Priority{PriorityLow, PriorityMedium, PriorityHigh}
	RequestCategories = []RequestCategory{CategoryBusiness, CategoryLegal, CategoryTax, CategoryAccounting, CategoryTechnology, CategoryHumanResources}
	MessageKinds      = []MessageKind{MessageResponse, MessageQuestion, MessageReference, MessageInternalNote}
	MessageSources    = []MessageSource{SourceEmail, SourceWeb, SourceImport, SourceAPI}
	// PostedSources are the sources a POST of a message may name
	// (*extension* imported-answers): the others are doors of their own.
	PostedSources = []MessageSource{SourceImport, SourceAPI}
)

// OneOf reports whether v is among allowed.
func OneOf[T ~string](v T, allowed []T) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}

// Names lists an enumeration's values as plain strings, to say which
// values are allowed.
func Names[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}
