package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func wantAll(string) bool { return true }

func TestScanObject(t *testing.T) {
	t.Parallel()
	accepted := []string{
		`{}`, ` {"a":1} `, `{"a":[1,2.5,-0,1e9,-1.5E-3,true,false,null,"x"]}`,
		`{"t":"\u00e9\ud834\udd1e\n\"\\\/"}`, "{\"t\":\"é𝄞\"}", `{"a":{"b":{"c":[]}}}`,
	}
	for _, in := range accepted {
		if _, err := scanObject([]byte(in), wantAll); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
	refused := []string{
		``, `[]`, `"x"`, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":[1,]}`, `{"a":01}`, `{"a":1.}`,
		`{"a":tru}`, `{"a":"\x"}`, `{"a":"\u12"}`, `{} {}`, `{"a":1}x`, "{\"a\":\"\x7f\xff\"}",
		`{"a":"\ud800"}`, `{"a":"\udc00"}`, `{"a":"\ud800\u0041"}`, "{\"a\":\"\t\"}",
		`{"a":` + strings.Repeat("[", maxBodyDepth) + strings.Repeat("]", maxBodyDepth) + `}`,
	}
	for _, in := range refused {
		if _, err := scanObject([]byte(in), wantAll); err == nil {
			t.Errorf("%q was accepted", in)
		}
	}
	// A name twice in one object, at any depth and however it is
	// spelt, is refused: readers differ on which one counts.
	many := func(extra string) string {
		var b strings.Builder
		b.WriteString(`{"links":[{`)
		for i := range 3 * smallObject {
			fmt.Fprintf(&b, `"n%d":1,`, i)
		}
		return b.String() + extra + `"url":"x"}]}`
	}
	for _, in := range []string{
		`{"internal":false,"internal":true}`, `{"a":1,"\u0061":2}`, `{"t\u0065xt":1,"text":2}`,
		`{"links":[{"url":"a","url":"b"}]}`, `{"x":{"y":{"z":1,"z":1}}}`, many(`"n7":2,`),
	} {
		_, err := scanObject([]byte(in), wantAll)
		if se, ok := err.(*scanError); !ok || se.reason != "malformed_json" || !strings.Contains(se.detail, "a second time") {
			t.Errorf("%.80s: %v, want malformed_json naming a field twice", in, err)
		}
	}
	for _, in := range []string{`{"a":{"a":1},"b":{"a":1}}`, `{"a":[{"a":1},{"a":1}],"c":{"a":{"a":1}}}`, many("")} {
		if _, err := scanObject([]byte(in), wantAll); err != nil {
			t.Errorf("%.80s: %v", in, err)
		}
	}
	got, err := scanObject([]byte(`{"links":[{},{},{}],"t\u0065xt":"b","other":[1]}`), func(n string) bool { return n != "other" })
	if err != nil {
		t.Fatal(err)
	}
	if got["links"].items != 3 || string(got["text"].raw) != `"b"` {
		t.Errorf("members %+v: want 3 links and the text", got)
	}
	if _, ok := got["other"]; ok {
		t.Error("an unwanted member was returned")
	}
}

// FuzzScanObject holds the scanner to encoding/json: whatever it accepts
// is valid JSON, and valid UTF-8 JSON objects without \u escapes and
// within the depth bound are accepted.
func FuzzScanObject(f *testing.F) {
	for _, seed := range []string{`{}`, `{"a":[{"b":null}]}`, `{"t":"\ud83d\ude00"}`, `{"a":-1.5e3}`, "{\"a\":\"\xff\"}"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := scanObject(data, wantAll)
		trimmed := bytes.TrimSpace(data)
		isObject := len(trimmed) > 0 && trimmed[0] == '{'
		if err == nil && (!json.Valid(data) || !isObject || !utf8.Valid(data)) {
			t.Fatalf("accepted %q, which encoding/json or UTF-8 refuses", data)
		}
		if err != nil && json.Valid(data) && isObject && utf8.Valid(data) && !bytes.Contains(data, []byte(`\u`)) && depth(data) <= maxBodyDepth && !namedTwice(data) {
			t.Fatalf("refused %q: %v", data, err)
		}
	})
}

// namedTwice reports whether an object of valid JSON data has a member
// name twice, as encoding/json's tokens show it.
func namedTwice(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type level struct {
		object bool
		names  map[string]bool
		key    bool // the next string token is a member name
	}
	var stack []*level
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *level
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, &level{object: true, names: map[string]bool{}, key: true})
				continue
			case '[':
				stack = append(stack, &level{})
				continue
			default:
				stack = stack[:len(stack)-1]
			}
		case string:
			if top != nil && top.object && top.key {
				if top.names[v] {
					return true
				}
				top.names[v] = true
				top.key = false
				continue
			}
		}
		// A value ended: in an object, a name comes next.
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true
		}
	}
}

// depth is the deepest nesting of brackets outside strings.
func depth(data []byte) int {
	d, deepest, inString, escaped := 0, 0, false, false
	for _, c := range data {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			d++
			deepest = max(deepest, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
}
