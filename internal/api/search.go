package api

import "time"

// The search extension (ExtSearch): GET /deals/{id}/search?q=… answers
// SearchResults (docs/api.md, "Search").

// SearchField is where a search hit's words were found. The first
// four are a request's own fields; FieldRequest is a request whose
// fields hold the words between them, none alone; the last three are in
// its thread.
type SearchField string

// SearchField values.
const (
	FieldNumber    SearchField = "number"
	FieldTitle     SearchField = "title"
	FieldBody      SearchField = "body"
	FieldRequester SearchField = "requester"
	FieldRequest   SearchField = "request"
	FieldMessage   SearchField = "message"
	FieldLink      SearchField = "link"
	FieldFile      SearchField = "file"
)

// SearchIn is where a search looks (the in parameter).
type SearchIn string

// SearchIn values.
const (
	SearchInRequests SearchIn = "requests"
	SearchInMessages SearchIn = "messages"
)

// How a search combines its words (the match parameter): every word
// (the default), or any of them, best first.
const (
	SearchMatchAll = "all"
	SearchMatchAny = "any"
)

// Search limits: how many hits one answer holds by default and at most,
// and how long a query may be.
const (
	SearchDefaultLimit = 20
	SearchMaxLimit     = 500
	MaxSearchQueryLen  = 500
	MaxSearchTerms     = 16
)

// SearchResults is one search's answer: its hits, best first, and
// whether more than the limit matched.
type SearchResults struct {
	Hits []SearchHit `json:"hits"`
	More bool        `json:"more"`
}

// SearchHit is one place the words were found: a request's fields, a
// message, or a link or file on a message, with the request it belongs
// to.
type SearchHit struct {
	RequestID string      `json:"request_id"`
	Number    string      `json:"number"`
	Title     string      `json:"title"`
	Kind      RequestKind `json:"kind"`
	// Field is where the words are (FieldTitle, FieldMessage, …).
	Field SearchField `json:"field"`
	// Matched is, with match=any, how many of the query's words the hit
	// holds; with match=all every hit holds them all.
	Matched int `json:"matched"`
	// MessageID is the message a thread hit is in (field message, link
	// or file); FileVersionID the file or link (field link or file).
	MessageID     *string    `json:"message_id,omitempty"`
	FileVersionID *string    `json:"file_version_id,omitempty"`
	PostedAt      *time.Time `json:"posted_at,omitempty"`
	// Internal marks, for the side that wrote it, a hit in an internal
	// message; the other side never gets such a hit.
	Internal bool `json:"internal,omitempty"`
	// Snippet is a short excerpt of the field around the words, as
	// pieces: the words that matched are the pieces with match true.
	// Pieces are plain text, never markup.
	Snippet []SnippetPiece `json:"snippet"`
}

// SnippetPiece is one piece of a snippet.
type SnippetPiece struct {
	Text  string `json:"text"`
	Match bool   `json:"match,omitempty"`
}
