//go:build !gitwarrant_nomcp

package cli

import "github.com/spf13/cobra"

// mcpCommands are the commands that link the MCP SDK: `mcp` (stdio) and
// `serve` (Streamable HTTP and the REST mirror). The build tag
// gitwarrant_nomcp leaves them out; bench/mcplink.sh builds both ways to
// measure what linking the SDK costs every other command's start-up, the
// hook's above all (docs/mcp.md#cost).
func mcpCommands() []func(*App) *cobra.Command {
	return []func(*App) *cobra.Command{newMCPCmd, newServeCmd}
}
