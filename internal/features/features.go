// Package features holds switches for surfaces that are not built yet, so
// nothing is advertised that does not run (docs/design.md#enforcement-surfaces).
// It is a leaf: constants only.
package features

// MCP says whether the `gitwarrant mcp` server exists. While it was false,
// install wrote no .mcp.json entry and the compiled context named no MCP
// tools. The server exists (docs/mcp.md), so both are on.
const MCP = true
