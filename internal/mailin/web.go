package mailin

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/dealctl/dealctl/internal/signing"
)

// Web serves the mail doors that speak HTTP: the inbound webhook (POST
// /mail/inbound) and the confirmation page (/mail/confirm/{link}). serve
// mounts it beside the API; neither is part of the API (no key, no
// JSON envelope for the page).
type Web struct {
	Receiver *Receiver
	Poster   Poster
	// InboundSecret authenticates the webhook (Authorization: Bearer
	// SECRET); "" turns the webhook off (404).
	InboundSecret string
	// FormKey signs the confirmation form's anti-forgery token.
	FormKey *signing.Key
}

// Handler routes the mail pages.
func (w *Web) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /mail/inbound", w.inbound)
	mux.HandleFunc("GET /mail/confirm/{link}", w.confirmPage)
	mux.HandleFunc("POST /mail/confirm/{link}", w.confirmAction)
	return mux
}

// inbound takes one mail a provider forwards as HTTP: the raw message
// (RFC 5322, as SMTP's DATA carries it) as the body, the reply address it
// came to in ?to= and the envelope sender in ?from= (the header From
// stands in when the provider gives none). It answers 202 when the reply
// is held; a refusal with the status of its kind (docs/mail.md) and a
// JSON body naming its reason, so the provider bounces it or, on 503,
// tries again.
func (w *Web) inbound(rw http.ResponseWriter, r *http.Request) {
	if w.InboundSecret == "" {
		http.NotFound(rw, r)
		return
	}
	if !bearerMatches(r.Header.Get("Authorization"), w.InboundSecret) {
		rw.Header().Set("WWW-Authenticate", `Bearer realm="dealctl mail"`)
		writeRefusal(rw, http.StatusUnauthorized, "unauthenticated", "a valid Authorization: Bearer secret is required")
		return
	}
	body := http.MaxBytesReader(rw, r.Body, MaxMessageBytes+1)
	q := r.URL.Query()
	from := q.Get("from")
	raw, err := readAllLimited(body)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.Is(err, ErrTooLarge), errors.As(err, &tooLarge):
		writeRefusal(rw, refuseTooLarge.HTTP, refuseTooLarge.Reason, refuseTooLarge.Message)
		return
	case err != nil:
		writeRefusal(rw, http.StatusBadRequest, "unreadable_body", "the mail was cut off")
		return
	}
	if from == "" {
		from = fromHeaderAddress(raw)
	}
	ctx := r.Context()
	rcpt, err := w.Receiver.Recipient(ctx, q.Get("to"), from)
	if err == nil {
		_, err = w.Receiver.Hold(ctx, rcpt, bytes.NewReader(raw))
	}
	if err != nil {
		ref := asRefusal(err)
		if ref == refuseBusy {
			w.Receiver.log().Error("reply by e-mail not taken", "at", "inbound", "err", err.Error())
		} else {
			w.Receiver.log().Info("reply by e-mail refused", "at", "inbound", "reason", ref.Reason, "mail_from", from)
		}
		writeRefusal(rw, ref.HTTP, ref.Reason, ref.Message)
		return
	}
	rw.Header().Set("Content-Type", "application/json")
	rw.WriteHeader(http.StatusAccepted)
	_, _ = rw.Write([]byte(`{"held":true}` + "\n"))
}

// bearerMatches compares the presented secret with the configured one in
// constant time (hashed first, so their lengths tell nothing either).
func bearerMatches(header, secret string) bool {
	scheme, got, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	a, b := sha256.Sum256([]byte(strings.TrimSpace(got))), sha256.Sum256([]byte(secret))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

func writeRefusal(rw http.ResponseWriter, status int, reason, message string) {
	rw.Header().Set("Content-Type", "application/json")
	rw.WriteHeader(status)
	_ = json.NewEncoder(rw).Encode(map[string]any{"held": false, "reason": reason, "message": message})
}
