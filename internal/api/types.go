package api

import "time"

// Me is who the key acts as (GET /me).
type Me struct {
	User         User         `json:"user"`
	Organization Organization `json:"organization"`
	Key          Key          `json:"key"`
}

// User is a person with an account.
type User struct {
	ID    string  `json:"id"`
	Name  *string `json:"name"`
	Email *string `json:"email"`
}

// Organization is the firm a user belongs to.
type Organization struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Key describes an API key; its secret is never shown after creation.
type Key struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Prefix    string    `json:"prefix"`
	Access    KeyAccess `json:"access"`
	DealIDs   []string  `json:"deal_ids"`
	ExpiresAt time.Time `json:"expires_at"`
}

// Deal is one deal as listed.
type Deal struct {
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	Codename string  `json:"codename"`
	Timezone string  `json:"timezone"`
	Archived bool    `json:"archived"`
	Parties  []Party `json:"parties"`
}

// DealDetail is a deal with the caller's seat on it.
type DealDetail struct {
	Deal
	Me Seat `json:"me"`
}

// Party is one side of a deal.
type Party struct {
	ID      string  `json:"id"`
	Side    Side    `json:"side"`
	Label   *string `json:"label"`
	IsOwner bool    `json:"is_owner"`
}

// Seat is the caller's place on a deal.
type Seat struct {
	ParticipantID  string `json:"participant_id"`
	PartyID        string `json:"party_id"`
	Access         Access `json:"access"`
	IsProjectAdmin bool   `json:"is_project_admin"`
}

// Person is someone on a deal, from either side.
type Person struct {
	ID             string          `json:"id"`
	Name           *string         `json:"name"`
	Email          string          `json:"email"`
	PartyID        string          `json:"party_id"`
	Access         Access          `json:"access"`
	Role           ParticipantRole `json:"role"`
	IsProjectAdmin bool            `json:"is_project_admin"`
	Joined         bool            `json:"joined"`
}

// DealRequest is a row of a deal's list: a request or a section heading.
type DealRequest struct {
	ID              string          `json:"id"`
	ParentID        *string         `json:"parent_id"`
	Kind            RequestKind     `json:"kind"`
	Number          string          `json:"number"`
	Title           string          `json:"title"`
	Body            string          `json:"body"`
	Status          RequestStatus   `json:"status"`
	AllowedStatuses []RequestStatus `json:"allowed_statuses"`
	Priority        Priority        `json:"priority"`
	Category        RequestCategory `json:"category"`
	Requester       *string         `json:"requester"`
	DueDate         *string         `json:"due_date"`
	AssigneeID      *string         `json:"assignee_id"`
	StatusChangedAt *time.Time      `json:"status_changed_at"`
	CreatedAt       time.Time       `json:"created_at"`
	UpdatedAt       time.Time       `json:"updated_at"`
	LatestAnswer    *AnswerPreview  `json:"latest_answer"`
	Files           []File          `json:"files"`
	// LinksOmitted counts the links given in answer to the request that
	// the row leaves out (beyond MaxRowLinks, MaxRowLinkChars); they are
	// in the conversation. Extension; absent when none are.
	LinksOmitted int        `json:"links_omitted,omitempty"`
	Can          RequestCan `json:"can"`
}

// RequestCan reports what the caller may do with a request.
type RequestCan struct {
	Edit         bool `json:"edit"`
	Assign       bool `json:"assign"`
	ChangeStatus bool `json:"change_status"`
	Answer       bool `json:"answer"`
}

// AnswerPreview is the newest answer to a request, shortened.
type AnswerPreview struct {
	MessageID string        `json:"message_id"`
	Preview   string        `json:"preview"`
	Partial   bool          `json:"partial"`
	Source    MessageSource `json:"source"`
	Author    *Author       `json:"author"`
	PostedAt  *time.Time    `json:"posted_at"`
	// Internal marks an answer the caller's side posted as internal
	// (dealctl's extension): only that side ever sees such an answer, and
	// it tells an export meant for the other side to leave it out.
	Internal bool `json:"internal,omitempty"`
}

// Author is who posted a message.
type Author struct {
	ID    string  `json:"id"`
	Name  *string `json:"name"`
	Email string  `json:"email"`
}

// File is a file or link given with an answer.
type File struct {
	VersionID    string   `json:"version_id"`
	Name         *string  `json:"name"`
	Kind         FileKind `json:"kind"`
	URL          *string  `json:"url"`
	Size         *int64   `json:"size,omitempty"`
	ContentType  *string  `json:"content_type,omitempty"`
	Downloadable bool     `json:"downloadable"`
	// Internal marks a file or link given with an internal message of the
	// caller's side (dealctl's extension, as AnswerPreview.Internal): only
	// that side ever sees it, and an export meant for the other side
	// leaves it out.
	Internal bool `json:"internal,omitempty"`
}

// Message is one post in a request's conversation.
type Message struct {
	ID       string        `json:"id"`
	Kind     MessageKind   `json:"kind"`
	Partial  bool          `json:"partial"`
	Internal bool          `json:"internal"`
	Source   MessageSource `json:"source"`
	Text     string        `json:"text"`
	Format   BodyFormat    `json:"format"`
	PostedAt *time.Time    `json:"posted_at"`
	Author   *Author       `json:"author"`
	OnBehalf bool          `json:"on_behalf"`
	Files    []File        `json:"files"`
}

// Link is the input and output shape of a link.
type Link struct {
	URL   string  `json:"url"`
	Label *string `json:"label,omitempty"`
}

// DownloadLink is a short-lived link to fetch a file without the key.
type DownloadLink struct {
	URL         string    `json:"url"`
	ExpiresAt   time.Time `json:"expires_at"`
	Filename    string    `json:"filename"`
	Size        int64     `json:"size"`
	ContentType string    `json:"content_type"`
}

// ListDelta answers GET …/requests-delta?since=CURSOR (extension list-delta):
// what changed in the list since the one the cursor came with. A client
// holding that list drops the rows Removed names (an id it does not hold
// is nothing to drop), puts each of Changed in place of the row with its
// id or adds it, and puts the rows in list order (the tree order by
// number). When Full is true the cursor could not be followed (another
// view, filter or deal, or the deal's people or archived state changed
// since): Changed is then the whole list, which replaces the one held.
// Cursor is the list's new cursor, also sent as ListCursorHeader.
type ListDelta struct {
	Cursor  string        `json:"cursor"`
	Full    bool          `json:"full"`
	Changed []DealRequest `json:"changed"`
	Removed []string      `json:"removed"`
}
