package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/output"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// describedError is an error that already says, in one line, what
// happened and what to do; it keeps the cause for the exit code and for
// --json (the server's ErrorResponse).
type describedError struct {
	err error
	msg string
}

func (e *describedError) Error() string { return e.msg }
func (e *describedError) Unwrap() error { return e.err }

// exitCode maps an error to the documented exit code.
func exitCode(err error) int {
	if code, ok := cmdutil.ChosenExitCode(err); ok {
		return code
	}
	var rl *client.RateLimitedError
	if errors.As(err, &rl) {
		return cmdutil.ExitRateLimited
	}
	var fe *output.FormatError
	if errors.As(err, &fe) {
		return cmdutil.ExitUsage
	}
	var jqe *output.JQError
	if errors.As(err, &jqe) {
		// The command ran (a write it made stands): not the usage error
		// (2) a script reads as "nothing was done", which a re-run of a
		// write would do twice.
		return cmdutil.ExitFailure
	}
	var ce *client.Error
	if errors.As(err, &ce) {
		if notDealctlAPI(ce) {
			return cmdutil.ExitFailure
		}
		switch ce.StatusCode {
		case http.StatusUnauthorized, http.StatusForbidden:
			return cmdutil.ExitAuth
		case http.StatusNotFound:
			return cmdutil.ExitNotFound
		case http.StatusConflict:
			return cmdutil.ExitConflict
		case http.StatusUnprocessableEntity:
			return cmdutil.ExitValidation
		case http.StatusTooManyRequests:
			return cmdutil.ExitRateLimited
		}
		return cmdutil.ExitFailure
	}
	return cmdutil.ExitFailure
}

// printError writes err to w as one line a person can act on, or with
// --json as the server's ErrorResponse (synthesised for local errors).
func printError(w io.Writer, err error, asJSON bool) {
	if cmdutil.IsSilent(err) {
		return
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(errorResponseOf(err))
		return
	}
	// The message may quote the server (a field's path, a reason).
	fmt.Fprintln(w, termsafe.Text("dealctl: "+describeError(err)))
}

// errorResponseOf returns the server's ErrorResponse inside err, or one
// made up from the exit code with the message in params.message.
func errorResponseOf(err error) *api.ErrorResponse {
	var ce *client.Error
	if errors.As(err, &ce) && ce.Decoded {
		return ce.Response
	}
	code := map[int]api.ErrorCode{
		cmdutil.ExitUsage: api.CodeBadRequest, cmdutil.ExitNotFound: api.CodeNotFound, cmdutil.ExitAuth: api.CodeUnauthenticated,
		cmdutil.ExitConflict: api.CodeConflict, cmdutil.ExitValidation: api.CodeValidationFailed, cmdutil.ExitRateLimited: api.CodeRateLimited,
	}[exitCode(err)]
	if ce != nil {
		code = ce.Response.Code
	}
	params := map[string]any{"message": describeError(err)}
	var jqe *output.JQError
	if errors.As(err, &jqe) {
		code = api.CodeBadRequest // the expression is the mistake, though the command ran
		if jqe.Written != nil {
			params["written"] = jqe.Written
		}
	}
	if code == "" {
		code = api.CodeInternal
	}
	return &api.ErrorResponse{Code: code, Params: params}
}

// describeError turns err into one line: what failed, why, what to do.
func describeError(err error) string {
	if errors.Is(err, context.Canceled) {
		return "interrupted"
	}
	var de *describedError
	if errors.As(err, &de) {
		return de.msg
	}
	var rl *client.RateLimitedError
	if errors.As(err, &rl) {
		return fmt.Sprintf("the server's rate limit is exhausted (waited %s, it asks for %s more): wait a minute and run it again, or raise DEALCTL_RATE_WAIT",
			rl.Waited.Round(1e9), rl.RetryAfter.Round(1e9))
	}
	var ne *client.NetworkError
	if errors.As(err, &ne) {
		return fmt.Sprintf("cannot reach the server (%v): check --server / DEALCTL_SERVER and that the server is running", ne.Err)
	}
	var ce *client.Error
	if errors.As(err, &ce) {
		return describeAPIError(ce)
	}
	return err.Error()
}

