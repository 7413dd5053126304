//go:build gitwarrant_nomcp

package cli

import "github.com/spf13/cobra"

// mcpCommands is empty in a build without the MCP SDK (mcp_link.go).
func mcpCommands() []func(*App) *cobra.Command { return nil }
