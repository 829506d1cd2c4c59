package server

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
)

// writeJSON writes v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, `{"code":"internal"}`, http.StatusInternalServerError)
		return
	}
	writeBody(w, status, body)
}

func writeBody(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeError writes err as an ErrorResponse; anything that is not one is
// an internal error, logged here and never shown to the caller.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if s.schemaRefusal(w, err) {
		return
	}
	var refused *bodyRefused
	if errors.As(err, &refused) {
		writeBodyRefused(w, refused)
		return
	}
	var badKeys *badKeysRefused
	if errors.As(err, &badKeys) {
		s.writeBadKeysRefused(w, badKeys)
		return
	}
	var e *api.ErrorResponse
	if !errors.As(err, &e) && s.outageRefusal(w, r, err) {
		return
	}
	if e == nil {
		s.log.Error("internal error", "method", r.Method, "path", r.URL.Path, "err", err, "request_id", requestID(r.Context()))
		e = api.NewError(api.CodeInternal, "")
	}
	writeJSON(w, e.Code.HTTPStatus(), e)
}

// typeError names where in a field's value the wrong type is. For an
// array it decodes the items one by one to find the first bad one.
func typeError(name string, raw json.RawMessage, t reflect.Type, err error) api.FieldError {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return api.FieldError{Path: name, Code: api.FieldInvalid}
	}
	fe := api.FieldError{Path: name, Code: api.FieldInvalid, Params: map[string]any{"expected": jsonTypeName(te.Type)}}
	elem := t
	if inner, ok := optionalValue(t); ok {
		elem = inner
	}
	var items []json.RawMessage
	if elem.Kind() != reflect.Slice || json.Unmarshal(raw, &items) != nil {
		return fe
	}
	for i, item := range items {
		one := reflect.New(elem.Elem())
		err := json.Unmarshal(exactKeys(item, elem.Elem()), one.Interface())
		if errors.As(err, &te) {
			fe.Path = name + "[" + strconv.Itoa(i) + "]"
			if te.Field != "" {
				fe.Path += "." + te.Field
			}
			fe.Params = map[string]any{"expected": jsonTypeName(te.Type)}
			break
		}
	}
	return fe
}

// exactKeys drops the object keys of data that are not exactly a field
// name of t. JSON names are case-sensitive, but encoding/json would take
// "Title" or "INTERNAL" for "title" and "internal"; here they are unknown
// fields, which are ignored (docs/decisions.md). It recurses through Optional
// values, structs and slices, and leaves anything else to Unmarshal.
func exactKeys(data []byte, t reflect.Type) []byte {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return data
	}
	switch t.Kind() {
	case reflect.Struct:
		if inner, ok := optionalValue(t); ok {
			return exactKeys(data, inner)
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(data, &obj) != nil {
			return data // not an object: Unmarshal reports the wrong type
		}
		fields := map[string]reflect.Type{}
		for i := range t.NumField() {
			if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
				fields[name] = t.Field(i).Type
			}
		}
		kept := make(map[string]json.RawMessage, len(obj))
		for k, v := range obj {
			if ft, ok := fields[k]; ok {
				kept[k] = exactKeys(v, ft)
			}
		}
		if out, err := json.Marshal(kept); err == nil {
			return out
		}
	case reflect.Slice:
		var items []json.RawMessage
		if json.Unmarshal(data, &items) != nil {
			return data
		}
		for i := range items {
			items[i] = exactKeys(items[i], t.Elem())
		}
		if out, err := json.Marshal(items); err == nil {
			return out
		}
	}
	return data
}

// jsonTypeName names a Go type as the JSON type a caller should send, by
// its kind: an api.Optional as what it holds, a type that reads itself
// from text (time.Time, say) as a string.
func jsonTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if inner, ok := optionalValue(t); ok {
		return jsonTypeName(inner)
	}
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		return "string"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Struct, reflect.Map:
		return "object"
	}
	return "string"
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// optionalValue tells whether t is an api.Optional, and the type it holds.
func optionalValue(t reflect.Type) (reflect.Type, bool) {
	if t.Kind() != reflect.Struct || t.PkgPath() != optionalPkg || !strings.HasPrefix(t.Name(), "Optional[") {
		return nil, false
	}
	f, ok := t.FieldByName("Value")
	return f.Type, ok
}

var optionalPkg = reflect.TypeFor[api.Optional[bool]]().PkgPath()
