package domain

import (
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

func TestAnswerMove(t *testing.T) {
	for _, c := range []struct {
		kind                            api.MessageKind
		partial, internal, updateStatus bool
		to                              api.RequestStatus
		moves                           bool
	}{
		{api.MessageResponse, false, false, true, api.StatusComplete, true},
		{api.MessageResponse, true, false, true, api.StatusPartial, true},
		{api.MessageResponse, false, true, true, "", false},
		{api.MessageResponse, false, false, false, "", false},
		{api.MessageQuestion, false, false, true, "", false},
		{api.MessageInternalNote, false, true, true, "", false},
	} {
		to, moves := AnswerMove(c.kind, c.partial, c.internal, c.updateStatus)
		if to != c.to || moves != c.moves {
			t.Errorf("AnswerMove(%s, partial %v, internal %v, update %v) = %q, %v; want %q, %v",
				c.kind, c.partial, c.internal, c.updateStatus, to, moves, c.to, c.moves)
		}
	}
}

func TestRequestAfterAnswer(t *testing.T) {
	ownerOnOpen := api.DealRequest{Number: "1.2", Status: api.StatusOpen,
		AllowedStatuses: []api.RequestStatus{api.StatusOpen, api.StatusPartial, api.StatusComplete}}
	// The counterparty on a complete request may not reopen it.
	otherOnComplete := api.DealRequest{Number: "1.3", Status: api.StatusComplete,
		AllowedStatuses: []api.RequestStatus{api.StatusComplete}}
	response := &api.Message{Kind: api.MessageResponse}
	partial := &api.Message{Kind: api.MessageResponse, Partial: true}
	for _, c := range []struct {
		name   string
		r      api.DealRequest
		posted *api.Message
		in     api.MessageCreate
		want   api.RequestStatus
	}{
		{"a response completes", ownerOnOpen, response, api.MessageCreate{}, api.StatusComplete},
		{"a partial response", ownerOnOpen, partial, api.MessageCreate{}, api.StatusPartial},
		{"update_status false", ownerOnOpen, response, api.MessageCreate{UpdateStatus: api.Some(false)}, api.StatusOpen},
		{"update_status null is the default", ownerOnOpen, response, api.MessageCreate{UpdateStatus: api.Optional[bool]{Set: true, Null: true}}, api.StatusComplete},
		{"an internal response", ownerOnOpen, &api.Message{Kind: api.MessageResponse, Internal: true}, api.MessageCreate{}, api.StatusOpen},
		{"a question", ownerOnOpen, &api.Message{Kind: api.MessageQuestion}, api.MessageCreate{}, api.StatusOpen},
		{"a move the poster may not make", otherOnComplete, partial, api.MessageCreate{}, api.StatusComplete},
	} {
		before := c.r
		got := RequestAfterAnswer(&c.r, c.posted, c.in)
		if got.Status != c.want || got.Number != c.r.Number {
			t.Errorf("%s: status %s, number %s; want %s, %s", c.name, got.Status, got.Number, c.want, c.r.Number)
		}
		if c.r.Status != before.Status {
			t.Errorf("%s: the request given was changed", c.name)
		}
	}
}
