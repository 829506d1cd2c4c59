package output

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/display"
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
		if err := display.WriteJSON(&want, reflect.ValueOf(decoded).Elem().Interface()); err != nil {
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
	for _, in := range []string{``, `[`, `[1,]`, `{"a" 1}`, `{"a":1]`, `[1 2]`, `"open`, `[1]x`, `{,}`, `[:]`, "[\"a\x01\"]", `{"a":}`,
		`{"a"}`, `{"a":1:2}`, `{1:2}`, `{[]:1}`, `{"a":1,}`, `{"a","b"}`, `{"a":1,2:3}`, `["a":1]`, `{"a":{"b"}}`, `[{"a":1},{"b"}]`, `{"a":[1,{"c":}]}`} {
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

// However the input is cut into chunks, the output is the same: an
// escape sequence or a literal cut in two is put back together.
func FuzzCopyRawJSONChunked(f *testing.F) {
	for _, s := range []string{`[{"a":"\u003c\\u003c x","b":[1,2,{}],"c":null}]`, `{"k":[],"n":-12.5e+7,"t":true}`, `"\u0026\u00"`, ` [ "é " ] `} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, in []byte, size uint8) {
		var whole bytes.Buffer
		wantErr := WriteRawJSON(&whole, in)
		chunk := minChunk + int(size)%24
		var got bytes.Buffer
		err := copyRawJSON(&got, bytes.NewReader(in), chunk)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("%q in chunks of %d: error %v, whole: %v", in, chunk, err, wantErr)
		}
		if err == nil && got.String() != whole.String() {
			t.Fatalf("%q in chunks of %d:\n%s\nwhole:\n%s", in, chunk, got.String(), whole.String())
		}
	})
}

func TestCopyRawJSONChunkBoundaries(t *testing.T) {
	body, err := json.Marshal([]map[string]any{
		{"title": "a <b> & c", "sep": "x y z", "n": 12345678, "ok": true, "none": nil, "empty": map[string]any{}, "list": []int{}},
		{"title": `quote " and \ slash`, "n": -0.25, "nested": map[string]any{"deeper": []any{1, "two", false}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := WriteRawJSON(&want, body); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(want.String(), "a <b> & c") || !strings.Contains(want.String(), `x\u2028y\u2029z`) {
		t.Fatalf("escapes not rewritten:\n%s", want.String())
	}
	for chunk := minChunk; chunk <= len(body)+1; chunk++ {
		var got bytes.Buffer
		if err := copyRawJSON(&got, bytes.NewReader(body), chunk); err != nil {
			t.Fatalf("chunks of %d: %v", chunk, err)
		}
		if got.String() != want.String() {
			t.Fatalf("chunks of %d:\n%s\nwant:\n%s", chunk, got.String(), want.String())
		}
	}
}

// decodeNumbers decodes keeping numbers as written, so that values past
// float64's range compare too.
func decodeNumbers(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	return v, d.Decode(&v)
}

// BenchmarkCopyRawJSON lays out a list of 2,200 rows as the server sends
// it, the bulk of `requests ls -o json` (issue 4's target is the whole
// command within 1.6x of curl: see scripts/bench-client.sh).
func BenchmarkCopyRawJSON(b *testing.B) {
	body := benchList(b)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if err := CopyRawJSON(io.Discard, bytes.NewReader(body)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIndentStdlib does the same with the standard library, as
// CopyRawJSON's alternative: the whole answer read into memory, then
// json.Indent. Run with BenchmarkCopyRawJSON to compare them in one run
// (docs/client.md, "Performance").
func BenchmarkIndentStdlib(b *testing.B) {
	body := benchList(b)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		in, err := io.ReadAll(bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		var out bytes.Buffer
		if err := json.Indent(&out, in, "", "  "); err != nil {
			b.Fatal(err)
		}
		if _, err := out.WriteTo(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// benchList is a 2,200-row list as the server sends it.
func benchList(b *testing.B) []byte {
	b.Helper()
	ts := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	rows := make([]api.DealRequest, 2200)
	for i := range rows {
		rows[i] = api.DealRequest{ID: fmt.Sprintf("01a200d4-b8bb-771e-9adf-%012d", i), Kind: api.KindRequest,
			Number: fmt.Sprintf("%d.%d", i/20+1, i%20+1), Title: fmt.Sprintf("Request %d: copies of every agreement <of kind> %d, with amendments", i, i%97),
			Body:   "Provide the signed copies, the schedules & any side letters. Flag anything that changes control, pricing or exclusivity.",
			Status: api.StatusOpen, AllowedStatuses: []api.RequestStatus{api.StatusPartial, api.StatusComplete}, Priority: api.PriorityHigh,
			Files: []api.File{}, CreatedAt: ts, UpdatedAt: ts, DueDate: ptr("2027-01-02")}
	}
	body, err := json.Marshal(rows)
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// The eight-at-a-time test agrees with the byte table on every byte in
// every position.
func TestHasStringStopMatchesTable(t *testing.T) {
	for c := range 256 {
		for pos := range 8 {
			for _, fill := range []byte{'a', 0x7F, 0xFF, 0x80, ' '} {
				var b [8]byte
				for k := range b {
					b[k] = fill
				}
				b[pos] = byte(c)
				want := stringStop[c] || stringStop[fill]
				if got := hasStringStop(binary.LittleEndian.Uint64(b[:])); got != want {
					t.Fatalf("byte %#x at %d among %#x: got %v, want %v", c, pos, fill, got, want)
				}
			}
		}
	}
}

// A connection cut part-way is an error, not the end of the input: a
// number cut short must not be printed as if whole.
func TestCopyRawJSONCutInput(t *testing.T) {
	r := io.MultiReader(strings.NewReader("[12"), iotest.ErrReader(io.ErrUnexpectedEOF))
	if err := CopyRawJSON(io.Discard, r); err != io.ErrUnexpectedEOF {
		t.Fatalf("err = %v, want io.ErrUnexpectedEOF", err)
	}
	r = io.MultiReader(strings.NewReader("12"), iotest.ErrReader(io.ErrUnexpectedEOF))
	var out bytes.Buffer
	if err := CopyRawJSON(&out, r); err == nil {
		t.Fatalf("a cut number was accepted: %q", out.String())
	}
}
