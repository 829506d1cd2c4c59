package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// EventScope says who may read an event.
type EventScope string

const (
	// ScopeShared events are read by everyone on the deal.
	ScopeShared EventScope = "shared"
	// ScopeParty events are read by PartyID's side only: an internal note
	// and the files on it, which the other side must not learn of at all.
	ScopeParty EventScope = "party"
	// ScopeAudit events (downloads) are read by the owning side's project
	// admins only.
	ScopeAudit EventScope = "audit"
)

// Event is one thing that happened on a deal. A write records its events
// in its own transaction, so none is lost and none is invented; (Seq,
// Index) is its place in the deal's history, in commit order.
type Event struct {
	DealID    string
	Seq       int64 // the deal's event_seq taken by the write
	Index     int   // position among the write's events
	Type      api.EventType
	At        time.Time
	ActorID   *string // the person who did it; nil for the system
	RequestID *string
	Scope     EventScope
	PartyID   *string // ScopeParty: the side that reads it
	Data      json.RawMessage
}

// Cursor is the place of an event; the zero Cursor is before the first.
type Cursor struct {
	Seq   int64
	Index int
}

// Cursor returns the event's place.
func (e Event) Cursor() Cursor { return Cursor{Seq: e.Seq, Index: e.Index} }

// EventQuery is one reader's page of a deal's events.
type EventQuery struct {
	After Cursor
	Limit int
	// PartyID is the reader's side: its ScopeParty events are included.
	PartyID string
	// Audit includes ScopeAudit events (the owning side's project admins).
	Audit bool
}

// Events holds the deal's event history.
type Events interface {
	// Events lists the events after q.After that q's reader may read,
	// oldest first, at most q.Limit of them.
	Events(ctx context.Context, dealID string, q EventQuery) ([]Event, error)
	// RecordEvents writes events that come with no other change (a
	// download), in one transaction that takes the deal's next place.
	RecordEvents(ctx context.Context, dealID string, events ...Event) error
}

type actorKey struct{}

// WithActor returns ctx naming the person (by person id) on whose behalf
// the writes it is passed to are made; the events they record name them.
// A write without one records the system as the actor.
func WithActor(ctx context.Context, personID string) context.Context {
	return context.WithValue(ctx, actorKey{}, personID)
}

// ActorFrom returns the person id ctx names, or nil.
func ActorFrom(ctx context.Context) *string {
	if id, ok := ctx.Value(actorKey{}).(string); ok && id != "" {
		return &id
	}
	return nil
}

type batchKey struct{}

// WithBatch returns ctx naming the batch (a run such as one import, by
// the id its client chose) that the writes it is passed to belong to:
// their events carry it in their data, as "batch".
func WithBatch(ctx context.Context, batchID string) context.Context {
	return context.WithValue(ctx, batchKey{}, batchID)
}

// BatchFrom returns the batch id ctx names, or "".
func BatchFrom(ctx context.Context) string {
	id, _ := ctx.Value(batchKey{}).(string)
	return id
}

// InBatch returns data, a JSON object, with "batch": batchID added
// first; data as it is when batchID is "" or data is not an object.
func InBatch(data json.RawMessage, batchID string) json.RawMessage {
	if batchID == "" || len(data) < 2 || data[0] != '{' {
		return data
	}
	id, _ := json.Marshal(batchID)
	out := make([]byte, 0, len(data)+len(id)+10)
	out = append(out, `{"batch":`...)
	out = append(out, id...)
	if rest := data[1:]; len(rest) > 1 { // not "}": more fields follow
		out = append(out, ',')
	}
	return append(out, data[1:]...)
}
