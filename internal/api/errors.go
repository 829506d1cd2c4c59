package api

import (
	"fmt"
	"net/http"
)

// ErrorCode is the machine-readable code of an ErrorResponse.
type ErrorCode string

// ErrorCode values (docs/api.md#errors) and their HTTP statuses (docs/decisions.md).
const (
	CodeBadRequest       ErrorCode = "bad_request"
	CodeValidationFailed ErrorCode = "validation_failed"
	CodeUnauthenticated  ErrorCode = "unauthenticated"
	CodeForbidden        ErrorCode = "forbidden"
	CodeNotFound         ErrorCode = "not_found"
	CodeMethodNotAllowed ErrorCode = "method_not_allowed"
	CodeConflict         ErrorCode = "conflict"
	CodeConflictStale    ErrorCode = "conflict_stale"
	CodeRateLimited      ErrorCode = "rate_limited"
	CodePayloadTooLarge  ErrorCode = "payload_too_large"
	CodeInternal         ErrorCode = "internal"
)

// HTTPStatus maps a code to its HTTP status.
func (c ErrorCode) HTTPStatus() int {
	switch c {
	case CodeBadRequest:
		return http.StatusBadRequest
	case CodeValidationFailed:
		return http.StatusUnprocessableEntity
	case CodeUnauthenticated:
		return http.StatusUnauthorized
	case CodeForbidden:
		return http.StatusForbidden
	case CodeNotFound:
		return http.StatusNotFound
	case CodeMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case CodeConflict, CodeConflictStale:
		return http.StatusConflict
	case CodeRateLimited:
		return http.StatusTooManyRequests
	case CodePayloadTooLarge:
		return http.StatusRequestEntityTooLarge
	default:
		return http.StatusInternalServerError
	}
}

// Reasons carried in params.reason for the named conditions of docs/api.md#errors and
// the contract's further ones.
const (
	ReasonCannotCreateRequest = "cannot_create_request"
	ReasonCannotEditRequest   = "cannot_edit_request"
	ReasonCannotTransition    = "cannot_transition"
	ReasonCannotChangeRequest = "cannot_change_request"
	ReasonCannotPost          = "cannot_post"
	ReasonCannotAssign        = "cannot_assign"
	ReasonEmptyMessage        = "empty_message"
	ReasonReadOnlyKey         = "read_only_key"
	ReasonDealArchived        = "deal_archived"
	ReasonInternalNotAllowed  = "internal_not_allowed"
	ReasonNotDownloadable     = "not_downloadable"
	ReasonDuplicateNumber     = "duplicate_number"
	ReasonStatusNotAllowed    = "status_not_allowed"
	// A message with source import from someone who is not an
	// owning-party member (extension "imported-answers").
	ReasonImportNotAllowed = "import_not_allowed"
	// DELETE of a request (extension "delete"): the caller may not delete
	// requests; the row has messages, or is a section with rows under it.
	ReasonCannotDeleteRequest = "cannot_delete_request"
	ReasonHasMessages         = "has_messages"
	ReasonHasChildren         = "has_children"
	// A search (extension "search") whose q holds no word (punctuation
	// alone), or that asks match=any in messages.
	ReasonNoWords           = "no_words"
	ReasonAnyInRequestsOnly = "any_in_requests_only"
	// A 401 for a key whose secret matched: it is expired, or revoked.
	ReasonKeyExpired = "key_expired"
	ReasonKeyRevoked = "key_revoked"
	// X-Dealctl-Batch (extension "batch") that is not a batch id.
	ReasonInvalidBatch = "invalid_batch"
	// Idempotency-Key (extension): the key first sent on another path or
	// with another body; the first call with the key still running.
	ReasonIdempotencyKeyReused  = "idempotency_key_reused"
	ReasonIdempotencyInProgress = "idempotency_in_progress"
	// Held replies by e-mail (extension "held-replies"): a viewer may not
	// confirm one; the reply was posted or discarded already, or its hold
	// ended; its sender may no longer answer the request.
	ReasonCannotConfirmReply = "cannot_confirm_reply"
	ReasonReplyNotHeld       = "reply_not_held"
	ReasonReplyExpired       = "reply_expired"
	ReasonSenderCannotAnswer = "sender_cannot_answer"
)

// FieldError codes (docs/decisions.md).
const (
	FieldRequired     = "required"
	FieldBlank        = "blank"
	FieldTooLong      = "too_long"
	FieldTooShort     = "too_short"
	FieldInvalid      = "invalid"
	FieldNotHTTPS     = "not_https"
	FieldUnknownValue = "unknown_value"
	FieldNotFound     = "not_found"
	FieldTooMany      = "too_many"
)

// ErrorResponse is the body of every error answer. It is also a Go error,
// so the server can return it and the client can decode into it.
type ErrorResponse struct {
	Code   ErrorCode      `json:"code"`
	Params map[string]any `json:"params,omitempty"`
	Fields []FieldError   `json:"fields,omitempty"`
}

// FieldError names one bad input field.
type FieldError struct {
	Path   string         `json:"path"`
	Code   string         `json:"code"`
	Params map[string]any `json:"params,omitempty"`
}

// Error renders the response as one line.
func (e *ErrorResponse) Error() string {
	s := string(e.Code)
	if r, ok := e.Params["reason"]; ok {
		s += fmt.Sprintf(" (%v)", r)
	}
	for _, f := range e.Fields {
		s += fmt.Sprintf("; %s: %s", f.Path, f.Code)
	}
	return s
}

// Reason returns params.reason, or "".
func (e *ErrorResponse) Reason() string {
	r, _ := e.Params["reason"].(string)
	return r
}

// NewError builds an ErrorResponse with an optional reason.
func NewError(code ErrorCode, reason string) *ErrorResponse {
	e := &ErrorResponse{Code: code}
	if reason != "" {
		e.Params = map[string]any{"reason": reason}
	}
	return e
}
