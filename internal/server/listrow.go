package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

// listRow is one request as one party sees it, encoded.
type listRow struct {
	req keptRequest
	// json is the row as a list shows it, less the values of
	// allowed_statuses and can, which go at allowedAt and canAt.
	json             []byte
	allowedAt, canAt int32
}

// keptRequest is what a kept row holds of its request besides its
// encoding: its place in the list, what list filters read, what its ETag
// is built on. Rows are most of the server's memory (a 64-deal world
// holds 35,000), so nothing else is kept: no title or body (the encoding
// has them), no pointers where an empty value says "none", times as
// microseconds, and values many rows share held once (rowInterner).
type keptRequest struct {
	ID, Number, ParentID string // ParentID "": a top-level row
	Kind                 api.RequestKind
	Status               api.RequestStatus
	Priority             api.Priority
	Category             api.RequestCategory
	DueDate, AssigneeID  string // "": none
	// UpdatedAt and InternalUpdatedAt are in microseconds, as stored
	// (InternalUpdatedAt 0: none).
	UpdatedAt, InternalUpdatedAt int64
}

func keepRequest(r store.Request, in rowInterner) keptRequest {
	k := keptRequest{ID: r.ID, Number: r.Number, ParentID: in.str(deref(r.ParentID)),
		Kind: canonical(r.Kind, api.RequestKinds), Status: canonical(r.Status, api.RequestStatuses),
		Priority: canonical(r.Priority, api.Priorities), Category: canonical(r.Category, api.RequestCategories),
		DueDate: in.str(deref(r.DueDate)), AssigneeID: in.str(deref(r.AssigneeID)), UpdatedAt: r.UpdatedAt.UnixMicro()}
	if r.InternalUpdatedAt != nil {
		k.InternalUpdatedAt = r.InternalUpdatedAt.UnixMicro()
	}
	return k
}

// stamps is the request as far as its ETag reads it (requestETag).
func (k *keptRequest) stamps() store.Request {
	r := store.Request{ID: k.ID, UpdatedAt: time.UnixMicro(k.UpdatedAt).UTC()}
	if k.InternalUpdatedAt != 0 {
		at := time.UnixMicro(k.InternalUpdatedAt).UTC()
		r.InternalUpdatedAt = &at
	}
	return r
}

// filterFields is what of a row list filters read (domain.RequestFilter).
func (k *keptRequest) filterFields() api.DealRequest {
	return api.DealRequest{ID: k.ID, ParentID: ptrUnlessEmpty(k.ParentID), Kind: k.Kind, Status: k.Status, Priority: k.Priority,
		Category: k.Category, AssigneeID: ptrUnlessEmpty(k.AssigneeID), DueDate: ptrUnlessEmpty(k.DueDate), UpdatedAt: time.UnixMicro(k.UpdatedAt).UTC()}
}

// rowInterner holds one copy of the strings many rows of a build share
// (their parents' ids, assignees, due dates), so that the rows do not
// each keep the copy the database read gave them.
type rowInterner map[string]string

func (in rowInterner) str(s string) string {
	if s == "" {
		return ""
	}
	if held, ok := in[s]; ok {
		return held
	}
	in[s] = s
	return s
}

// canonical is v as the constant among allowed it equals, which takes no
// memory of its own; v itself when it is none of them.
func canonical[T ~string](v T, allowed []T) T {
	for _, a := range allowed {
		if a == v {
			return a
		}
	}
	return v
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func ptrUnlessEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (r *listRow) RowID() string       { return r.req.ID }
func (r *listRow) RowNumber() string   { return r.req.Number }
func (r *listRow) RowParentID() string { return r.req.ParentID }

// callerParts are the values a caller's rows take for allowed_statuses
// and can, by row kind and status: a handful, encoded once per body. A
// body looks each row's up twice (its length, then its bytes), so they
// are found by comparing the few kinds and statuses, not by hashing.
type callerParts struct {
	caller domain.Caller
	parts  []rowParts
}

// rowParts are the caller's values for rows of one kind and status.
type rowParts struct {
	kind   api.RequestKind
	status api.RequestStatus
	values [2][]byte // allowed_statuses, can
}

func newCallerParts(c domain.Caller) *callerParts {
	return &callerParts{caller: c}
}

func (p *callerParts) of(r *keptRequest) [2][]byte {
	for i := range p.parts {
		if p.parts[i].kind == r.Kind && p.parts[i].status == r.Status {
			return p.parts[i].values
		}
	}
	allowed, _ := json.Marshal(p.caller.AllowedStatuses(r.Kind, r.Status))
	can, _ := json.Marshal(p.caller.Can(r.Kind, r.Status))
	v := [2][]byte{allowed, can}
	p.parts = append(p.parts, rowParts{kind: r.Kind, status: r.Status, values: v})
	return v
}

// sizeFor is the length of the row as the caller of p sees it.
func (r *listRow) sizeFor(p *callerParts) int {
	v := p.of(&r.req)
	return len(r.json) + len(v[0]) + len(v[1])
}

// appendFor appends the row as the caller of p sees it.
func (r *listRow) appendFor(out []byte, p *callerParts) []byte {
	v := p.of(&r.req)
	out = append(out, r.json[:r.allowedAt]...)
	out = append(out, v[0]...)
	out = append(out, r.json[r.allowedAt:r.canAt]...)
	out = append(out, v[1]...)
	return append(out, r.json[r.canAt:]...)
}

// placeholders are the values a row is encoded with before they are cut
// out: nothing in the encoding can look like them but those fields, since
// a quote inside a JSON string is always escaped.
var (
	allowedField, allowedValue = []byte(`,"allowed_statuses":[]`), []byte(`[]`)
	canField, canValue         = []byte(`,"can":{"edit":false,"assign":false,"change_status":false,"answer":false}`),
		[]byte(`{"edit":false,"assign":false,"change_status":false,"answer":false}`)
)

// encodeRow encodes one row for a party, the caller's values cut out.
func encodeRow(view *dealView, r store.Request, latest *store.Message, files []store.File, in rowInterner) (*listRow, error) {
	shown := view.request(r, latest, files)
	shown.AllowedStatuses, shown.Can = []api.RequestStatus{}, api.RequestCan{}
	encoded, err := json.Marshal(shown)
	if err != nil {
		return nil, err
	}
	a := bytes.Index(encoded, allowedField)
	c := bytes.LastIndex(encoded, canField)
	if a < 0 || c < a {
		return nil, fmt.Errorf("request %s: its encoding has no place for the caller's fields", r.ID)
	}
	a += len(allowedField) - len(allowedValue) // where the values start
	c += len(canField) - len(canValue)
	row := make([]byte, 0, len(encoded)-len(allowedValue)-len(canValue))
	row = append(row, encoded[:a]...)
	row = append(row, encoded[a+len(allowedValue):c]...)
	row = append(row, encoded[c+len(canValue):]...)
	return &listRow{req: keepRequest(r, in), json: row, allowedAt: int32(a), canAt: int32(c - len(allowedValue))}, nil
}
