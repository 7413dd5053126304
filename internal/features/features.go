// Package features holds switches for surfaces that are not built yet, so
// nothing is advertised that does not run (docs/design.md#enforcement-surfaces).
// It is a leaf: constants only.
package features

// MCP says whether the `gitwarrant mcp` server exists. While it is false,
// install writes no .mcp.json entry and the compiled context names no MCP
// tools; the change that adds the server flips it.
const MCP = false
