package client

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// maxOutageWait bounds the waits on 503s with Retry-After within one call:
// long enough to ride out a database restart or an instance's replacement
// (a few seconds), short enough that a command on a server that stays down
// ends with its error instead of hanging (docs/client.md).
const maxOutageWait = 30 * time.Second

// reasonDatabaseUnavailable is the 503 of a server whose database is away.
// Unlike schema_newer, it may come after the call acted (a commit whose
// answer was lost), so only a call that is safe to repeat is sent again.
const reasonDatabaseUnavailable = "database_unavailable"

// reasonIdempotencyInProgress is the 409 of a keyed POST whose first call
// has not finished, or whose claim the server is still releasing.
const reasonIdempotencyInProgress = "idempotency_in_progress"

// mustRead is an in-memory body's bytes (nil when it cannot be read).
func mustRead(body io.ReadCloser) []byte {
	data, _ := readBody(body)
	return data
}

// safeToRepeat reports whether a write may be sent again after an answer
// that does not say whether it acted: a PATCH that names the version it
// changes (If-Match with an ETag, or X-Dealctl-If-Updated-At) applies at
// most once, since a repeat after it applied no longer matches; a PATCH
// sent with a RepeatSafe context lands the same however often; a POST
// with an Idempotency-Key replays the first answer on a server that
// advertises the extension.
func safeToRepeat(req *http.Request, replays func() bool) bool {
	switch req.Method {
	case http.MethodPatch:
		m := req.Header.Get("If-Match")
		return (m != "" && m != "*") || req.Header.Get(api.IfUpdatedAtHeader) != "" || isRepeatSafe(req.Context())
	case http.MethodPost:
		return req.Header.Get("Idempotency-Key") != "" && replays != nil && replays()
	}
	return false
}

// errorReason is params.reason of an ErrorResponse body, or "".
func errorReason(body []byte) string {
	var e struct {
		Params struct {
			Reason string `json:"reason"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &e) != nil {
		return ""
	}
	return e.Params.Reason
}

type repeatSafeKey struct{}

// RepeatSafe marks the PATCHes sent with ctx as safe to send again after
// an answer that does not say whether they acted (a dropped connection, a
// database outage's 503), as a PATCH naming its version is: for a caller
// whose PATCH sets fields to values, so that a second landing changes
// nothing the first did not (import's field updates). Not for a status
// move, which a repeat cannot make twice: MoveStatus names the version.
func RepeatSafe(ctx context.Context) context.Context {
	return context.WithValue(ctx, repeatSafeKey{}, true)
}

func isRepeatSafe(ctx context.Context) bool {
	safe, _ := ctx.Value(repeatSafeKey{}).(bool)
	return safe
}