// describeAPIError explains an API error answer in the user's terms.
func describeAPIError(e *client.Error) string {
	r := e.Response
	reason := r.Reason()
	what := fmt.Sprintf("%s %s failed", e.Method, trimAPI(e.URL))
	if e.StatusCode == http.StatusGone {
		return "the download link expired before use: run the command again"
	}
	if notDealctlAPI(e) {
		base, path := splitAPIURL(e.URL)
		return fmt.Sprintf("%s does not answer as a dealctl API (HTTP %d for %s %s): check --server / DEALCTL_SERVER",
			base, e.StatusCode, e.Method, path)
	}
	switch r.Code {
	case api.CodeUnauthenticated:
		switch reason {
		case api.ReasonKeyExpired:
			return "the API key has expired: ask an admin of the deal for a new one ('dealctl admin keys create'), then run 'dealctl auth login' with it, or fix DEALCTL_API_KEY"
		case api.ReasonKeyRevoked:
			return "the API key was revoked: ask an admin of the deal for a new one, then run 'dealctl auth login' with it, or fix DEALCTL_API_KEY"
		}
		return "the server rejected the API key (unknown, expired or revoked): run 'dealctl auth login' with a valid key, or fix DEALCTL_API_KEY"
	case api.CodeForbidden:
		if msg, ok := forbiddenReasons[reason]; ok {
			return "not allowed: " + msg
		}
		if reason != "" {
			return fmt.Sprintf("not allowed (%s): %s", reason, what)
		}
		return "not allowed: your key or role does not permit " + what
	case api.CodeNotFound:
		return what + ": not found, or not visible to this key: check the deal and the id ('dealctl deals ls', 'dealctl requests ls')"
	case api.CodeConflict:
		if allowed, ok := r.Params["allowed"].([]any); ok {
			return fmt.Sprintf("cannot move the status from %v to %v; allowed moves: %s", r.Params["from"], r.Params["to"], joinAny(allowed))
		}
		if n, ok := r.Params["number"]; ok {
			return fmt.Sprintf("number %v is already used on this deal: choose another with --number", n)
		}
		if reason == api.ReasonNotDownloadable {
			return "the file is not downloadable yet (still being scanned): try again later"
		}
		if msg, ok := conflictReasons[reason]; ok {
			return msg
		}
		return what + ": conflict with the current state: read it again and retry"
	case api.CodeConflictStale:
		return what + ": someone changed it meanwhile: read it again and retry"
	case api.CodeValidationFailed:
		return "the server rejected the input: " + describeFields(r.Fields)
	case api.CodeBadRequest:
		if reason == api.ReasonEmptyMessage {
			return "the message is empty: give text with -m or -F, or a --link"
		}
		return what + ": the server could not read the request" + paramsSuffix(r)
	case api.CodePayloadTooLarge:
		return what + ": the body is over the server's 1 MiB limit: shorten it"
	}
	return fmt.Sprintf("%s: the server answered %d %s: try again later, or report it to the server's operator", what, e.StatusCode, r.Code)
}

var forbiddenReasons = map[string]string{
	api.ReasonReadOnlyKey:         "this API key is read-only: use a key with write access ('dealctl auth login')",
	api.ReasonDealArchived:        "the deal is archived and read-only",
	api.ReasonCannotCreateRequest: "only admins and editors of the owning side may create requests",
	api.ReasonCannotEditRequest:   "only admins and editors of the owning side may edit requests",
	api.ReasonCannotTransition:    "your role on this deal cannot move a request's status (viewers cannot)",
	api.ReasonCannotChangeRequest: "viewers cannot change requests (edit, assign or move the status)",
	api.ReasonCannotPost:          "your role on this deal cannot post on this request",
	api.ReasonCannotAssign:        "your role on this deal cannot assign requests or set due dates",
	api.ReasonInternalNotAllowed:  "the counterparty cannot post internal notes: drop --internal and --kind internal_note",
	api.ReasonCannotConfirmReply:  "only admins and editors of a side may see, post or discard its replies by e-mail (viewers cannot): ask one of them",
}

// conflictReasons word the conflicts whose reason says what to do.
var conflictReasons = map[string]string{
	api.ReasonReplyNotHeld:       "the reply by e-mail is not held any more (posted or discarded already, by its sender or a colleague): nothing was done; 'dealctl inbox ls' lists those still held",
	api.ReasonReplyExpired:       "the reply by e-mail expired (held past its time): nothing was posted; its sender must answer again",
	api.ReasonSenderCannotAnswer: "the reply's sender may no longer answer this request (taken off the deal, made a viewer, or the deal archived): nothing was posted; discard it, or post the text yourself with 'dealctl answer'",
}

func describeFields(fields []api.FieldError) string {
	if len(fields) == 0 {
		return "invalid input"
	}
	parts := make([]string, len(fields))
	for i, f := range fields {
		s := f.Path + ": " + strings.ReplaceAll(f.Code, "_", " ")
		if len(f.Params) > 0 {
			keys := make([]string, 0, len(f.Params))
			for k := range f.Params {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var ps []string
			for _, k := range keys {
				ps = append(ps, fmt.Sprintf("%s %v", k, f.Params[k]))
			}
			s += " (" + strings.Join(ps, ", ") + ")"
		}
		parts[i] = s
	}
	return strings.Join(parts, "; ")
}

func paramsSuffix(r *api.ErrorResponse) string {
	if len(r.Params) == 0 {
		return ""
	}
	b, _ := json.Marshal(r.Params)
	return " " + string(b)
}

func joinAny(xs []any) string {
	if len(xs) == 0 {
		return "none"
	}
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// notDealctlAPI reports whether e shows that the address is not a
// dealctl API (a wrong --server, a web server, a proxy's page, a path
// prefix too many): an answer without the ErrorResponse every dealctl
// error carries, or a 404 for a path every dealctl API serves. A 5xx is
// left out: that is a server or a proxy in front of it failing, not a
// wrong address.
func notDealctlAPI(e *client.Error) bool {
	if !strings.Contains(e.URL, "/api/") || e.StatusCode >= 500 || e.StatusCode == http.StatusTooManyRequests {
		return false
	}
	_, path := splitAPIURL(e.URL)
	alwaysServed := path == "/api/v1/me" || path == "/api/v1/deals"
	return !e.Decoded || (e.StatusCode == http.StatusNotFound && alwaysServed)
}

// splitAPIURL splits a request URL into the server's address and the
// path from /api/ on, without the query.
func splitAPIURL(u string) (base, path string) {
	u, _, _ = strings.Cut(u, "?")
	if i := strings.Index(u, "/api/"); i >= 0 {
		return u[:i], u[i:]
	}
	return u, ""
}

// trimAPI shortens a request URL to its API path for messages.
func trimAPI(u string) string {
	if i := strings.Index(u, "/api/v1"); i >= 0 {
		return u[i+len("/api/v1"):]
	}
	return u
}
