package output

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

func ptr[T any](v T) *T { return &v }

// For what the API's types encode (json.Marshal, HTML-escaped, as the
// server sends it), WriteRawJSON prints exactly what decoding the body and
// WriteJSON print.
func TestWriteRawJSONMatchesDecodeEncode(t *testing.T) {
	ts := time.Date(2026, 3, 1, 10, 0, 0, 123000000, time.FixedZone("", 3600))
	rows := []api.DealRequest{
		{ID: "a", Kind: api.KindSection, Number: "1", Title: "Corporate", Status: api.StatusOpen,
			AllowedStatuses: []api.RequestStatus{}, Files: []api.File{}, CreatedAt: ts, UpdatedAt: ts},
		{ID: "b", ParentID: ptr("a"), Kind: api.KindRequest, Number: "1.1",
			Title:     `Tricky <b>&</b> "quotes" \ back\slash \u003c literal, tab	, line` + "\u2028sep\u2029 é 😀 \x01",
			Body:      "Markdown:\n\n* one & two\n* <three>\r\n",
			Requester: ptr("Lex & Co"), DueDate: ptr("2026-12-01"), Status: api.StatusPartial,
			AllowedStatuses: []api.RequestStatus{api.StatusComplete}, Priority: api.PriorityHigh,
			Files:     []api.File{{VersionID: "v", Name: ptr("a<b>.pdf"), Kind: api.FileKindFile, Size: ptr(int64(-12)), Downloadable: true}},
			CreatedAt: ts, UpdatedAt: ts, Can: api.RequestCan{Edit: true}},
	}
	for _, v := range []any{rows, []api.DealRequest{}, rows[1], map[string]any{"n": 1.5e300, "x": nil, "e": map[string]any{}, "t": true}} {
		body, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var decoded any = reflect.New(reflect.TypeOf(v)).Interface()
		if err := json.Unmarshal(body, decoded); err != nil {
			t.Fatal(err)
		}
		var want, got bytes.Buffer
		if err := WriteJSON(&want, reflect.ValueOf(decoded).Elem().Interface()); err != nil {
			t.Fatal(err)
		}
		if err := WriteRawJSON(&got, body); err != nil {
			t.Fatalf("WriteRawJSON(%s): %v", body, err)
		}
		if got.String() != want.String() {
			t.Errorf("differs:\n--- raw\n%s\n--- decoded\n%s", got.String(), want.String())
		}
	}
}

func TestWriteRawJSONRefusesBrokenJSON(t *testing.T) {
	for _, in := range []string{``, `[`, `[1,]`, `{"a" 1}`, `{"a":1]`, `[1 2]`, `"open`, `[1]x`, `{,}`, `[:]`, "[\"a\x01\"]", `{"a":}`} {
		if err := WriteRawJSON(&bytes.Buffer{}, []byte(in)); err == nil {
			t.Errorf("WriteRawJSON(%q) accepted it", in)
		}
	}
}

// Whatever valid JSON comes in, what goes out is valid JSON of the same
// value.
func FuzzWriteRawJSON(f *testing.F) {
	for _, s := range []string{`[]`, `{}`, `[{"a":"\u003c\\u003c\u2028","b":[1,2,{}],"c":null}]`, ` { "x" : [ true , false ] } `, `"\u0026"`, `-0.5e-3`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		err := WriteRawJSON(&out, in)
		if !json.Valid(in) {
			return
		}
		if err != nil {
			t.Fatalf("refused valid JSON %q: %v", in, err)
		}
		a, errA := decodeNumbers(in)
		b, errB := decodeNumbers(out.Bytes())
		if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("%q became %q (%v, %v)", in, out.Bytes(), errA, errB)
		}
	})
}

// decodeNumbers decodes keeping numbers as written, so that values past
// float64's range compare too.
func decodeNumbers(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	return v, d.Decode(&v)
}
