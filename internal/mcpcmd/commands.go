// Package mcpcmd is the MCP server's commands, `mcp` (stdio) and `serve`
// (Streamable HTTP and the REST mirror), built into gitwarrant-mcp only:
// the MCP SDK they link would cost every other gitwarrant command its
// start-up (docs/mcp.md#cost). `gitwarrant mcp` and `gitwarrant serve` run
// them (internal/cli/cmd_mcp_exec.go).
package mcpcmd

import (
	"github.com/gitwarrant/gitwarrant/internal/cli"
	"github.com/spf13/cobra"
)

// Commands are gitwarrant-mcp's only commands (cli.MainWith); the
// gitwarrant binary's `mcp` and `serve` run them.
func Commands() []func(*cli.App) *cobra.Command {
	return []func(*cli.App) *cobra.Command{newMCPCmd, newServeCmd}
}
