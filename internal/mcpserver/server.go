package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// Options configure the MCP server.
type Options struct {
	// Client calls the API with the user's key: every tool acts through
	// it, with exactly that key's rights.
	Client *client.Client
	// Server is the API's address, shown by whoami.
	Server string
	// Deal is the deal a tool works on when the call names none (--deal,
	// DEALCTL_DEAL or `deals use`), as the user named it (whoami shows
	// it); "" for the key's only deal.
	Deal string
	// DealID is Deal's id when it was resolved at start: tool calls then
	// read the deal by id, without the list of deals each time.
	DealID string
	// AllowWrites registers the write tools (--allow-writes).
	AllowWrites bool
	// Now is the clock (the deal's today, the confirmation tokens'
	// lifetime); time.Now when nil.
	Now func() time.Time
	// Version is dealctl's, reported to the MCP client.
	Version string
	// TokenSecret signs the confirmation tokens (TokenSecret(dir)); nil:
	// a secret of this process's own, so a token dies with it.
	TokenSecret []byte
}

// Server is dealctl's MCP server: the SDK's server with dealctl's tools,
// resources and prompts.
type Server struct {
	opts    Options
	c       *client.Client
	mcp     *mcp.Server
	confirm *confirmer
}

// instructions is what the MCP client is told about the server as a
// whole, at initialisation.
const instructions = "dealctl's tools read and work a due-diligence request list (a deal's requests, their answers, " +
	"files and status) through the Deal Request List Service API, with the user's own key and rights. " +
	untrustedNote + " Writes, when enabled, are confirmed by the user before anything is sent."

// New builds the server; Run serves it.
func New(o Options) *Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Server{opts: o, c: o.Client, confirm: newConfirmer(o.Now, o.TokenSecret)}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "dealctl", Title: "dealctl: deal request lists", Version: o.Version},
		&mcp.ServerOptions{Instructions: instructions})
	s.addReadTools()
	if o.AllowWrites {
		s.addWriteTools()
	}
	s.addResources()
	s.addPrompts()
	return s
}

// MCP is the SDK's server, for a transport to connect (tests use the
// SDK's in-memory transports).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one MCP client over t (dealctl mcp: stdio) until it leaves.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	err := s.mcp.Run(ctx, t)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

func (s *Server) now() time.Time { return s.opts.Now() }

// result is a tool's answer: the note on untrusted text first, then the
// output as JSON (the structured output is the same value).
func result(out any) *mcp.CallToolResult {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // "Kestrel & Vane", not "Kestrel \u0026 Vane"
	if err := enc.Encode(out); err != nil {
		return nil // the SDK then fills the content from the output itself
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: untrustedNote},
		&mcp.TextContent{Text: strings.TrimSuffix(b.String(), "\n")},
	}}
}

// toolError is err as the assistant reads it: the API's refusals say
// what to do, and any text in them is made inert.
func toolError(err error) error {
	if err == nil {
		return nil
	}
	return errors.New(termsafe.OneLine(describeAPIError(err), 2000))
}

// readOnly is the annotations of a tool that changes nothing.
func readOnly(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
}

func ptr[T any](v T) *T { return &v }
