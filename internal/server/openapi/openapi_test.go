package openapi

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/dealctl/dealctl/internal/api"
)

// doc is the subset of the document these tests look at.
type doc struct {
	OpenAPI    string                    `yaml:"openapi"`
	Paths      map[string]map[string]any `yaml:"paths"`
	Components struct {
		Schemas map[string]struct {
			Enum []string `yaml:"enum"`
		} `yaml:"schemas"`
	} `yaml:"components"`
}

func load(t *testing.T) doc {
	t.Helper()
	var d doc
	if err := yaml.Unmarshal(YAML(), &d); err != nil {
		t.Fatalf("openapi.yaml does not parse: %v", err)
	}
	if d.OpenAPI != "3.1.0" {
		t.Fatalf("openapi = %q, want 3.1.0", d.OpenAPI)
	}
	return d
}

func TestJSONIsTheYAMLDocument(t *testing.T) {
	var fromYAML, fromJSON any
	if err := yaml.Unmarshal(YAML(), &fromYAML); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(JSON()) {
		t.Fatal("JSON() is not valid JSON")
	}
	if err := json.Unmarshal(JSON(), &fromJSON); err != nil {
		t.Fatal(err)
	}
	// Round-trip the YAML through JSON too, so numbers compare as float64.
	b, err := json.Marshal(fromYAML)
	if err != nil {
		t.Fatalf("YAML does not encode as JSON: %v", err)
	}
	want, got := new(any), new(any)
	_ = json.Unmarshal(b, want)
	_ = json.Unmarshal(JSON(), got)
	wb, _ := json.Marshal(want)
	gb, _ := json.Marshal(got)
	if !bytes.Equal(wb, gb) {
		t.Fatal("JSON() differs from the YAML document")
	}
	if !bytes.Equal(JSON(), JSON()) {
		t.Fatal("JSON() is not stable")
	}
}

func TestYAMLToJSONStringifiesKeys(t *testing.T) {
	got, err := yamlToJSON([]byte("responses:\n  200: ok\n  true: yes\n  1.5: x\n"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]map[string]string
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatalf("%v in %s", err, got)
	}
	if m["responses"]["200"] != "ok" || m["responses"]["true"] != "yes" || m["responses"]["1.5"] != "x" {
		t.Fatalf("keys not stringified: %s", got)
	}
	if _, err := yamlToJSON([]byte("? [a, b]\n: c\n")); err == nil {
		t.Fatal("a sequence as a mapping key should be refused")
	}
}

// Every schema must be named after a type of internal/api, so the document
// and the wire types are found under the same names.
func TestSchemasAreAPITypes(t *testing.T) {
	types := apiTypeNames(t)
	for name := range load(t).Components.Schemas {
		if !types[name] {
			t.Errorf("schema %s has no type of that name in internal/api", name)
		}
	}
}

// The enumerations must list exactly the values of internal/api.
func TestEnumsMatchAPI(t *testing.T) {
	want := map[string][]string{
		"Access":          api.Names(api.Accesses),
		"KeyAccess":       api.Names(api.KeyAccesses),
		"Side":            api.Names(api.Sides),
		"ParticipantRole": api.Names(api.ParticipantRoles),
		"RequestKind":     api.Names(api.RequestKinds),
		"RequestStatus":   api.Names(api.RequestStatuses),
		"Priority":        api.Names(api.Priorities),
		"RequestCategory": api.Names(api.RequestCategories),
		"MessageKind":     api.Names(api.MessageKinds),
		"MessageSource":   api.Names(api.MessageSources),
		"BodyFormat":      {string(api.FormatText), string(api.FormatMarkdown)},
		"FileKind":        {string(api.FileKindFile), string(api.FileKindLink)},
		"ErrorCode": api.Names([]api.ErrorCode{
			api.CodeBadRequest, api.CodeValidationFailed, api.CodeUnauthenticated,
			api.CodeForbidden, api.CodeNotFound, api.CodeMethodNotAllowed, api.CodeConflict,
			api.CodeConflictStale, api.CodeRateLimited, api.CodePayloadTooLarge, api.CodeInternal,
		}),
	}
	schemas := load(t).Components.Schemas
	for name, values := range want {
		got := slices.Clone(schemas[name].Enum)
		slices.Sort(got)
		slices.Sort(values)
		if !slices.Equal(got, values) {
			t.Errorf("schema %s enum = %v, internal/api has %v", name, got, values)
		}
	}
}

// llms.txt must mention every path, so the guide does not fall behind.
func TestLLMSMentionsEveryPath(t *testing.T) {
	text := string(LLMS())
	for p := range load(t).Paths {
		if !strings.Contains(text, p) {
			t.Errorf("llms.txt does not mention %s", p)
		}
	}
}

// apiTypeNames parses internal/api rather than listing types by hand, so a
// type added there is known here at once.
func apiTypeNames(t *testing.T) map[string]bool {
	t.Helper()
	const dir = "../../api"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					names[s.(*ast.TypeSpec).Name.Name] = true
				}
			}
		}
	}
	if len(names) == 0 {
		t.Fatal("found no types in internal/api")
	}
	return names
}
