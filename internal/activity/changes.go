package activity

import (
	"encoding/json"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
)

// Change is one field a request event changed, by its API name, with
// what it held before and after (nil: null, a cleared field). History
// shows them and revert puts From back.
type Change struct {
	Field    string
	From, To *string
}

// editOrder is the order a request.edited event's changes are given in:
// the order the server checks them, which is the order of the API's
// fields.
var editOrder = []string{"number", "title", "body", "priority", "category", "requester", "parent_id"}

// Changes are the fields ev changed, for the request events that change
// fields: request.edited (from its changes; an older server's event
// that names only its fields gives none), request.assigned
// (assignee_id), request.due_date_set (due_date) and
// request.status_moved (status). Other events change no field.
func Changes(ev client.Event) []Change {
	switch ev.Type {
	case RequestEdited:
		var d api.RequestEditedData
		if json.Unmarshal(ev.Data, &d) != nil {
			return nil
		}
		var out []Change
		for _, f := range editOrder {
			if c, ok := d.Changes[f]; ok {
				out = append(out, Change{Field: f, From: c.From, To: c.To})
			}
		}
		return out
	case RequestAssigned:
		return fromTo(ev.Data, "assignee_id")
	case DueDateSet:
		return fromTo(ev.Data, "due_date")
	case StatusMoved:
		return fromTo(ev.Data, "status")
	}
	return nil
}

func fromTo(data json.RawMessage, field string) []Change {
	var d struct {
		From *string `json:"from"`
		To   *string `json:"to"`
	}
	if json.Unmarshal(data, &d) != nil {
		return nil
	}
	return []Change{{Field: field, From: d.From, To: d.To}}
}

// Deleted is the row a request.deleted event carries; ok is false for
// any other event.
func Deleted(ev client.Event) (row api.RequestDeletedData, ok bool) {
	if ev.Type != RequestDeleted {
		return row, false
	}
	return row, json.Unmarshal(ev.Data, &row) == nil
}

// Batch is the batch ev's write named (X-Dealctl-Batch), or "".
func Batch(ev client.Event) string {
	var d struct {
		Batch string `json:"batch"`
	}
	_ = json.Unmarshal(ev.Data, &d)
	return d.Batch
}

// Number is the request's number when ev was recorded, or "".
func Number(ev client.Event) string { return data(ev.Data).str("number") }

// Unrecorded are the fields a request.edited event names without their
// old values: an event a server recorded before it kept them, whose
// changes cannot be put back.
func Unrecorded(ev client.Event) []string {
	if ev.Type != RequestEdited {
		return nil
	}
	var d api.RequestEditedData
	if json.Unmarshal(ev.Data, &d) != nil {
		return nil
	}
	var out []string
	for _, f := range d.Fields {
		if _, ok := d.Changes[f]; !ok {
			out = append(out, f)
		}
	}
	return out
}
