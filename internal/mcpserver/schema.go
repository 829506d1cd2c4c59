package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/dealctl/dealctl/internal/api"
)

// enumNames fills in the enumerations a schema's descriptions name:
// a jsonschema tag says {priority} where the values go, and they are
// taken from api's lists, so a value added there shows in every tool.
var enumNames = strings.NewReplacer(
	"{status}", orList(api.RequestStatuses),
	"{priority}", orList(api.Priorities),
	"{category}", orList(api.RequestCategories),
	"{request_kind}", orList(api.RequestKinds),
	"{message_kind}", orList(api.MessageKinds),
	"{source}", orList(api.MessageSources),
	"{side}", orList(api.Sides),
	"{access}", orList(api.Accesses),
	"{key_access}", orList(api.KeyAccesses),
)

// orList is "a, b or c".
func orList[T ~string](xs []T) string {
	names := api.Names(xs)
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// schemaFor is T's schema as opts infer it, with enumNames filled in.
func schemaFor[T any](opts *jsonschema.ForOptions) (*jsonschema.Schema, error) {
	schema, err := jsonschema.For[T](opts)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	filled := enumNames.Replace(string(b))
	if filled == string(b) {
		return schema, nil
	}
	var out jsonschema.Schema
	if err := json.Unmarshal([]byte(filled), &out); err != nil {
		return nil, fmt.Errorf("with the enumerations filled in: %w", err)
	}
	return &out, nil
}
