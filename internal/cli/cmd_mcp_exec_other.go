//go:build !unix

package cli

// replaceWithMCP cannot replace the process here (no execve): the caller
// runs the server as a child (docs/mcp.md#the-server-binary).
func replaceWithMCP(*App, string, []string) error { return errNoReplace }
