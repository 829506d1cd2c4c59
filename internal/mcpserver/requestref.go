package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dealctl/dealctl/internal/api"
)

// RequestRef names a request in a tool's input: its number as a string
// ("2.10") or its id. A JSON number is taken too, since outside clients
// send one for what looks like one (the Inspector's --tool-arg
// request=2.3), but its digits are lost on the way (2.10 arrives as
// 2.1), so it names a request only where no other number on the deal
// reads as the same number.
type RequestRef struct {
	text   string
	number *float64 // set when the client sent a JSON number
}

// UnmarshalJSON takes a string or a number.
func (r *RequestRef) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &r.text)
	}
	n, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("a request is named by its number as a string (\"2.3\") or its id, not %s", b)
	}
	r.text, r.number = string(b), &n
	return nil
}

// IsZero reports that no request was named.
func (r RequestRef) IsZero() bool { return strings.TrimSpace(r.text) == "" }

func (r RequestRef) String() string { return strings.TrimSpace(r.text) }

// matchRow is the id of the row r names among rows by number, "" for
// none; a JSON number that more than one number reads as is refused.
func (r RequestRef) matchRow(rows []api.DealRequest) (string, error) {
	var found []api.DealRequest
	for _, row := range rows {
		if r.number == nil && row.Number == r.String() {
			return row.ID, nil
		}
		if r.number != nil {
			if n, err := strconv.ParseFloat(row.Number, 64); err == nil && n == *r.number {
				found = append(found, row)
			}
		}
	}
	switch len(found) {
	case 0:
		return "", nil
	case 1:
		return found[0].ID, nil
	}
	numbers := make([]string, len(found))
	for i, row := range found {
		numbers[i] = row.Number
	}
	return "", fmt.Errorf("request %s was sent as a JSON number, which reads as any of %s: send the number as a string (\"%s\")",
		r.text, strings.Join(numbers, ", "), numbers[len(numbers)-1])
}

// inputOptions are how the tools' input schemas are inferred: a
// RequestRef is a string or a number.
var inputOptions = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[RequestRef](): {Types: []string{"string", "number"}},
}}

// addTool is mcp.AddTool with the input schema inferred by
// inputOptions, and both schemas' enumerations named (schemaFor).
func addTool[In, Out any](s *Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	in, err := schemaFor[In](inputOptions)
	if err != nil {
		panic(fmt.Sprintf("the input schema of %s: %v", t.Name, err))
	}
	out, err := schemaFor[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("the output schema of %s: %v", t.Name, err))
	}
	t.InputSchema, t.OutputSchema = in, out
	mcp.AddTool(s.mcp, t, h)
}
