package mcpcmd

import (
	"os/exec"
	"strings"
	"testing"
)

// TestGitwarrantDoesNotLinkTheSDK keeps the MCP SDK out of the gitwarrant
// binary: Claude Code starts it before every tool call, and the SDK's
// package initialisation cost that start-up about 2 ms (docs/mcp.md#cost).
// gitwarrant-mcp, which serves the tools, must link it.
func TestGitwarrantDoesNotLinkTheSDK(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	heavy := func(p string) bool {
		return strings.HasPrefix(p, "github.com/modelcontextprotocol/") || strings.HasPrefix(p, "github.com/google/jsonschema-go") || p == "encoding/gob"
	}
	for _, p := range deps("github.com/gitwarrant/gitwarrant/cmd/gitwarrant") {
		if heavy(p) {
			t.Errorf("cmd/gitwarrant links %s: the MCP SDK belongs in cmd/gitwarrant-mcp only", p)
		}
	}
	linked := false
	for _, p := range deps("github.com/gitwarrant/gitwarrant/cmd/gitwarrant-mcp") {
		linked = linked || strings.HasPrefix(p, "github.com/modelcontextprotocol/go-sdk/mcp")
	}
	if !linked {
		t.Error("cmd/gitwarrant-mcp does not link the MCP SDK: the check above proves nothing")
	}
}
