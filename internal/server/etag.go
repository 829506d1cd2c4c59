package server

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
)

// representation changes when the server shows the same stored data in
// a new shape (2: files carry "internal"), so that a body a client
// cached from an older server is not reused on its old validator.
const representation = "2"

// etagOf makes a strong validator from the parts that decide a body.
func etagOf(parts ...string) string {
	h := sha256.New()
	h.Write([]byte(representation))
	h.Write([]byte{0})
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return `"` + hex.EncodeToString(h.Sum(nil)[:16]) + `"`
}

// viewClass names everything that makes two callers see a deal
// differently: their side (internal messages), their access and key
// (can flags, allowed statuses). Callers of one class share bodies.
func viewClass(dc *dealCall) string {
	return strings.Join([]string{dc.seat.PartyID, string(dc.seat.Access), string(dc.key.Access), strconv.FormatBool(dc.seat.IsProjectAdmin)}, "|")
}

// notModified answers 304 when If-None-Match names etag.
func notModified(w http.ResponseWriter, r *http.Request, etag string) bool {
	w.Header().Set("ETag", etag)
	inm := r.Header.Get("If-None-Match")
	if inm == "" {
		return false
	}
	for _, t := range strings.Split(inm, ",") {
		t = strings.TrimSpace(t)
		if t == etag || t == "*" || strings.TrimPrefix(t, "W/") == etag {
			w.WriteHeader(http.StatusNotModified)
			return true
		}
	}
	return false
}

// versionFor is the deal version a caller's ETags are built on. The
// counterparty's moves only with what it can see: were it built on every
// write, a changed ETag would tell it that the owning side had posted an
// internal note, and when.
func versionFor(dc *dealCall) string {
	if dc.caller.OwnerSide {
		return strconv.FormatInt(dc.deal.Version, 10)
	}
	return "s" + strconv.FormatInt(dc.deal.SharedVersion, 10)
}
