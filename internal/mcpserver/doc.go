// Package mcpserver is `dealctl mcp`: the deal's request list as Model
// Context Protocol tools, resources and prompts for an AI assistant,
// served over stdio with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk).
//
// It acts only through internal/client, with the user's own key and
// settings, so it works against any server that speaks the API, with
// exactly the caller's rights, and uses the server's extensions
// (list-filters, events, if-match, idempotency-key, search) only where
// they are advertised.
//
// The safety model (docs/mcp.md, "Safety model"):
//
//   - Reads are always there; writes (answer, move_status, assign,
//     create_request, edit_request) are registered only with
//     --allow-writes, and carry the SDK's read-only, destructive and
//     idempotent hints.
//   - Every write is confirmed by the user before it is sent: through MCP
//     elicitation where the client supports it, else by a preview whose
//     confirmation token (signed, bound to the exact write and to the
//     version of the request it was shown on, short-lived) a second call
//     must carry (confirm.go). Declined or unconfirmed, nothing is
//     written.
//   - A write is sent once however often the assistant repeats the call:
//     a POST carries an Idempotency-Key derived from the write itself,
//     a used token answers with what it did the first time, and a PATCH
//     names the version it changes (If-Match / If-Updated-At).
//   - Text written by people on the deal (titles, bodies, messages, file
//     names, link labels, names) is untrusted: it is returned only inside
//     `deal_content` objects, beside who wrote it and from which side,
//     with control and escape characters made visible (internal/termsafe)
//     and its length bounded (content.go); tool descriptions tell the
//     assistant it is data, never instructions.
package mcpserver
