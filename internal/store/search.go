package store

import (
	"context"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/search"
)

// Searcher finds words in a deal (the search extension; docs/api.md,
// "Search"). The index is kept by the database in the transaction of
// every write, so a search never misses a committed write.
type Searcher interface {
	Search(ctx context.Context, q SearchQuery) (SearchResult, error)
}

// SearchQuery is one search of one deal, as one viewer sees it.
type SearchQuery struct {
	DealID string
	// ViewerParty is the caller's party: internal messages of other
	// parties, and their files, are never searched.
	ViewerParty string
	Terms       search.Query
	// Any finds requests holding any of the terms, those holding the
	// most first (only with Requests and not Messages); otherwise every
	// term must match.
	Any bool
	// Where to look: the requests' own fields, their threads, or both.
	Requests, Messages bool
	// Filter keeps hits whose request passes it (requests only: a filter
	// leaves sections out).
	Filter domain.RequestFilter
	Limit  int
}

// SearchResult is a search's hits, best first, and whether more matched
// than the limit.
type SearchResult struct {
	Hits []SearchHit
	More bool
}

// SearchHit is one place the terms were found.
type SearchHit struct {
	Request Request
	// Field is where (api.FieldTitle, api.FieldMessage, …).
	Field api.SearchField
	// Matched is how many terms the hit holds.
	Matched int
	// Thread hits: the message, and the file or link on it.
	MessageID     string
	FileVersionID string
	PostedAt      time.Time
	Internal      bool
	// Text is a thread hit's text: the message's, or the file's name.
	Text string
}
