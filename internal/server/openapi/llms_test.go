package openapi

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The guide at /llms.txt is what an agent reads instead of the document,
// so these tests hold it to the document: every operation, every field of
// every shape an agent reads or sends, every enumerated value and every
// reason the document names. A change to the document that the guide does
// not follow fails here.

// fullDoc is the part of the document the guide is held to.
type fullDoc struct {
	Info struct {
		Description string `yaml:"description"`
	} `yaml:"info"`
	Paths      map[string]map[string]yaml.Node `yaml:"paths"`
	Components struct {
		Schemas map[string]struct {
			Enum       []string             `yaml:"enum"`
			Properties map[string]yaml.Node `yaml:"properties"`
		} `yaml:"schemas"`
	} `yaml:"components"`
}

func loadFull(t *testing.T) fullDoc {
	t.Helper()
	var d fullDoc
	if err := yaml.Unmarshal(YAML(), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

var methods = []string{"get", "put", "post", "patch", "delete", "head", "options"}

func TestLLMSNamesEveryOperation(t *testing.T) {
	text := string(LLMS())
	for path, item := range loadFull(t).Paths {
		for method := range item {
			if !slices.Contains(methods, method) {
				continue // parameters, summary
			}
			// "GET  /api/v1/deals" must not be satisfied by a longer path.
			op := regexp.MustCompile(`\b` + strings.ToUpper(method) + `\s+` + regexp.QuoteMeta(path) + `(?:[^/\w{]|$)`)
			if !op.MatchString(text) {
				t.Errorf("llms.txt does not name %s %s", strings.ToUpper(method), path)
			}
		}
	}
}

// TestLLMSNamesEveryField: each object shape of the document has its own
// entry in the guide's shapes ("- Name: field, field, ..."), naming each
// of its fields.
func TestLLMSNamesEveryField(t *testing.T) {
	text := string(LLMS())
	for name, schema := range loadFull(t).Components.Schemas {
		if len(schema.Properties) == 0 {
			continue
		}
		entry, ok := shapeEntry(text, name)
		if !ok {
			t.Errorf("llms.txt has no shape entry %q (a line starting \"- %s:\" or \"- %s (\")", name, name, name)
			continue
		}
		for field := range schema.Properties {
			if !regexp.MustCompile(`\b` + regexp.QuoteMeta(field) + `\b`).MatchString(entry) {
				t.Errorf("llms.txt's %s does not name its field %s", name, field)
			}
		}
	}
}

// shapeEntry is the text of the guide's entry for a shape: from its
// "- Name" bullet to the next bullet, heading or blank line. A bullet
// may hold two short shapes ("- User: ... Organization: ...").
func shapeEntry(text, name string) (string, bool) {
	start := regexp.MustCompile(`(?m)^- (?:.*\. )?` + regexp.QuoteMeta(name) + `(?: \([^)]*\))?:`).FindStringIndex(text)
	if start == nil {
		return "", false
	}
	rest := text[start[1]:]
	if end := regexp.MustCompile(`\n(?:- |#|\n)`).FindStringIndex(rest); end != nil {
		rest = rest[:end[0]]
	}
	// A second shape on the same bullet ends this one's fields.
	if next := regexp.MustCompile(`\. [A-Z]\w+:`).FindStringIndex(rest); next != nil {
		rest = rest[:next[0]]
	}
	return rest, true
}

func TestLLMSNamesEveryEnumValue(t *testing.T) {
	text := string(LLMS())
	for name, schema := range loadFull(t).Components.Schemas {
		for _, v := range schema.Enum {
			if !regexp.MustCompile(`(?:^|[^\w.])` + regexp.QuoteMeta(v) + `(?:[^\w.]|\.(?:\s|$)|$)`).MatchString(text) {
				t.Errorf("llms.txt does not name %s's value %s", name, v)
			}
		}
	}
}

// TestLLMSNamesEveryReason: the reasons are those the document's errors
// section lists, and that list holds every reason named anywhere in the
// document (`reason \`x\“, `reasons \`x\`, \`y\“, `reason: x`).
func TestLLMSNamesEveryReason(t *testing.T) {
	d := loadFull(t)
	listed := documentedReasons(t, d.Info.Description)
	for _, r := range reasonsNamed(string(YAML())) {
		if !slices.Contains(listed, r) {
			t.Errorf("the document names reason %s but its list of reasons does not", r)
		}
	}
	text := string(LLMS())
	for _, r := range listed {
		if !regexp.MustCompile(`\b` + r + `\b`).MatchString(text) {
			t.Errorf("llms.txt does not name the reason %s", r)
		}
	}
}

// documentedReasons is the list after "Reasons:" in the description.
func documentedReasons(t *testing.T, description string) []string {
	t.Helper()
	_, after, ok := strings.Cut(description, "Reasons:")
	if !ok {
		t.Fatal("the document's description lists no Reasons:")
	}
	list, _, _ := strings.Cut(after, "A client should")
	var out []string
	for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(list, -1) {
		out = append(out, m[1])
	}
	if len(out) < 20 {
		t.Fatalf("only %d reasons found after Reasons:", len(out))
	}
	return out
}

// reasonsNamed finds every reason the document's text names.
func reasonsNamed(doc string) []string {
	var out []string
	word := regexp.MustCompile("`([a-z_]+)`")
	for _, m := range regexp.MustCompile("reasons?[\\s:]+((?:`[a-z_]+`(?:,\\s*|\\s+or\\s+|\\s+and\\s+)?)+)").FindAllStringSubmatch(doc, -1) {
		for _, w := range word.FindAllStringSubmatch(m[1], -1) {
			out = append(out, w[1])
		}
	}
	for _, m := range regexp.MustCompile(`reason: ([a-z_]+)`).FindAllStringSubmatch(doc, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}
