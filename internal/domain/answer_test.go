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
