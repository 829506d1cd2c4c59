package api

import "strings"

// Wire names dealctl's server and client share beyond the spec's paths
// and bodies: its extensions (docs/api.md, "Extensions:
// X-Dealctl-Extensions") and the headers they and the rate limit use. The
// server sends and reads them, the client reads and sends them, from this
// one list (BatchHeader is with the events).

// ExtensionsHeader names, on every API answer, the extensions a server
// adds to the API contract. A server that sends none (the hosted service
// as the spec describes it) gets the plain contract from the client.
const ExtensionsHeader = "X-Dealctl-Extensions"

// The extensions of dealctl's server.
const (
	// ExtListFilters: GET …/requests takes status, priority, category,
	// assignee_id and updated_since query filters.
	ExtListFilters = "list-filters"
	// ExtIfMatch: a PATCH with If-Match naming a stale ETag answers 409
	// conflict_stale instead of overwriting someone else's change.
	ExtIfMatch = "if-match"
	// ExtIfUpdatedAt: a PATCH with IfUpdatedAtHeader naming an updated_at
	// the row no longer has answers 409 conflict_stale: the precondition
	// for a row read from a list, which has no ETag per row.
	ExtIfUpdatedAt = "if-updated-at"
	// ExtIdempotencyKey: a POST with IdempotencyKeyHeader replays its
	// first successful answer, so it can be retried without writing twice.
	ExtIdempotencyKey = "idempotency-key"
	// ExtEvents: GET /deals/{id}/events?after=ID&limit=N lists what
	// happened on the deal, oldest first, with who did it.
	ExtEvents = "events"
	// ExtDelete: DELETE /deals/{id}/requests/{request_id} deletes a
	// request, or an empty section, without messages.
	ExtDelete = "delete"
	// ExtBatch: a write with BatchHeader marks the events it records with
	// that batch id, so that one run's writes can be taken back together.
	ExtBatch = "batch"
	// ExtInternalMarks: the owning side's rows mark what its internal
	// messages gave them, a latest answer or a file or link, "internal":
	// true; without it only the conversations tell.
	ExtInternalMarks = "internal-marks"
	// ExtHeldReplies: GET /deals/{id}/held-replies lists the replies by
	// e-mail waiting for confirmation that the caller's side may confirm;
	// …/held-replies/{held_id}/post and …/discard decide one
	// (docs/mail.md).
	ExtHeldReplies = "held-replies"
	// ExtImportedAnswers: POST …/messages takes "source": "import" from
	// an owning-party member, for an answer read from a spreadsheet; the
	// message is shown with source import on both sides.
	ExtImportedAnswers = "imported-answers"
	// ExtSearch: GET /deals/{id}/search?q=… finds words in the deal's
	// requests and conversations, ranked, in what the caller may see.
	ExtSearch = "search"
	// ExtListDelta: a list's 200 carries ListCursorHeader, and
	// GET …/requests-delta?since=CURSOR answers a ListDelta, the rows
	// changed and removed since the list that cursor came with.
	ExtListDelta = "list-delta"
)

// ServerExtensions is what dealctl's server advertises in
// ExtensionsHeader, in this order.
var ServerExtensions = strings.Join([]string{ExtListFilters, ExtIfMatch, ExtIfUpdatedAt, ExtIdempotencyKey,
	ExtEvents, ExtDelete, ExtBatch, ExtInternalMarks, ExtImportedAnswers, ExtSearch, ExtHeldReplies, ExtListDelta}, ", ")

// Headers of the extensions and of the rate limit.
const (
	IfUpdatedAtHeader    = "X-Dealctl-If-Updated-At"
	IdempotencyKeyHeader = "Idempotency-Key"
	// ListCursorHeader names, on a list's 200 (whole or delta), the
	// cursor to send as ?since= for what changes after it (ExtListDelta).
	ListCursorHeader = "X-Dealctl-List-Cursor"
	// The rate limit's budget, on every answer that spent or was refused
	// a call: calls a minute, calls left, seconds until it is full again.
	RateLimitLimitHeader     = "X-RateLimit-Limit"
	RateLimitRemainingHeader = "X-RateLimit-Remaining"
	RateLimitResetHeader     = "X-RateLimit-Reset"
)
