package domain

import "github.com/dealctl/dealctl/internal/api"

// AnswerMove is the status a posted message moves its request to, and
// whether it moves it at all: a shared response does, to partial when it
// says it is partial, else to complete, unless the poster asked it not
// to (update_status false). A question, a comment or an internal note
// moves nothing: the other side would see a status change with no answer
// behind it. Whether the poster may make the move from the request's
// current status is AllowedStatuses' to say; a move it does not allow is
// not made (the message is posted all the same).
func AnswerMove(kind api.MessageKind, partial, internal, updateStatus bool) (api.RequestStatus, bool) {
	if kind != api.MessageResponse || internal || !updateStatus {
		return "", false
	}
	if partial {
		return api.StatusPartial, true
	}
	return api.StatusComplete, true
}

// RequestAfterAnswer is r as a message just posted on it left it: the
// server moves the status by AnswerMove, within r.AllowedStatuses (what
// the poster may move r to from where it is). `dealctl answer` tells
// where the status landed from it without reading the request again,
// which is exact because r is the server's copy from just before the
// post.
func RequestAfterAnswer(r *api.DealRequest, posted *api.Message, in api.MessageCreate) api.DealRequest {
	after := *r
	updateStatus := !in.UpdateStatus.Set || in.UpdateStatus.Null || in.UpdateStatus.Value
	if to, moves := AnswerMove(posted.Kind, posted.Partial, posted.Internal, updateStatus); moves && api.OneOf(to, r.AllowedStatuses) {
		after.Status = to
	}
	return after
}
