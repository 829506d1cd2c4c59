// Package openapi embeds the machine-readable descriptions the server
// publishes without a key: the OpenAPI 3.1 document (served as YAML and as
// JSON) and the llms.txt guide.
//
// openapi.yaml is the single source; the JSON form is derived from it so
// the two can never drift apart.
package openapi

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"go.yaml.in/yaml/v3"
)

//go:embed openapi.yaml
var document []byte

//go:embed llms.txt
var llms []byte

// YAML returns the OpenAPI document as written. Callers must not modify it.
func YAML() []byte { return document }

// LLMS returns the plain-text guide served at /llms.txt. Callers must not
// modify it.
func LLMS() []byte { return llms }

var (
	jsonOnce sync.Once
	jsonDoc  []byte
)

// JSON returns the OpenAPI document converted to JSON, built on first use.
// The embedded YAML is checked by this package's tests, so a conversion
// failure is a build defect and panics rather than serving a broken document.
func JSON() []byte {
	jsonOnce.Do(func() {
		b, err := yamlToJSON(document)
		if err != nil {
			panic("openapi: embedded openapi.yaml does not convert to JSON: " + err.Error())
		}
		jsonDoc = b
	})
	return jsonDoc
}

// yamlToJSON converts a YAML document to indented JSON.
func yamlToJSON(src []byte) ([]byte, error) {
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		return nil, err
	}
	v, err := jsonable(v)
	if err != nil {
		return nil, err
	}
	return json.MarshalIndent(v, "", "  ")
}

// jsonable rewrites what yaml.v3 decodes into values encoding/json accepts.
// yaml.v3 gives map[string]any for mappings with plain string keys, but
// map[any]any as soon as one key is not a string (a response code written
// as 200 instead of "200"), which encoding/json refuses; JSON object keys
// are strings, so such keys are formatted.
func jsonable(v any) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			c, err := jsonable(e)
			if err != nil {
				return nil, err
			}
			t[k] = c
		}
		return t, nil
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			c, err := jsonable(e)
			if err != nil {
				return nil, err
			}
			key, ok := k.(string)
			if !ok {
				if k == nil || isComposite(k) {
					return nil, fmt.Errorf("mapping key %v cannot be a JSON object key", k)
				}
				key = fmt.Sprint(k)
			}
			m[key] = c
		}
		return m, nil
	case []any:
		for i, e := range t {
			c, err := jsonable(e)
			if err != nil {
				return nil, err
			}
			t[i] = c
		}
		return t, nil
	default:
		return v, nil
	}
}

func isComposite(k any) bool {
	switch k.(type) {
	case map[string]any, map[any]any, []any:
		return true
	}
	return false
}
