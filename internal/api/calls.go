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
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return !strings.HasSuffix(path, "/download-link")
}
