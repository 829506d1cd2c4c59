package server

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

// listRow is one request as one party sees it, encoded.
type listRow struct {
	req store.Request // as stored, less title and body, which json holds
	// json is the row as a list shows it, less the values of
	// allowed_statuses and can, which go at allowedAt and canAt.
	json             []byte
	allowedAt, canAt int
}

func (r *listRow) RowID() string     { return r.req.ID }
func (r *listRow) RowNumber() string { return r.req.Number }
func (r *listRow) RowParentID() string {
	if r.req.ParentID == nil {
		return ""
	}
	return *r.req.ParentID
}

// callerParts are the values a caller's rows take for allowed_statuses
// and can, by row kind and status: a handful, encoded once per body.
type callerParts struct {
	caller domain.Caller
	parts  map[[2]string][2][]byte
}

func newCallerParts(c domain.Caller) *callerParts {
	return &callerParts{caller: c, parts: map[[2]string][2][]byte{}}
}

func (p *callerParts) of(r *store.Request) [2][]byte {
	key := [2]string{string(r.Kind), string(r.Status)}
	if v, ok := p.parts[key]; ok {
		return v
	}
	allowed, _ := json.Marshal(p.caller.AllowedStatuses(r.Kind, r.Status))
	can, _ := json.Marshal(p.caller.Can(r.Kind, r.Status))
	v := [2][]byte{allowed, can}
	p.parts[key] = v
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
func encodeRow(view *dealView, r store.Request, latest *store.Message, files []store.File) (*listRow, error) {
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
	r.Title, r.Body, r.DealID = "", "", "" // held by json, or the set's
	return &listRow{req: r, json: row, allowedAt: a, canAt: c - len(allowedValue)}, nil
}
