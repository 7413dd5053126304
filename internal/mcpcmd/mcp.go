package mcpcmd

import (
	"errors"
	"github.com/gitwarrant/gitwarrant/internal/cli"
	"io"

	"github.com/gitwarrant/gitwarrant/internal/mcp"
	"github.com/spf13/cobra"
)

func newMCPCmd(app *cli.App) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp [--dir PATH]",
		Short: "serve the agent tools over MCP on stdio",
		Long: `Serve gitwarrant's tools to an MCP client over stdio: list_loops,
loop_context, warrant_check, record_note, match_loop, propose_amendment,
get_proposal and get_metrics (docket_* names are accepted too). Checks are
recorded with via "mcp" and credential "stdio".

The project comes from --dir, GITWARRANT_DIR or DOCKET_DIR, or walking up
from the working directory, and is looked up on every call: the server
always answers initialize, and a missing or broken project is a tool error
with a hint. No tool amends, merges, deletes or administers.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			srv := mcp.NewSDKServer(mcpService(app), mcp.Caller{Via: "mcp", Credential: "stdio"}, cli.Version, nil)
			t := &mcp.StdioTransport{In: app.IO.In, Out: app.IO.Out}
			err := srv.Run(cmd.Context(), t)
			// The end of input is how a client says goodbye; the transport
			// has answered every request it read by then.
			if err != nil && cmd.Context().Err() == nil && !errors.Is(err, io.EOF) {
				return err
			}
			return nil
		},
	}
}
