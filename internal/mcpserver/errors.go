package mcpserver

import (
	"errors"
	"fmt"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
)

// describeAPIError says what a refusal of the API means for the
// assistant, and what it can do next; other errors are kept as they are.
func describeAPIError(err error) string {
	var e *client.Error
	if !errors.As(err, &e) {
		return err.Error()
	}
	reason := e.Response.Reason()
	what := fmt.Sprintf("the server answered %d %s", e.StatusCode, e.Response.Code)
	if reason != "" {
		what += " (" + reason + ")"
	}
	switch {
	case e.Response.Code == api.CodeUnauthenticated:
		return what + ": the key is missing, expired or revoked; the user must run 'dealctl auth login'"
	case e.Response.Code == api.CodeForbidden:
		return what + ": this key may not do that (its rights on this deal, a read-only key, or an archived deal); do not retry"
	case e.Response.Code == api.CodeNotFound:
		return what + ": nothing this key can see is there"
	case e.Response.Code == api.CodeConflictStale:
		return what + ": the request changed since it was read; read it again (get_request) and ask the user again"
	case e.Response.Code == api.CodeValidationFailed:
		return what + ": " + e.Response.Error()
	}
	return what + ": " + e.Response.Error()
}
