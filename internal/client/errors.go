package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// Error is a non-2xx answer. Response is the server's ErrorResponse, or one
// synthesised from the status when the body was not one (a proxy's HTML
// page, say), so callers can always switch on Response.Code.
type Error struct {
	StatusCode int
	Method     string
	URL        string
	Response   *api.ErrorResponse
	// Decoded is false when Response was synthesised from the status.
	Decoded bool
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s %s: %d %s", e.Method, e.URL, e.StatusCode, e.Response.Error())
}

// Unwrap lets errors.As reach the *api.ErrorResponse.
func (e *Error) Unwrap() error { return e.Response }

func newError(method, u string, resp *http.Response, body []byte) *Error {
	e := &Error{StatusCode: resp.StatusCode, Method: method, URL: u}
	var er api.ErrorResponse
	if json.Unmarshal(body, &er) == nil && er.Code != "" {
		e.Response, e.Decoded = &er, true
		return e
	}
	e.Response = &api.ErrorResponse{Code: codeForStatus(resp.StatusCode)}
	return e
}

// codeForStatus inverts docs/decisions.md's code ↔ status table for answers that
// carry no ErrorResponse.
func codeForStatus(status int) api.ErrorCode {
	switch status {
	case http.StatusBadRequest:
		return api.CodeBadRequest
	case http.StatusUnauthorized:
		return api.CodeUnauthenticated
	case http.StatusForbidden:
		return api.CodeForbidden
	case http.StatusNotFound:
		return api.CodeNotFound
	case http.StatusMethodNotAllowed:
		return api.CodeMethodNotAllowed
	case http.StatusConflict:
		return api.CodeConflict
	case http.StatusGone:
		// dealctl's server answers expired download links with 403
		// (reason link_expired); another server may use 410.
		return api.CodeForbidden
	case http.StatusRequestEntityTooLarge:
		return api.CodePayloadTooLarge
	case http.StatusUnprocessableEntity:
		return api.CodeValidationFailed
	case http.StatusTooManyRequests:
		return api.CodeRateLimited
	}
	if status >= 500 {
		return api.CodeInternal
	}
	return api.CodeBadRequest
}

// RateLimitedError is a 429 that did not clear within the client's wait
// budget.
type RateLimitedError struct {
	RetryAfter time.Duration // what the last answer asked for
	Waited     time.Duration // what was spent waiting already
	Err        *Error
}

func (e *RateLimitedError) Error() string {
	return fmt.Sprintf("rate limited by the server (waited %s, it asks for %s more)", e.Waited, e.RetryAfter)
}

// Unwrap exposes the 429 *Error.
func (e *RateLimitedError) Unwrap() error { return e.Err }

// NetworkError is a call that got no HTTP answer (after retries for a GET).
type NetworkError struct {
	Method, URL string
	Err         error
}

func (e *NetworkError) Error() string {
	return fmt.Sprintf("%s %s: %v", e.Method, e.URL, e.Err)
}

func (e *NetworkError) Unwrap() error { return e.Err }

// IsNotFound reports whether err is a 404 answer.
func IsNotFound(err error) bool { return StatusOf(err) == http.StatusNotFound }

// IsConflictStale reports whether err is a 409 conflict_stale: an
// If-Match that no longer matched because the thing changed meanwhile.
func IsConflictStale(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Response.Code == api.CodeConflictStale
}

// StatusOf returns the HTTP status of an *Error in err's chain, or 0.
func StatusOf(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.StatusCode
	}
	return 0
}

func isRedirectRefusal(err error) bool {
	return strings.Contains(err.Error(), "refusing to follow a redirect")
}
