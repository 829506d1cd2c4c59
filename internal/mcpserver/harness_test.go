package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/world"
	"github.com/dealctl/dealctl/internal/world/worldtest"
)

// The keys of testdata/world.yaml: the owning side's admin and the
// counterparty's editor.
const (
	aliceKey = "dlk_mcpalice0000000000000000000000000"
	bobKey   = "dlk_mcpbob000000000000000000000000000"
)

// testNow is the clock of the server and of the MCP server: 1.1, due 5
// March, is overdue; 1.2, due 10 April, is not.
var testNow = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

var seeds worldtest.Seeds

// liveAPI is the real dealctl server on a copy of testdata/world.yaml,
// on loopback, recording the writes that reach it.
type liveAPI struct {
	URL string
	ids *world.Result

	mu      sync.Mutex
	writes  []string    // "METHOD path Idempotency-Key" of each POST and PATCH
	lists   int         // GETs of a deal's whole list (…/requests)
	hideExt atomic.Bool // answer as a server without extensions
}

func startAPI(t *testing.T) *liveAPI {
	t.Helper()
	db := filepath.Join(t.TempDir(), "dealctl.db")
	ids, err := seeds.Copy(db, filepath.Join("testdata", "world.yaml"), testNow.Add(-9*24*time.Hour), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	a := &liveAPI{ids: ids}
	hs := httptest.NewUnstartedServer(nil)
	a.URL = "http://" + hs.Listener.Addr().String()
	start := time.Now()
	srv, err := server.New(ctx, server.Config{Store: st, BaseURL: a.URL, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Now: func() time.Time { return testNow.Add(time.Since(start)) }})
	if err != nil {
		t.Fatal(err)
	}
	hs.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost || r.Method == http.MethodPatch {
			a.mu.Lock()
			a.writes = append(a.writes, r.Method+" "+r.URL.Path+" "+r.Header.Get(api.IdempotencyKeyHeader))
			a.mu.Unlock()
		}
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/requests") {
			a.mu.Lock()
			a.lists++
			a.mu.Unlock()
		}
		if a.hideExt.Load() {
			srv.ServeHTTP(&hideExtensions{ResponseWriter: w}, r)
			return
		}
		srv.ServeHTTP(w, r)
	})
	hs.Start()
	t.Cleanup(hs.Close)
	return a
}

// hideExtensions answers as a server that advertises no extension.
type hideExtensions struct{ http.ResponseWriter }

func (h *hideExtensions) WriteHeader(code int) {
	h.Header().Del(api.ExtensionsHeader)
	h.ResponseWriter.WriteHeader(code)
}

// listReads is how many times a deal's whole list was read so far.
func (a *liveAPI) listReads() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lists
}

// writesTo are the recorded POSTs and PATCHes whose path ends in suffix.
func (a *liveAPI) writesTo(suffix string) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, w := range a.writes {
		if strings.HasSuffix(strings.Fields(w)[1], suffix) {
			out = append(out, w)
		}
	}
	return out
}

// client is an API client with key, as dealctl builds one (no cache).
func (a *liveAPI) client(t *testing.T, key string) *client.Client {
	t.Helper()
	c, err := client.New(client.Options{BaseURL: a.URL, Key: key, UserAgent: "dealctl-mcp-test",
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// requestID is the id of the falcon request numbered n.
func (a *liveAPI) requestID(n string) string { return a.ids.Requests["falcon/"+n] }

func (a *liveAPI) dealID() string { return a.ids.Deals["falcon"] }

// session is an MCP client (the SDK's) connected in memory to dealctl's
// MCP server acting with key.
type session struct {
	t  *testing.T
	cs *mcp.ClientSession
}

type sessionOptions struct {
	allowWrites bool
	// elicit, when set, makes the client support elicitation and
	// answers each one.
	elicit func(*mcp.ElicitRequest) (*mcp.ElicitResult, error)
	// protocol is the MCP version the client asks for; "" for the SDK's
	// newest.
	protocol string
	// secret signs the confirmation tokens; nil: the process's own.
	secret []byte
}

func (a *liveAPI) session(t *testing.T, key string, o sessionOptions) *session {
	t.Helper()
	ctx := context.Background()
	s := New(Options{Client: a.client(t, key), Server: a.URL, Deal: "", AllowWrites: o.allowWrites,
		Now: func() time.Time { return testNow }, Version: "test", TokenSecret: o.secret})
	var copts *mcp.ClientOptions
	if o.elicit != nil {
		copts = &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return o.elicit(r)
		}}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, copts)
	st, ct := mcp.NewInMemoryTransports()
	if _, err := s.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: o.protocol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &session{t: t, cs: cs}
}

// call calls tool with args and returns its result; a protocol error
// fails the test.
func (s *session) call(tool string, args map[string]any) *mcp.CallToolResult {
	s.t.Helper()
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: %v", tool, err)
	}
	return res
}

// callOK calls tool, fails the test on a tool error, and decodes the
// structured output into out.
func callOK[T any](s *session, tool string, args map[string]any) T {
	s.t.Helper()
	res := s.call(tool, args)
	if res.IsError {
		s.t.Fatalf("%s(%v): tool error: %s", tool, args, text(res))
	}
	var out T
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		s.t.Fatal(err)
	}
	if err := json.Unmarshal(data, &out); err != nil {
		s.t.Fatalf("%s: structured output %s: %v", tool, data, err)
	}
	return out
}

// text is the result's text content, joined.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// toolNames lists the tools the session is offered.
func (s *session) toolNames() map[string]*mcp.Tool {
	s.t.Helper()
	out := map[string]*mcp.Tool{}
	for tool, err := range s.cs.Tools(context.Background(), nil) {
		if err != nil {
			s.t.Fatal(err)
		}
		out[tool.Name] = tool
	}
	return out
}
