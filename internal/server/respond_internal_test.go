package server

import (
	"errors"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// A field of the wrong type names the JSON type to send, whatever Go type
// holds it: an Optional by what it holds, a link by its kind (an object),
// an item of a list at its index.
func TestWrongTypeNamesTheJSONTypeToSend(t *testing.T) {
	cases := []struct{ body, path, expected string }{
		{`{"text": 5}`, "text", "string"},
		{`{"partial": "yes"}`, "partial", "boolean"},
		{`{"internal": 1}`, "internal", "boolean"},
		{`{"links": "https://x"}`, "links", "array"},
		{`{"links": ["https://x"]}`, "links[0]", "object"},
		{`{"links": [{"url": 5, "label": "x"}]}`, "links[0].url", "string"},
		{`{"kind": true}`, "kind", "string"},
	}
	for _, c := range cases {
		r := httptest.NewRequest("POST", "/x", strings.NewReader(c.body))
		r.Header.Set("Content-Type", "application/json")
		var in api.MessageCreate
		err := decodeBody(r, &in)
		var e *api.ErrorResponse
		if !errors.As(err, &e) || len(e.Fields) != 1 {
			t.Errorf("%s: got %v, want one field error", c.body, err)
			continue
		}
		fe := e.Fields[0]
		if fe.Path != c.path || fe.Params["expected"] != c.expected {
			t.Errorf("%s: got path %q expected %v; want %q expected %q", c.body, fe.Path, fe.Params["expected"], c.path, c.expected)
		}
	}
}

// The JSON type comes from the kind, never from the type's name: a string
// type whose name holds "int" or "Link" is still a string.
func TestJSONTypeNameGoesByKind(t *testing.T) {
	type checkpoint string
	type Linkage string
	cases := []struct {
		t    reflect.Type
		want string
	}{
		{reflect.TypeFor[checkpoint](), "string"},
		{reflect.TypeFor[Linkage](), "string"},
		{reflect.TypeFor[*bool](), "boolean"},
		{reflect.TypeFor[uint8](), "number"},
		{reflect.TypeFor[float64](), "number"},
		{reflect.TypeFor[map[string]string](), "object"},
		{reflect.TypeFor[api.Link](), "object"},
		{reflect.TypeFor[time.Time](), "string"},
		{reflect.TypeFor[api.Optional[[]api.Link]](), "array"},
		{reflect.TypeFor[api.Optional[int]](), "number"},
	}
	for _, c := range cases {
		if got := jsonTypeName(c.t); got != c.want {
			t.Errorf("jsonTypeName(%v) = %q, want %q", c.t, got, c.want)
		}
	}
}
