package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
)

// maxItems bounds the arrays of the input shapes by the API's limits. An
// array over its bound is refused on its item count, before any item is
// decoded, so a body of a million empty links costs a scan, not a million
// decoded objects.
var maxItems = map[string]int{"links": api.MaxLinks}

// requestBody is a body read and checked to be a strict JSON object, with
// the raw values of the fields the input shape knows; nothing is decoded
// yet. Handlers read it, decide whether the caller may make the call
// (which for a PATCH depends on which fields are sent), and only then
// decode it.
type requestBody struct {
	fields map[string]member
}

// has reports whether the body sends field name (null included).
func (b requestBody) has(name string) bool {
	_, ok := b.fields[name]
	return ok
}

// bufferedBody is a body already read, by the idempotency layer that
// fingerprints it, so that the handler does not read it twice.
type bufferedBody struct {
	*bytes.Reader
	data []byte
}

func (bufferedBody) Close() error { return nil }

// readRaw reads at most api.MaxRequestBody bytes: a larger declared or
// actual length answers 413 without more being read. While it reads, the
// body holds a place among those being read (bodyGate).
func readRaw(r *http.Request) ([]byte, error) {
	if b, ok := r.Body.(bufferedBody); ok {
		return b.data, nil
	}
	if r.ContentLength > api.MaxRequestBody {
		return nil, errTooLarge
	}
	release, err := enterBody(r)
	if err != nil {
		return nil, err
	}
	defer release()
	if r.ContentLength >= 0 {
		return readDeclared(r.Body, r.ContentLength)
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, api.MaxRequestBody+1))
	if err != nil {
		return nil, api.NewError(api.CodeBadRequest, "unreadable_body")
	}
	if len(data) > api.MaxRequestBody {
		return nil, errTooLarge
	}
	return data, nil
}

// readDeclared reads a body of a known length n in one allocation of
// exactly n bytes, but a large one only once its first upfrontBody bytes
// have arrived: a sender that declares 1 MiB and sends nothing holds
// upfrontBody, not 1 MiB, for as long as it waits.
func readDeclared(body io.Reader, n int64) ([]byte, error) {
	head := n
	if n > upfrontBody {
		head = upfrontBody
	}
	first := make([]byte, head)
	if _, err := io.ReadFull(body, first); err != nil {
		return nil, api.NewError(api.CodeBadRequest, "unreadable_body")
	}
	if head == n {
		return first, nil
	}
	data := make([]byte, n)
	copy(data, first)
	if _, err := io.ReadFull(body, data[head:]); err != nil {
		return nil, api.NewError(api.CodeBadRequest, "unreadable_body")
	}
	return data, nil
}

// upfrontBody is the largest declared body allocated before it arrives.
const upfrontBody = 64 << 10

var errTooLarge = &api.ErrorResponse{Code: api.CodePayloadTooLarge, Params: map[string]any{"max_bytes": api.MaxRequestBody}}

// readBody reads and scans a body for the input shape v points to (its
// json field names): over 1 MiB is 413; not a strict JSON object, invalid
// UTF-8 or a lone surrogate escape is 400 malformed_json; nesting deeper
// than maxBodyDepth is 400 nesting_too_deep. Nothing is stored from a
// body refused here.
func readBody(r *http.Request, v any) (requestBody, error) {
	data, err := readRaw(r)
	if err != nil {
		return requestBody{}, err
	}
	names := fieldNames(reflect.TypeOf(v).Elem())
	fields, err := scanObject(data, func(name string) bool { _, ok := names[name]; return ok })
	if se, ok := err.(*scanError); ok {
		return requestBody{}, &api.ErrorResponse{Code: api.CodeBadRequest, Params: map[string]any{"reason": se.reason, "detail": se.detail}}
	}
	return requestBody{fields: fields}, err
}

// fieldNames maps the json names of a struct's fields to their index.
func fieldNames(t reflect.Type) map[string]int {
	out := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			out[name] = i
		}
	}
	return out
}

// decode fills v from the body's fields, each on its own, so that every
// field of the wrong JSON type is named in one 422 (encoding/json stops at
// the first), with array indexes in the path (`links[3].url`). Unknown
// fields are ignored (docs/decisions.md). An array over its bound in maxItems is
// a 422 too_many, decided on its count alone.
func (b requestBody) decode(v any) error {
	rv := reflect.ValueOf(v).Elem()
	var errs fieldErrors
	for i := range rv.NumField() {
		name, _, _ := strings.Cut(rv.Type().Field(i).Tag.Get("json"), ",")
		m, ok := b.fields[name]
		if !ok || name == "" || name == "-" {
			continue
		}
		if limit, bounded := maxItems[name]; bounded && m.items > limit {
			errs.add(name, api.FieldTooMany, map[string]any{"max": limit})
			continue
		}
		field := rv.Field(i)
		if err := json.Unmarshal(exactKeys(m.raw, field.Type()), field.Addr().Interface()); err != nil {
			errs = append(errs, typeError(name, m.raw, field.Type(), err))
		}
	}
	return errs.err()
}

// decodeBody reads and decodes a body in one go, for handlers whose
// permission does not depend on the fields sent.
func decodeBody(r *http.Request, v any) error {
	b, err := readBody(r, v)
	if err != nil {
		return err
	}
	return b.decode(v)
}
