package mailin

import (
	"errors"
	"fmt"
	"net/http"
)

// Refusal is why a reply is not taken, with the SMTP reply the sender's
// server gets (its bounce says Message) and the HTTP status the inbound
// webhook answers. Reason is the word logs and tests match.
type Refusal struct {
	Code     int    // SMTP reply code: 550, 552, or 451 for a failure worth retrying
	Enhanced [3]int // RFC 3463 status code
	HTTP     int
	Reason   string
	Message  string
}

func (r *Refusal) Error() string { return fmt.Sprintf("%s: %s", r.Reason, r.Message) }

// The refusals (docs/mail.md, "What is refused").
var (
	refuseUnknown   = &Refusal{550, [3]int{5, 1, 1}, http.StatusNotFound, "unknown_address", "no such reply address here"}
	refuseExpired   = &Refusal{550, [3]int{5, 1, 1}, http.StatusGone, "address_expired", "this reply address has expired: answer in dealctl, or reply to a newer notification"}
	refuseUsed      = &Refusal{550, [3]int{5, 7, 1}, http.StatusConflict, "address_used", "this reply address took a reply already: answer in dealctl, or reply to a newer notification"}
	refuseSender    = &Refusal{550, [3]int{5, 7, 1}, http.StatusForbidden, "sender_mismatch", "the sender is not the person this reply address was sent to"}
	refuseArchived  = &Refusal{550, [3]int{5, 7, 1}, http.StatusForbidden, "deal_archived", "the deal is archived: it takes no more answers"}
	refuseCannot    = &Refusal{550, [3]int{5, 7, 1}, http.StatusForbidden, "cannot_answer", "you may not answer this request (no longer on the deal, or not an editor)"}
	refuseAutomatic = &Refusal{550, [3]int{5, 7, 1}, http.StatusUnprocessableEntity, "automatic_reply", "automatic replies (out of office, bounces) are not taken"}
	refuseTooLarge  = &Refusal{552, [3]int{5, 3, 4}, http.StatusRequestEntityTooLarge, "too_large", ErrTooLarge.Error()}
	refuseNoSender  = &Refusal{550, [3]int{5, 7, 1}, http.StatusForbidden, "no_sender", "a reply needs a sender (an empty MAIL FROM is a bounce)"}
	refuseLongLine  = &Refusal{550, [3]int{5, 6, 0}, http.StatusUnprocessableEntity, "unreadable_reply", "a line of the mail is over 2000 characters (RFC 5322 allows 998)"}
	refuseBusy      = &Refusal{451, [3]int{4, 3, 0}, http.StatusServiceUnavailable, "unavailable", "the reply cannot be taken now: try again later"}
)

// contentRefusal turns Parse's error into the refusal the sender sees.
func contentRefusal(err error) *Refusal {
	switch {
	case errors.Is(err, ErrTooLarge):
		return refuseTooLarge
	case errors.Is(err, ErrTextTooLong), errors.Is(err, ErrTooManyAttachments), errors.Is(err, ErrNoText), errors.Is(err, ErrUnreadable):
		return &Refusal{550, [3]int{5, 6, 0}, http.StatusUnprocessableEntity, "unreadable_reply", err.Error()}
	}
	return refuseBusy
}

// asRefusal is err as a Refusal; an error that is none (the database
// away) is a temporary one, so the sender's server tries again.
func asRefusal(err error) *Refusal {
	var r *Refusal
	if errors.As(err, &r) {
		return r
	}
	return refuseBusy
}
