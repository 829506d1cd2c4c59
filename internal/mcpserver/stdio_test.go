package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/dealctl/dealctl/internal/syncbuf"
)

// TestPipedRequestsAreAllAnswered: a script pipes its requests and
// closes stdin; every request is answered before the session ends, the
// tool calls in flight at the input's end included; whether the last
// line ends with a newline or not, and whether the input's end comes
// with its last bytes or after them.
func TestPipedRequestsAreAllAnswered(t *testing.T) {
	a := startAPI(t)
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"script","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_requests","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":"four","method":"tools/call","params":{"name":"whoami","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_request","arguments":{"request":"2.1"}}}`,
	}, "\n")
	for _, tc := range []struct {
		name  string
		input func() io.Reader
	}{
		{"last line ended", func() io.Reader { return strings.NewReader(in + "\n") }},
		{"last line not ended", func() io.Reader { return strings.NewReader(in) }},
		{"end with the last bytes", func() io.Reader { return iotest.DataErrReader(strings.NewReader(in + "\n")) }},
		{"end with the last bytes, not ended", func() io.Reader { return iotest.DataErrReader(strings.NewReader(in)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{Client: a.client(t, aliceKey), Server: a.URL, Now: func() time.Time { return testNow }, Version: "test"})
			var out syncbuf.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := s.Run(ctx, StdioTransport(tc.input(), &out)); err != nil {
				t.Fatal(err)
			}
			if got, want := answeredIDs(t, out.String()), []string{`"four"`, "1", "2", "3", "5"}; !slices.Equal(got, want) {
				t.Errorf("answered %v, want %v", got, want)
			}
		})
	}
}

// answeredIDs is the sorted ids of the answers in out, none an error.
func answeredIDs(t *testing.T, out string) []string {
	t.Helper()
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m struct {
			ID    json.RawMessage `json:"id"`
			Error json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not a JSON-RPC line: %q", line)
		}
		if m.Error != nil {
			t.Errorf("answer %s is an error: %s", m.ID, m.Error)
		}
		ids = append(ids, string(m.ID))
	}
	slices.Sort(ids)
	return ids
}
