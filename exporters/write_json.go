package exporters

import (
	"encoding/json"
	"io"

	"github.com/dealctl/dealctl/internal/api"
)

// requestWithMessages is a DealRequest with its conversation, for json
// exports made --with-messages.
type requestWithMessages struct {
	api.DealRequest
	Messages []api.Message `json:"messages"`
}

// WriteJSON writes the API's DealRequest array as it came, indented; with
// messages, each request also carries a "messages" array.
func WriteJSON(w io.Writer, e *Export) error {
	e = e.forWriting()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if !e.WithMessages() {
		rows := e.Rows
		if rows == nil {
			rows = []api.DealRequest{}
		}
		return enc.Encode(rows)
	}
	out := make([]requestWithMessages, len(e.Rows))
	for i, r := range e.Rows {
		msgs := e.Messages[r.ID]
		if msgs == nil {
			msgs = []api.Message{}
		}
		out[i] = requestWithMessages{DealRequest: r, Messages: msgs}
	}
	return enc.Encode(out)
}
