package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/syncbuf"
)

// TestPipedRequestsAreAllAnswered: a script pipes its requests and
// closes stdin; every request is answered before the session ends, the
// tool calls in flight at the input's end included.
func TestPipedRequestsAreAllAnswered(t *testing.T) {
	a := startAPI(t)
	s := New(Options{Client: a.client(t, aliceKey), Server: a.URL, Now: func() time.Time { return testNow }, Version: "test"})
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"script","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_requests","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":"four","method":"tools/call","params":{"name":"whoami","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_request","arguments":{"request":"2.1"}}}`,
	}, "\n") + "\n"
	var out syncbuf.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Run(ctx, StdioTransport(strings.NewReader(in), &out)); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
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
	if want := []string{`"four"`, "1", "2", "3", "5"}; !slices.Equal(ids, want) {
		t.Errorf("answered %v, want %v", ids, want)
	}
}
