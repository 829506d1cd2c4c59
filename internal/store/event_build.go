package store

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// These build the events of the store's writes from what the write read
// and wrote, so that every backend records the same ones.

func newEvent(t api.EventType, at time.Time, actor *string, requestID string, data any) Event {
	raw, err := json.Marshal(data)
	if err != nil {
		// Every data type is a struct of strings, bools and numbers.
		panic("event data does not encode: " + err.Error())
	}
	rid := requestID
	return Event{Type: t, At: at, ActorID: actor, RequestID: &rid, Scope: ScopeShared, Data: raw}
}

// CreatedEvents are the events of creating r.
func CreatedEvents(r Request, actor *string) []Event {
	return []Event{newEvent(api.EventRequestCreated, r.CreatedAt, actor, r.ID,
		api.RequestCreatedData{Number: r.Number, Kind: r.Kind, Title: r.Title})}
}

// UpdateEvents are the events of changing old into new: one edit event
// naming the edited fields, then assignment, due date and status, each
// only when it changed. A write that changed nothing records nothing.
func UpdateEvents(old, new Request, actor *string) []Event {
	at := new.UpdatedAt
	var out []Event
	if fields, changes := editedFields(old, new); len(fields) > 0 {
		out = append(out, newEvent(api.EventRequestEdited, at, actor, new.ID, api.RequestEditedData{Number: new.Number, Fields: fields, Changes: changes}))
	}
	if !equalPtr(old.AssigneeID, new.AssigneeID) {
		out = append(out, newEvent(api.EventAssigned, at, actor, new.ID, api.AssignedData{Number: new.Number, From: old.AssigneeID, To: new.AssigneeID}))
	}
	if !equalPtr(old.DueDate, new.DueDate) {
		out = append(out, newEvent(api.EventDueDateSet, at, actor, new.ID, api.DueDateSetData{Number: new.Number, From: old.DueDate, To: new.DueDate}))
	}
	if old.Status != new.Status {
		out = append(out, StatusEvent(new, old.Status, at, actor))
	}
	return out
}

// StatusEvent is the event of r's status moving from from to r.Status.
func StatusEvent(r Request, from api.RequestStatus, at time.Time, actor *string) Event {
	return newEvent(api.EventStatusMoved, at, actor, r.ID, api.StatusMovedData{Number: r.Number, From: from, To: r.Status})
}

// editedFields names, by their API names, the edit fields that differ,
// and what each held before and after: the whole text, so that history
// can show what a write replaced and revert can put it back.
func editedFields(old, new Request) ([]string, map[string]api.FieldChange) {
	var names []string
	changes := map[string]api.FieldChange{}
	add := func(name string, from, to *string) {
		if !equalPtr(from, to) {
			names = append(names, name)
			changes[name] = api.FieldChange{From: from, To: to}
		}
	}
	was, is := editValues(old), editValues(new)
	// The fields an edit changes (domain.EditFields), and where the row
	// sits, which revert and delete put back.
	for _, name := range append(slices.Clone(domain.EditFields), "parent_id") {
		add(name, was[name], is[name])
	}
	return names, changes
}

// editValues is r's value of each field editedFields compares, by API
// name.
func editValues(r Request) map[string]*string {
	text := func(s string) *string { return &s }
	return map[string]*string{
		"number": text(r.Number), "title": text(r.Title), "body": text(r.Body),
		"priority": text(string(r.Priority)), "category": text(string(r.Category)),
		"requester": r.Requester, "parent_id": r.ParentID,
	}
}

// DeletedEvent is the event of deleting r: it carries every field of the
// row, so that the row can be made again from it.
func DeletedEvent(r Request, at time.Time, actor *string) Event {
	return newEvent(api.EventRequestDeleted, at, actor, r.ID, api.RequestDeletedData{
		Number: r.Number, Kind: r.Kind, Title: r.Title, Body: r.Body, Status: r.Status, Priority: r.Priority,
		Category: r.Category, Requester: r.Requester, DueDate: r.DueDate, AssigneeID: r.AssigneeID, ParentID: r.ParentID})
}

// MessageEvent is the event of posting m on r. An internal message's is
// read by its own side only.
func MessageEvent(r Request, m Message) Event {
	e := newEvent(api.EventMessagePosted, m.PostedAt, m.AuthorID, r.ID, api.MessagePostedData{
		Number: r.Number, MessageID: m.ID, Kind: m.Kind, Partial: m.Partial, Internal: m.Internal, Source: m.Source})
	return scopedToMessage(e, m)
}

// FileEvent is the event t (attached, link issued, fetched) about f, on
// m of r. Attaching is seen as the message is; downloads are audit.
func FileEvent(t api.EventType, r Request, m Message, f File, at time.Time, actor *string) Event {
	e := newEvent(t, at, actor, r.ID, api.FileData{Number: r.Number, MessageID: m.ID, VersionID: f.VersionID, Name: f.Name, Size: f.Size})
	if t == api.EventFileAttached {
		return scopedToMessage(e, m)
	}
	e.Scope = ScopeAudit
	return e
}

// scopedToMessage gives e the readers of m: an internal message's events
// are its party's alone (domain.MessageVisibleTo).
func scopedToMessage(e Event, m Message) Event {
	if m.Internal {
		party := m.PartyID
		e.Scope, e.PartyID = ScopeParty, &party
	}
	return e
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
