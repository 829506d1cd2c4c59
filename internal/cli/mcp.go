package cli

import (
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/dealctl/dealctl/internal/cli/config"
	"github.com/dealctl/dealctl/internal/mcpserver"
)

// NewCmdMCP is `dealctl mcp`: the MCP server of internal/mcpserver on
// stdin and stdout, acting with this user's client.
func NewCmdMCP(f *Factory) *cobra.Command {
	var allowWrites bool
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the request list to an AI assistant: a Model Context Protocol server over stdio",
		Long: `Serves the deal's request list to an AI assistant (Claude Desktop, VS Code,
any MCP client) as Model Context Protocol tools, resources and prompts, over
stdin and stdout. It acts with this user's key and settings (--server,
DEALCTL_API_KEY or 'auth login'), so the assistant has exactly the key's
rights; --deal, DEALCTL_DEAL or 'deals use' is the deal tools work on when a
call names none.

Reads only, unless --allow-writes: then answer, move_status, assign,
create_request and edit_request are offered too, and each write is confirmed
by the user before it is sent (through the client's confirmation dialog
where it has one, else through a preview the assistant must show and a
token it must pass back). Text from the deal is handed over as data, marked
as written by people on the deal, never as instructions.

It checks the key once at start (as 'dealctl whoami' does) and exits with
whoami's message and exit code when the key is bad, expired or revoked
(4) or the server cannot be reached (1), before serving anything; and the
deal chosen, when one is, exiting 3 when this key reaches no such deal.

See docs/mcp.md for the client configuration, the tools and the safety model.`,
		Example: `  dealctl mcp --deal falcon
  dealctl mcp --allow-writes
  npx @modelcontextprotocol/inspector --cli dealctl mcp --method tools/list`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := f.Client()
			if err != nil {
				return err
			}
			// The key is checked once, before serving: a bad, expired or
			// revoked key, or a server out of reach, fails here as
			// 'dealctl whoami' fails (same message and exit code), so
			// an MCP client or a script sees the failure at start, not
			// at the assistant's first tool call (docs/mcp.md).
			if _, err := c.Me(cmd.Context()); err != nil {
				return err
			}
			server, err := f.Server()
			if err != nil {
				return err
			}
			cfg, err := f.Config()
			if err != nil {
				return err
			}
			// The deal chosen (--deal, DEALCTL_DEAL, 'deals use') is
			// checked too: a mistyped name fails here as 'deals show'
			// fails (3), not as every tool call that names no deal.
			deal, dealID := defaultDeal(cfg, server), ""
			if deal != "" {
				d, err := resolveDeal(cmd.Context(), c, deal)
				if err != nil {
					return err
				}
				dealID = d.Deal.ID
			}
			s := mcpserver.New(mcpserver.Options{Client: c, Server: server, Deal: deal, DealID: dealID,
				AllowWrites: allowWrites, Now: f.Now, Version: version(), TokenSecret: f.mcpTokenSecret()})
			return s.Run(cmd.Context(), mcpserver.StdioTransport(f.IO.In, f.IO.Out))
		},
	}
	cmd.Flags().BoolVar(&allowWrites, "allow-writes", false, "offer the write tools (answer, move_status, assign, create_request, edit_request), each confirmed by the user")
	return cmd
}

// defaultDeal is the deal chosen for server, "" for none: a tool call
// then names its deal, or the key reaches only one.
func defaultDeal(cfg *config.Config, server string) string { return cfg.Deal(server) }

// mcpTokenSecret is the key confirmation tokens are signed with, kept in
// dealctl's cache folder (beside the HTTP cache: ~/.cache/dealctl/mcp) so
// that a token outlives a restart of the server; nil (a key of the
// process's own) where it cannot be kept.
func (f *Factory) mcpTokenSecret() []byte {
	dir, err := f.CacheDir()
	if err == nil {
		var secret []byte
		if secret, err = mcpserver.TokenSecret(filepath.Dir(dir)); err == nil {
			return secret
		}
	}
	f.Warnf("confirmation tokens will not outlive this process: %v", err)
	return nil
}
