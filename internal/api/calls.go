package api

import (
	"net/http"
	"strings"
)

// IsWriteCall reports whether a call of method on path, an API path
// relative to /api/v1 (/deals/{deal_id}/requests), changes something:
// every call that does not only read (GET, HEAD, OPTIONS), except a
// download link, which only signs a token. The server gates writes by it
// (a newer schema seen), and the client tells by it that a command made
// its write before its output failed.
func IsWriteCall(method, path string) bool {
	return !ReadOnlyMethod(method) && !strings.HasSuffix(path, "/download-link")
}

// ReadOnlyMethod reports whether a call of method only reads: GET, HEAD
// and OPTIONS. (A download link is asked for with POST: it is no write,
// IsWriteCall, but it hands out access, so the server reads the caller's
// key afresh for it as for a write.)
func ReadOnlyMethod(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}
